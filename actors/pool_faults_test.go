package actors_test

import (
	"context"
	"encoding/json"
	"errors"
	"testing"

	"github.com/mcpexec/mcpexec/actors"
	"github.com/mcpexec/mcpexec/messages"
	"github.com/mcpexec/mcpexec/pool"
)

// panicGate panics when a call to tool passes it, the way a bug in the SDK,
// a server reply's handling or an embedder's Prompter would on a call's path.
type panicGate struct{ tool string }

func (g panicGate) Admit(_ context.Context, name string, _ json.RawMessage) error {
	if name == g.tool {
		panic("bug on the call path")
	}
	return nil
}

// A panic on one call's path fails that call; the pool and other calls go
// on.
func TestPoolCallPanicFailsThatCallOnly(t *testing.T) {
	system := newSystem(t)
	p := startPool(t, system, actors.PoolConfig{Servers: []pool.ServerConfig{behaviour("b")},
		Options: pool.Options{Gate: panicGate{tool: "mcp__b__echo"}}})
	subscribe(t, system, p, "mcp__b__text")
	_, err := p.Call(context.Background(), "mcp__b__echo", json.RawMessage(`{"text":"x"}`))
	var crashed *actors.CallPanicked
	if !errors.As(err, &crashed) || crashed.Tool != "mcp__b__echo" {
		t.Fatalf("call that panicked: %v, want a *CallPanicked", err)
	}
	if res, err := p.Call(context.Background(), "mcp__b__text", nil); err != nil || res.Value != "first\nsecond" {
		t.Fatalf("next call: %+v, %v", res, err)
	}
}

// A crash of the pool actor while it applies a configuration restarts it
// around the same connections and subscribers: they hear the current pool
// again, later configurations apply, and calls never noticed.
func TestPoolActorRestartsAfterACrash(t *testing.T) {
	system := newSystem(t)
	exclude := func(cfg messages.Config) pool.Exclude {
		if len(cfg.Ask) > 0 {
			panic("exclusion bug")
		}
		return func(name string) bool { return len(cfg.Deny) > 0 && name == cfg.Deny[0] }
	}
	p := startPool(t, system, actors.PoolConfig{Servers: []pool.ServerConfig{behaviour("b")}, ExcludeFor: exclude})
	_, changes := subscribe(t, system, p, "mcp__b__text")

	system.Root.Send(p.PID(), &messages.ConfigChanged{Config: messages.Config{Ask: []string{"mcp__b__text"}}})
	// The restarted actor tells its subscribers the pool as it is.
	waitChange(t, changes, "the pool after the restart", hasTool("mcp__b__text"))
	system.Root.Send(p.PID(), &messages.ConfigChanged{Config: messages.Config{Deny: []string{"mcp__b__text"}}})
	waitChange(t, changes, "text excluded after the restart", func(s *pool.Snapshot) bool { return !hasTool("mcp__b__text")(s) })
	if _, err := p.Call(context.Background(), "mcp__b__image", nil); err != nil {
		t.Fatal(err)
	}
}
