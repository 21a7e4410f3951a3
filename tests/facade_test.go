package tests

import (
	"context"
	"encoding/json"
	"os"
	"slices"
	"strings"
	"sync"
	"testing"

	"github.com/mcpexec/mcpexec"
	"github.com/mcpexec/mcpexec/permissions"
	"github.com/mcpexec/mcpexec/pool"
	"github.com/mcpexec/mcpexec/sandbox"
)

// builtinServers runs the demo's built-in servers as stdio subprocesses of
// this test process.
func builtinServers(names ...string) []pool.ServerConfig {
	var out []pool.ServerConfig
	for _, name := range names {
		out = append(out, pool.ServerConfig{Name: name, Command: demoBin, Args: []string{"serve-mcp", name}})
	}
	return out
}

// questions records what the person was asked, and allows each call once.
type questions struct {
	mu    sync.Mutex
	tools []string
}

func (q *questions) Ask(_ context.Context, question permissions.Question) (permissions.Answer, error) {
	q.mu.Lock()
	defer q.mu.Unlock()
	q.tools = append(q.tools, question.Tool)
	return permissions.Answer{Kind: permissions.AllowOnce}, nil
}

// Through the facade: ORCH-1 as written against real stdio servers, each
// nested call asked about under its leaf name (PERM-1), and Close stopping
// every server and worker process before it returns.
func TestORCH1_PERM1_FacadeRunsTheScriptAndCloseLeavesNoProcessBehind(t *testing.T) {
	ctx := context.Background()
	if kids := childrenOf(t, os.Getpid()); len(kids) > 0 {
		t.Fatalf("child processes before the test:\n%s", strings.Join(kids, "\n"))
	}
	asked := &questions{}
	sys, err := mcpexec.Start(ctx, mcpexec.Options{
		Servers:  builtinServers("srv", "text", "weather"),
		Prompter: asked,
		Workers:  mcpexecWorkers(),
	})
	if err != nil {
		t.Fatal(err)
	}
	closed := false
	defer func() {
		if !closed {
			_ = sys.Close()
		}
	}()
	if err := sys.WaitReady(ctx); err != nil {
		t.Fatal(err)
	}
	args, _ := json.Marshal(map[string]string{"code": orch1Script})
	var progress []string
	res := sys.Exec(ctx, args, func(summary string) { progress = append(progress, summary) })
	if !res.OK || !slices.Equal(res.Calls, []string{"mcp__srv__fetch", "mcp__srv__store"}) {
		t.Fatalf("ORCH-1 through the facade: %+v", res)
	}
	if !strings.Contains(res.Text, `"title":"Quarterly report"`) {
		t.Errorf("the model received %q, want store's reply holding record 1", res.Text)
	}
	if !slices.Equal(asked.tools, []string{"mcp__srv__fetch", "mcp__srv__store"}) {
		t.Errorf("asked about %q, want each leaf tool by its full name", asked.tools)
	}
	if len(progress) == 0 || progress[len(progress)-1] != res.Summary {
		t.Errorf("live summaries %q, want the last to be the final summary %q", progress, res.Summary)
	}

	// Three servers and the warm workers are children of this process now:
	// the scan that must come back empty after Close does see them.
	if kids := childrenOf(t, os.Getpid()); len(kids) < 4 {
		t.Fatalf("found %d child processes, want 3 servers and at least one worker:\n%s", len(kids), strings.Join(kids, "\n"))
	}
	if err := sys.Close(); err != nil {
		t.Errorf("Close: %v", err)
	}
	closed = true
	if kids := childrenOf(t, os.Getpid()); len(kids) > 0 {
		t.Errorf("processes left after Close returned:\n%s", strings.Join(kids, "\n"))
	}
}

// mcpexecWorkers runs scripts in workers re-executed from the demo binary,
// which calls MaybeRunWorker first like any embedding binary must.
func mcpexecWorkers() sandbox.WorkerOptions {
	return sandbox.WorkerOptions{Command: []string{demoBin}, Warm: 1}
}
