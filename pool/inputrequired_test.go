package pool_test

import (
	"context"
	"encoding/json"
	"errors"
	"strings"
	"sync/atomic"
	"testing"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/mcpexec/mcpexec/elicit"
	"github.com/mcpexec/mcpexec/internal/testservers"
	"github.com/mcpexec/mcpexec/pool"
)

// countingGate admits every call and counts them.
type countingGate struct{ asked atomic.Int32 }

func (g *countingGate) Admit(context.Context, string, json.RawMessage) error {
	g.asked.Add(1)
	return nil
}

// startLedger is a pool over the in-memory ledger server, whose Elicitor
// answers every question with answer (and records it).
func startLedger(t *testing.T, gate pool.Gate, answer elicit.Response, asked *[]elicit.Request) *pool.Manager {
	t.Helper()
	m := start(t, []pool.ServerConfig{{Name: "ledger", Dial: testservers.DialInMemory(testservers.Ledger())}},
		pool.Options{Gate: gate, Elicitor: answering(answer, asked)})
	waitFor(t, m, "the sign tool", has("mcp__ledger__sign"))
	return m
}

// ledgerRan reads the ledger's counts.
func ledgerRan(t *testing.T, m *pool.Manager) map[string]any {
	t.Helper()
	res, err := m.Call(context.Background(), "mcp__ledger__ran", raw(`{}`))
	if err != nil {
		t.Fatal(err)
	}
	var ran map[string]any
	if err := json.Unmarshal([]byte(res.Value.(string)), &ran); err != nil {
		t.Fatal(err)
	}
	return ran
}

// Under WithInputReturned a server's input_required comes back as data:
// its requests as the server wrote them (every kind: a form and a roots
// request), its state, and nobody asked. The continuation sends the state
// and the responses as given, is not put to the gate again, and a second
// round comes back the same way; the first leg ran once.
func TestAServersInputRequestReturnsAndItsContinuationGoesOn(t *testing.T) {
	gate := &countingGate{}
	var asked []elicit.Request
	m := startLedger(t, gate, elicit.Response{Action: elicit.Decline}, &asked)
	ctx := context.Background()
	args := raw(`{"what":"entry"}`)

	res, err := m.Call(pool.WithInputReturned(ctx), "mcp__ledger__sign", args)
	if err != nil || res.InputRequired == nil {
		t.Fatalf("first leg: %+v %v, want the server's request for input", res, err)
	}
	first := res.InputRequired
	if !strings.Contains(string(first.Requests), string(testservers.SignSchema)) || !strings.Contains(string(first.Requests), `"roots/list"`) ||
		first.State == "" {
		t.Errorf("the server's requests %s (state %q), want its form as written beside its roots request, and a state", first.Requests, first.State)
	}

	roots := &mcp.ListRootsResult{Roots: []*mcp.Root{{URI: "file:///ledger/books"}}}
	res, err = m.Call(pool.WithContinuation(ctx, pool.Continuation{State: first.State, Responses: mcp.InputResponseMap{
		"signer": &mcp.ElicitResult{Action: "accept", Content: map[string]any{"signer": "Ada", "role": "owner"}},
		"where":  roots,
	}}), "mcp__ledger__sign", args)
	if err != nil || res.InputRequired == nil || !strings.Contains(string(res.InputRequired.Requests), string(testservers.WitnessSchema)) {
		t.Fatalf("second round: %+v %v, want the witness question", res, err)
	}
	res, err = m.Call(pool.WithContinuation(ctx, pool.Continuation{State: res.InputRequired.State, Responses: mcp.InputResponseMap{
		"witness": &mcp.ElicitResult{Action: "accept", Content: map[string]any{"witness": "Charles"}},
	}}), "mcp__ledger__sign", args)
	if err != nil || res.InputRequired != nil {
		t.Fatalf("last round: %+v %v, want the result", res, err)
	}
	if got, want := res.Value, `{"roots":["file:///ledger/books"],"signer":{"role":"owner","signer":"Ada"},"witness":{"witness":"Charles"}}`; got != want {
		t.Errorf("the server got %v, want %s", got, want)
	}
	if n := gate.asked.Load(); n != 1 {
		t.Errorf("the gate was asked %d times, want once (the first leg)", n)
	}
	if len(asked) != 0 {
		t.Errorf("the Elicitor was asked %+v, want nobody asked", asked)
	}
	if ran := ledgerRan(t, m); ran["signStarted"] != 1.0 || ran["signLegs"] != 3.0 || ran["signed"] != 1.0 {
		t.Errorf("the ledger ran %v, want one first leg, three legs, one signature", ran)
	}
}

