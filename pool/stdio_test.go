package pool_test

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/rs/zerolog"

	"github.com/mcpexec/mcpexec/internal/testkit"
	"github.com/mcpexec/mcpexec/internal/testservers"
	"github.com/mcpexec/mcpexec/pool"
)

// alive reports whether pid runs (a zombie has ended).
func alive(pid int) bool {
	data, err := os.ReadFile(fmt.Sprintf("/proc/%d/stat", pid))
	if err != nil {
		return false
	}
	i := bytes.LastIndexByte(data, ')')
	if i < 0 || i+2 >= len(data) {
		return false
	}
	state := data[i+2]
	return state != 'Z' && state != 'X'
}

func waitDead(t *testing.T, what string, pid int) {
	t.Helper()
	deadline := time.Now().Add(patience)
	for alive(pid) {
		if time.Now().After(deadline) {
			t.Fatalf("%s (pid %d) survived", what, pid)
		}
		time.Sleep(10 * time.Millisecond)
	}
}

func callInt(t *testing.T, m *pool.Manager, name string) int {
	t.Helper()
	res, err := m.Call(context.Background(), name, raw(`{}`))
	if err != nil {
		t.Fatalf("%s: %v", name, err)
	}
	n, err := strconv.Atoi(res.Value.(string))
	if err != nil {
		t.Fatalf("%s returned %v", name, res.Value)
	}
	return n
}

func TestStdioCloseKillsTheWholeProcessGroup(t *testing.T) {
	m := start(t, []pool.ServerConfig{behaviourStdio("proc", "")}, pool.Options{})
	server := callInt(t, m, "mcp__proc__pid")
	grandchild := callInt(t, m, "mcp__proc__spawn")
	if !alive(server) || !alive(grandchild) {
		t.Fatal("server and grandchild must run before Close")
	}
	if err := m.Close(); err != nil {
		t.Fatal(err)
	}
	// Close returns once the server is reaped; the grandchild was killed
	// with its group (its reaping is up to init).
	if alive(server) {
		t.Fatalf("server pid %d still runs after Close", server)
	}
	waitDead(t, "grandchild", grandchild)
	if got := m.Snapshot(); got.Len() != 0 {
		t.Fatalf("a closed pool still lists %v", names(got))
	}
}

func TestStdioCrashMidCallOthersKeepWorkingPoolDropsAndRegainsTools(t *testing.T) {
	block := filepath.Join(t.TempDir(), "block")
	logs := &testkit.SyncBuffer{}
	m := start(t, []pool.ServerConfig{behaviourStdio("proc", block), behaviourInMemory("b")}, pool.Options{Logger: zerolog.New(logs)})
	first := callInt(t, m, "mcp__proc__pid")
	grandchild := callInt(t, m, "mcp__proc__spawn")
	if err := os.WriteFile(block, nil, 0o600); err != nil {
		t.Fatal(err)
	}

	_, err := m.Call(context.Background(), "mcp__proc__crash", raw(`{}`))
	var ce *pool.CallError
	if !errors.As(err, &ce) || ce.Kind != pool.KindConnectionLost {
		t.Fatalf("err = %v (%T), want connection lost", err, err)
	}
	want := `MCP tool "mcp__proc__crash" failed: the connection to its server "proc" was lost during the call.`
	if err.Error() != want {
		t.Fatalf("message = %q, want %q", err.Error(), want)
	}
	// The dead server's leftovers go with it.
	waitDead(t, "grandchild of the crashed server", grandchild)

	// While it cannot restart, its tools are gone and calls say why.
	snap := waitFor(t, m, "crashed server's tools dropped", hasNot("mcp__proc__pid"))
	if _, ok := snap.Lookup("mcp__b__text"); !ok {
		t.Fatal("the other server's tools must stay")
	}
	if _, err := m.Call(context.Background(), "mcp__b__text", raw(`{}`)); err != nil {
		t.Fatalf("other server after the crash: %v", err)
	}
	_, err = m.Call(context.Background(), "mcp__proc__pid", raw(`{}`))
	if !errors.As(err, &ce) || ce.Kind != pool.KindServerDown ||
		!strings.HasPrefix(err.Error(), `MCP tool "mcp__proc__pid" is not available: its server "proc" is not connected: it is reconnecting: server process exited: exit status `) {
		t.Fatalf("err = %v, want server down", err)
	}
	// The crash was logged with the exit status; failed restarts report the
	// server's own words.
	if !strings.Contains(logs.String(), "exit status 3") {
		t.Errorf("log does not explain the crash:\n%s", logs.String())
	}
	deadline := time.Now().Add(patience)
	for {
		st := statusOf(t, m, "proc")
		if st.State == pool.StateRetrying && st.Err != nil && strings.Contains(st.Err.Error(), "refusing to start") {
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("status never showed the failed restart: %+v", st)
		}
		time.Sleep(10 * time.Millisecond)
	}

	if err := os.Remove(block); err != nil {
		t.Fatal(err)
	}
	waitFor(t, m, "crashed server back", has("mcp__proc__pid"))
	second := callInt(t, m, "mcp__proc__pid")
	if second == first {
		t.Fatal("the server was not restarted")
	}
	if st := statusOf(t, m, "proc"); st.Connects != 2 {
		t.Fatalf("status = %+v, want 2 connects", st)
	}
	if alive(first) {
		t.Fatal("crashed server process still runs")
	}
}

