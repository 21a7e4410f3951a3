package actors_test

import (
	"context"
	"encoding/json"
	"sync"
	"testing"

	"github.com/rs/zerolog"

	"github.com/mcpexec/mcpexec/actors"
	"github.com/mcpexec/mcpexec/internal/actorlog"
	"github.com/mcpexec/mcpexec/sandbox"
)

type instantHost struct{}

func (instantHost) CallTool(context.Context, string, json.RawMessage) (sandbox.CallResult, error) {
	return sandbox.CallResult{Value: json.RawMessage(`{"ok":true}`)}, nil
}

func (instantHost) Search(context.Context, json.RawMessage) (json.RawMessage, error) {
	return json.RawMessage(`[]`), nil
}

func benchExecs(b *testing.B, opts sandbox.WorkerOptions) *actors.Execs {
	b.Helper()
	workers, err := sandbox.NewWorkers(opts)
	if err != nil {
		b.Fatal(err)
	}
	system := actorlog.NewSystem(zerolog.Nop())
	b.Cleanup(func() {
		workers.Close()
		system.Shutdown()
	})
	return actors.NewExecs(system, workers, zerolog.Nop())
}

var benchTools = sandbox.NewToolSet([]string{"mcp__s__t"})

// BenchmarkExecTrivial is one trivial Exec through the exec and sandbox
// actors on a warm worker process.
func BenchmarkExecTrivial(b *testing.B) {
	execs := benchExecs(b, sandbox.WorkerOptions{Warm: 1})
	req := actors.ExecRequest{Script: sandbox.Request{Code: `return 1 + 1`, Host: instantHost{}, Tools: benchTools}}
	for b.Loop() {
		if res := execs.Run(context.Background(), req); !res.OK {
			b.Fatal(res.Text)
		}
	}
}

// BenchmarkExecConcurrent50x20 runs 50 Execs at once, each making 20 nested
// calls to a host that answers at once; one op is the whole batch.
func BenchmarkExecConcurrent50x20(b *testing.B) {
	execs := benchExecs(b, sandbox.WorkerOptions{})
	req := actors.ExecRequest{Script: sandbox.Request{Host: instantHost{}, Tools: benchTools,
		Code: `let n = 0; for (let i = 0; i < 20; i++) if ((await tools.mcp__s__t({ i })).ok) n++; return n;`}}
	for b.Loop() {
		var wg sync.WaitGroup
		for range 50 {
			wg.Add(1)
			go func() {
				defer wg.Done()
				if res := execs.Run(context.Background(), req); res.Text != "20" {
					b.Error(res.Text)
				}
			}()
		}
		wg.Wait()
	}
}
