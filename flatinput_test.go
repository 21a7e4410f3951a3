package mcpexec_test

import (
	"context"
	"encoding/json"
	"slices"
	"strings"
	"testing"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/mcpexec/mcpexec"
	"github.com/mcpexec/mcpexec/elicit"
	"github.com/mcpexec/mcpexec/internal/testservers"
	"github.com/mcpexec/mcpexec/permissions"
	"github.com/mcpexec/mcpexec/pool"
)

// startSigning is a System over the in-memory ledger, whose sign tool asks
// over two rounds by input_required; the permission gate asks before it.
func startSigning(t *testing.T) *fixture {
	t.Helper()
	return startWith(t, `{"permissions": {"ask": ["mcp__ledger__sign"]}}`, permissions.AllowOnce,
		pool.ServerConfig{Name: "ledger", Dial: testservers.DialInMemory(testservers.Ledger())})
}

// CallFlatReturningInput hands a server's input_required back (its
// requests as written, nobody asked), and each continuation goes on from
// the server's state without asking the gate again, round after round.
func TestCallFlatReturningInputHandsBackTheServersRequestAndContinuesIt(t *testing.T) {
	f := startSigning(t)
	ctx := mcpexec.WithElicitor(context.Background(), elicit.Func(func(context.Context, elicit.Request) (elicit.Response, error) {
		t.Error("the Elicitor was asked")
		return elicit.Response{Action: elicit.Decline}, nil
	}))
	args := json.RawMessage(`{"what":"entry"}`)
	res := f.sys.CallFlatReturningInput(ctx, "mcp__ledger__sign", args, nil)
	if res.InputRequired == nil || !strings.Contains(string(res.InputRequired.Requests), string(testservers.SignSchema)) {
		t.Fatalf("first leg: %+v, want the server's request with its form as written", res)
	}
	res = f.sys.CallFlatReturningInput(ctx, "mcp__ledger__sign", args, &mcpexec.ServerInputAnswer{State: res.InputRequired.State,
		Responses: mcp.InputResponseMap{
			"signer": &mcp.ElicitResult{Action: "accept", Content: map[string]any{"signer": "Ada"}},
			"where":  &mcp.ListRootsResult{Roots: []*mcp.Root{}},
		}})
	if res.InputRequired == nil || !strings.Contains(string(res.InputRequired.Requests), testservers.WitnessMessage) {
		t.Fatalf("second round: %+v, want the witness question", res)
	}
	res = f.sys.CallFlatReturningInput(ctx, "mcp__ledger__sign", args, &mcpexec.ServerInputAnswer{State: res.InputRequired.State,
		Responses: mcp.InputResponseMap{"witness": &mcp.ElicitResult{Action: "accept", Content: map[string]any{"witness": "Charles"}}}})
	if !res.OK || res.InputRequired != nil || res.Text != `{"roots":[],"signer":{"signer":"Ada"},"witness":{"witness":"Charles"}}` {
		t.Errorf("last round: %+v, want the signature", res)
	}
	if q := f.prompter.questions(); !slices.Equal(q, []string{"mcp__ledger__sign"}) {
		t.Errorf("the gate asked %v, want once, on the first leg", q)
	}
}

// CallFlat keeps answering within the call: the server's questions go to
// the Elicitor of ctx.
func TestCallFlatPutsAServersInputRequestToTheElicitorOfItsContext(t *testing.T) {
	f := startSigning(t)
	var asked []string
	ctx := mcpexec.WithElicitor(context.Background(), elicit.Func(func(_ context.Context, r elicit.Request) (elicit.Response, error) {
		asked = append(asked, r.Message)
		return elicit.Response{Action: elicit.Accept, Content: map[string]any{"signer": "Ada", "witness": "Charles"}}, nil
	}))
	res := f.sys.CallFlat(ctx, "mcp__ledger__sign", json.RawMessage(`{"what":"entry"}`))
	if !res.OK || res.InputRequired != nil || !slices.Equal(asked, []string{testservers.SignMessage, testservers.WitnessMessage}) {
		t.Errorf("%+v after the questions %q, want the signature after the server's two", res, asked)
	}
}