func TestStdioCommandThatCannotStartFailsOnlyItself(t *testing.T) {
	bad := pool.ServerConfig{Name: "missing", Command: filepath.Join(t.TempDir(), "no-such-binary")}
	m := start(t, []pool.ServerConfig{bad, behaviourInMemory("b")}, pool.Options{})
	if _, err := m.Call(context.Background(), "mcp__b__text", raw(`{}`)); err != nil {
		t.Fatal(err)
	}
	st := statusOf(t, m, "missing")
	if st.Name != "missing" || st.State != pool.StateRetrying || st.Err == nil || !strings.Contains(st.Err.Error(), "no-such-binary") {
		t.Fatalf("status = %+v", st)
	}
}

func TestStdioServerIgnoringStopRequestsIsKilled(t *testing.T) {
	cmd, args, env := testservers.StubbornCommand()
	m := start(t, []pool.ServerConfig{{Name: "stubborn", Command: cmd, Args: args, Env: env}}, pool.Options{StopGrace: 100 * time.Millisecond})
	server := callInt(t, m, "mcp__stubborn__pid")
	grandchild := callInt(t, m, "mcp__stubborn__spawn")
	if err := m.Close(); err != nil {
		t.Fatal(err)
	}
	if alive(server) {
		t.Fatalf("server pid %d survived Close", server)
	}
	waitDead(t, "grandchild", grandchild)
}

func TestStdioEnvIsConfiguredOnTopOfTheDaemons(t *testing.T) {
	t.Setenv("MCPEXEC_INHERITED", "from the daemon")
	t.Setenv("MCPEXEC_OVERRIDDEN", "from the daemon")
	cfg := behaviourStdio("proc", "")
	cfg.Env["MCPEXEC_OVERRIDDEN"] = "configured"
	cfg.Env["MCPEXEC_ONLY_CONFIGURED"] = "configured too"
	m := start(t, []pool.ServerConfig{cfg}, pool.Options{})
	for name, want := range map[string]string{
		"MCPEXEC_INHERITED":       "from the daemon",
		"MCPEXEC_OVERRIDDEN":      "configured",
		"MCPEXEC_ONLY_CONFIGURED": "configured too",
	} {
		res, err := m.Call(context.Background(), "mcp__proc__getenv", raw(`{"name":"`+name+`"}`))
		if err != nil || res.Value != want {
			t.Errorf("%s = %v (%v), want %q", name, res.Value, err, want)
		}
	}
}

func TestStdioServerPrintingNonJSONOnStdoutStillWorks(t *testing.T) {
	cmd, args, env := testservers.NoisyCommand()
	logs := &testkit.SyncBuffer{}
	m := start(t, []pool.ServerConfig{{Name: "noisy", Command: cmd, Args: args, Env: env}}, pool.Options{Logger: zerolog.New(logs)})
	if _, ok := m.Snapshot().Lookup("mcp__noisy__text"); !ok {
		t.Fatalf("a banner on stdout broke the server: %+v", m.Status())
	}
	for range 2 { // noise in the middle of the stream too
		res, err := m.Call(context.Background(), "mcp__noisy__shout", raw(`{}`))
		if err != nil || res.Value != "done" {
			t.Fatalf("shout: %v %v", res.Value, err)
		}
	}
	if st := statusOf(t, m, "noisy"); st.Connects != 1 {
		t.Fatalf("the connection was lost: %+v", st)
	}
	for _, want := range []string{testservers.NoisyBanner, "debug: shout was called"} {
		if !strings.Contains(logs.String(), want) {
			t.Errorf("log lacks the ignored line %q", want)
		}
	}
}
