package nodes_test

import (
	"context"
	"encoding/json"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/mcpexec/mcpexec/actors"
	"github.com/mcpexec/mcpexec/internal/testcerts"
	"github.com/mcpexec/mcpexec/sandbox"
)

// A script placed on a sandbox node runs there, and its nested calls come
// back to the daemon's funnel: the result, the live summary and the console
// are what a local run gives.
func TestRemoteRunMakesNestedCallsThroughTheDaemon(t *testing.T) {
	ca := testcerts.NewAuthority(t)
	_, member := startNode(t, ca.Issue("node-a"))
	d := startDaemon(t, ca, member)

	host := &toolHost{tools: map[string]func(context.Context, json.RawMessage) (sandbox.CallResult, error){
		"mcp__calc__add": func(_ context.Context, args json.RawMessage) (sandbox.CallResult, error) {
			var in struct{ A, B int }
			if err := json.Unmarshal(args, &in); err != nil {
				return sandbox.CallResult{}, err
			}
			out, _ := json.Marshal(map[string]int{"sum": in.A + in.B})
			return sandbox.CallResult{Value: out}, nil
		},
	}}
	var progress [][]string
	res := d.execs.Run(context.Background(), actors.ExecRequest{
		Script: sandbox.Request{
			Code:  `console.log("adding"); const r = await tools.mcp__calc__add({a: 2, b: 3}); const s = await tools.mcp__calc__add({a: r.sum, b: 4}); return s.sum;`,
			Tools: sandbox.NewToolSet(host.names()),
			Host:  host,
		},
		OnProgress: func(calls []string) { progress = append(progress, calls) },
	})
	if !res.OK {
		t.Fatalf("run failed: %s", res.Text)
	}
	if got := string(res.Value); got != "9" {
		t.Errorf("value = %s, want 9", got)
	}
	if !strings.Contains(res.Logs, "adding") {
		t.Errorf("logs = %q, want the console line", res.Logs)
	}
	want := []string{"mcp__calc__add", "mcp__calc__add"}
	if diff := cmp.Diff(want, host.made()); diff != "" {
		t.Errorf("calls the daemon made (-want +got):\n%s", diff)
	}
	if diff := cmp.Diff([][]string{want[:1], want}, progress); diff != "" {
		t.Errorf("live summary (-want +got):\n%s", diff)
	}
}