// rulesGate admits every call it is asked about and, once forbid is set,
// says its rules forbid every call.
type rulesGate struct {
	countingGate
	forbid atomic.Bool
}

func (g *rulesGate) Forbidden(name string) error {
	if g.forbid.Load() {
		return errors.New("A deny rule forbids " + name + ".")
	}
	return nil
}

// A continuation is not asked about again, but a RuleGate whose rules
// forbid the call since its first leg (a deny rule added by a reload)
// refuses it, and the server hears nothing of it.
func TestAContinuationTheRulesNowForbidIsRefused(t *testing.T) {
	gate := &rulesGate{}
	var asked []elicit.Request
	m := startLedger(t, gate, elicit.Response{Action: elicit.Decline}, &asked)
	ctx := context.Background()
	args := raw(`{"what":"entry"}`)
	res, err := m.Call(pool.WithInputReturned(ctx), "mcp__ledger__sign", args)
	if err != nil || res.InputRequired == nil {
		t.Fatalf("first leg: %+v %v, want the server's request for input", res, err)
	}
	gate.forbid.Store(true)
	_, err = m.Call(pool.WithContinuation(ctx, pool.Continuation{State: res.InputRequired.State, Responses: mcp.InputResponseMap{
		"signer": &mcp.ElicitResult{Action: "accept", Content: map[string]any{"signer": "Ada"}},
		"where":  &mcp.ListRootsResult{Roots: []*mcp.Root{}},
	}}), "mcp__ledger__sign", args)
	var ce *pool.CallError
	if !errors.As(err, &ce) || ce.Kind != pool.KindDenied || ce.Error() != "A deny rule forbids mcp__ledger__sign." {
		t.Errorf("the continuation: %v, want it refused by the rule", err)
	}
	if n := gate.asked.Load(); n != 1 {
		t.Errorf("the gate was asked %d times, want once (the first leg)", n)
	}
	gate.forbid.Store(false)
	if ran := ledgerRan(t, m); ran["signStarted"] != 1.0 || ran["signLegs"] != 1.0 {
		t.Errorf("the ledger ran %v, want the first leg alone", ran)
	}
}

// Without WithInputReturned nothing changes: the pool's client answers the
// server within the call, its questions put to the Elicitor (and the roots
// request answered with the pool's roots, none).
func TestAServersInputRequestIsAnsweredWithinTheCallByDefault(t *testing.T) {
	var asked []elicit.Request
	m := startLedger(t, pool.AllowAll{}, elicit.Response{Action: elicit.Accept, Content: map[string]any{"signer": "Ada", "witness": "Charles"}}, &asked)
	res, err := m.Call(context.Background(), "mcp__ledger__sign", raw(`{"what":"entry"}`))
	if err != nil || res.InputRequired != nil {
		t.Fatalf("%+v %v, want the result", res, err)
	}
	if got, want := res.Value, `{"roots":[],"signer":{"signer":"Ada","witness":"Charles"},"witness":{"signer":"Ada","witness":"Charles"}}`; got != want {
		t.Errorf("the server got %v, want %s", got, want)
	}
	if len(asked) != 2 || asked[0].Message != testservers.SignMessage || asked[1].Message != testservers.WitnessMessage ||
		compact(t, asked[0].Schema) != string(testservers.SignSchema) {
		t.Errorf("the Elicitor was asked %+v, want the signer's then the witness's form", asked)
	}
}
