package actors_test

import (
	"context"
	"encoding/json"
	"strings"
	"testing"
	"time"

	"github.com/mcpexec/mcpexec/actors"
	"github.com/mcpexec/mcpexec/sandbox"
)

// A panic in the funnel on one nested call (the host side of a worker) fails
// that call only: the script sees a rejection it can catch, and goes on.
func TestExecNestedCallPanicFailsThatCallOnly(t *testing.T) {
	f := newExecFixture(t, nil)
	h := toolHost{
		"mcp__s__bad": func(context.Context, json.RawMessage) (sandbox.CallResult, error) { panic("funnel bug") },
		"mcp__s__t":   answerOK,
	}
	res := f.run(context.Background(), h, `
		let caught = "";
		try { await tools.mcp__s__bad({}) } catch (e) { caught = e.message }
		return caught + " | " + await tools.mcp__s__t({});`, sandbox.Limits{Timeout: 10 * time.Second})
	if !res.OK || !strings.Contains(res.Text, "failed inside the host") || !strings.HasSuffix(res.Text, "| ok") {
		t.Fatalf("ok=%v text=%q", res.OK, res.Text)
	}
	if strings.Contains(res.Text, "funnel bug") {
		t.Errorf("the panic value reached the model: %q", res.Text)
	}
}

// A panic in the exec actor itself (here the embedder's progress callback,
// which runs in it) stops the actor: the Exec call still gets a failure
// result, its run is torn down, and the next Exec runs as usual.
func TestExecActorCrashIsAFailureResult(t *testing.T) {
	f := newExecFixture(t, nil)
	h := toolHost{"mcp__s__t": answerOK}
	res := f.execs.Run(context.Background(), actors.ExecRequest{
		Script: sandbox.Request{Code: `await tools.mcp__s__t({}); for (;;) {}`, Host: h, Tools: sandbox.NewToolSet(h.names()),
			Limits: sandbox.Limits{Timeout: time.Hour}},
		OnProgress: func(string) { panic("progress callback bug") },
	})
	if res.OK || !strings.Contains(res.Text, "sandbox failed") {
		t.Fatalf("ok=%v text=%q, want a failure", res.OK, res.Text)
	}
	if res := f.run(context.Background(), h, `return await tools.mcp__s__t({})`, sandbox.Limits{}); !res.OK || res.Text != "ok" {
		t.Fatalf("next Exec: ok=%v text=%q", res.OK, res.Text)
	}
}
