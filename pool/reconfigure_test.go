package pool_test

import (
	"context"
	"slices"
	"testing"

	"github.com/mcpexec/mcpexec/pool"
)

// configured reports whether the manager reports a server named name.
func configured(m *pool.Manager, name string) bool {
	return slices.ContainsFunc(m.Status(), func(s pool.ServerStatus) bool { return s.Name == name })
}

// SetServers follows an edited servers file: a new server connects, a
// removed one leaves the pool and its process stops, an unchanged one keeps
// its connection, a changed one is restarted.
func TestSetServersAddsRemovesAndRestarts(t *testing.T) {
	a := behaviourStdio("a", "")
	m := start(t, []pool.ServerConfig{a}, pool.Options{})
	waitFor(t, m, "a connected", has("mcp__a__echo"))

	b := behaviourInMemory("b")
	if err := m.SetServers([]pool.ServerConfig{a, b}); err != nil {
		t.Fatal(err)
	}
	waitFor(t, m, "b connected", has("mcp__b__echo"))
	if st := statusOf(t, m, "a"); st.Connects != 1 {
		t.Errorf("a connected %d times, want once: an unchanged entry keeps its connection", st.Connects)
	}

	if err := m.SetServers([]pool.ServerConfig{b}); err != nil {
		t.Fatal(err)
	}
	if _, ok := m.Snapshot().Lookup("mcp__a__echo"); ok {
		t.Error("a's tools are still in the pool after it was removed")
	}
	if configured(m, "a") {
		t.Error("a is still reported after it was removed")
	}
	res, err := m.Call(context.Background(), "mcp__a__echo", nil)
	if err == nil {
		t.Errorf("calling a removed server's tool succeeded: %+v", res)
	}

	changed := b
	changed.Dial = behaviourInMemory("b").Dial
	if err := m.SetServers([]pool.ServerConfig{changed}); err != nil {
		t.Fatal(err)
	}
	waitFor(t, m, "b reconnected", has("mcp__b__echo"))
	if st := statusOf(t, m, "b"); st.Connects != 1 {
		t.Errorf("the changed b has %d connects, want a fresh server with 1", st.Connects)
	}
}

func TestSetServersRefusesTwoServersWithOneName(t *testing.T) {
	m := start(t, []pool.ServerConfig{behaviourInMemory("a")}, pool.Options{})
	waitFor(t, m, "a connected", has("mcp__a__echo"))
	if err := m.SetServers([]pool.ServerConfig{behaviourInMemory("x"), behaviourInMemory("x")}); err == nil {
		t.Fatal("SetServers accepted two servers named x")
	}
	if got := names(m.Snapshot()); !slices.Contains(got, "mcp__a__echo") {
		t.Errorf("after a refused SetServers the pool is %v, want a unchanged", got)
	}
}
