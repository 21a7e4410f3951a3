package nodes_test

import (
	"context"
	"encoding/json"
	"testing"
	"time"

	"github.com/rs/zerolog"

	"github.com/mcpexec/mcpexec/actors"
	"github.com/mcpexec/mcpexec/internal/testcerts"
	"github.com/mcpexec/mcpexec/internal/testkit"
	"github.com/mcpexec/mcpexec/sandbox"
)

// BenchmarkPlacement compares a run on this machine's workers with one on
// a sandbox node process over mutual TLS on loopback: a trivial Exec, and
// a nested call (a script of sequential calls, reported per call).
func BenchmarkPlacement(b *testing.B) {
	ca := testcerts.NewAuthority(b)
	_, member := startNode(b, ca.Issue("node"))
	remote := startDaemon(b, ca, member).execs

	workers, err := sandbox.NewWorkers(sandbox.WorkerOptions{Warm: 2})
	if err != nil {
		b.Fatal(err)
	}
	b.Cleanup(func() { workers.Close() })
	local := actors.NewExecs(testkit.ActorSystem(b), workers, zerolog.Nop())

	host := &toolHost{tools: map[string]toolFunc{
		"mcp__t__echo": func(_ context.Context, args json.RawMessage) (sandbox.CallResult, error) {
			return sandbox.CallResult{Value: args}, nil
		},
	}}
	tools := sandbox.NewToolSet(host.names())
	run := func(b *testing.B, execs *actors.Execs, code string) {
		for b.Loop() {
			res := execs.Run(context.Background(), actors.ExecRequest{Script: sandbox.Request{Code: code, Tools: tools, Host: host}})
			if !res.OK {
				b.Fatal(res.Text)
			}
		}
	}
	const calls = 50
	nested := `for (let i = 0; i < 50; i++) { await tools.mcp__t__echo({i}); } return 1;`
	for _, where := range []struct {
		name  string
		execs *actors.Execs
	}{{"local", local}, {"remote", remote}} {
		b.Run("TrivialExec/"+where.name, func(b *testing.B) { run(b, where.execs, `return 1`) })
		b.Run("NestedCall/"+where.name, func(b *testing.B) {
			start := time.Now()
			run(b, where.execs, nested)
			b.ReportMetric(float64(time.Since(start).Nanoseconds())/float64(b.N*calls), "ns/call")
		})
	}
}
