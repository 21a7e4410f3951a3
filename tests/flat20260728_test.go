package tests

import (
	"cmp"
	"context"
	"encoding/json"
	"errors"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/jsonrpc"
	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/mcpexec/mcpexec/internal/testkit"
	"github.com/mcpexec/mcpexec/internal/testservers"
)

// With Exec switched off, a flat call's server that asks for input by
// returning input_required (the ledger's sign: two rounds, the first with
// a form and a roots request, each round with the server's own
// requestState) reaches the gateway's client: for a client of 2026-07-28
// as the gateway's own input_required, for an older one within the call.

// flatLedgerSettings serve the ledger's tools flat, asking before sign.
const flatLedgerSettings = `{"enableExec": false, "permissions": {"ask": ["mcp__ledger__sign"], ` +
	`"allow": ["mcp__ledger__ran", "mcp__ledger__read", "mcp__ledger__write", "mcp__ledger__confirm"]}}`

// signArgs are the arguments of the sign calls.
var signArgs = map[string]any{"what": "entry 7"}

// callFlat calls a flat tool (on a retry, with the answers and state).
func callFlat(t *testing.T, cs *mcp.ClientSession, tool string, args map[string]any, answers mcp.InputResponseMap, state string) (*mcp.CallToolResult, error) {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), runLimit)
	defer cancel()
	return cs.CallTool(ctx, &mcp.CallToolParams{Name: tool, Arguments: args, InputResponses: answers, RequestState: state})
}

// signRan is what of sign the ledger ran so far.
type signRan struct {
	Started int `json:"signStarted"`
	Legs    int `json:"signLegs"`
	Signed  int `json:"signed"`
}

func readSignRan(t *testing.T, cs *mcp.ClientSession) signRan {
	t.Helper()
	res, err := callFlat(t, cs, "mcp__ledger__ran", map[string]any{}, nil, "")
	if err != nil || res.IsError {
		t.Fatalf("reading the ledger: %v %+v", err, res)
	}
	var ran signRan
	if err := json.Unmarshal([]byte(contentText(res)), &ran); err != nil {
		t.Fatalf("the ledger says %q: %v", contentText(res), err)
	}
	return ran
}

// refusedAsInvalid fails the test unless err is the invalid-params
// refusal of a requestState that does not verify.
func refusedAsInvalid(t *testing.T, what string, res *mcp.CallToolResult, err error) {
	t.Helper()
	refusedSaying(t, what, res, err, "requestState does not verify")
}

// refusedSaying fails the test unless err is an invalid-params refusal of
// a requestState whose message says why.
func refusedSaying(t *testing.T, what string, res *mcp.CallToolResult, err error, why string) {
	t.Helper()
	var rpcErr *jsonrpc.Error
	if !errors.As(err, &rpcErr) || rpcErr.Code != jsonrpc.CodeInvalidParams || !strings.Contains(rpcErr.Message, why) {
		t.Errorf("%s: %v %+v, want it refused as invalid params saying %q", what, err, res, why)
	}
}

// signedWant is the sign result when the answers reached the server
// unchanged.
func signedWant(roots []string) string {
	out, _ := json.Marshal(map[string]any{"signer": map[string]any{"signer": "Ada", "role": "clerk"}, "roots": roots,
		"witness": map[string]any{"witness": "Charles"}})
	return string(out)
}

// A client of 2026-07-28 with its SDK's multi round-trip middleware off,
// over HTTP and stdio, calls sign flat. The gateway's own approval comes
// first; then the server's first round reaches the client as input_required
// with the server's keys, its form byte for byte and its roots request; a
// tampered, altered, other-call, other-client (or other-process, as after
// a restart) requestState is refused and reaches nothing; the answered
// retry continues the server's call, whose second round passes the same
// way (the approval is not asked again); the server gets the answers
// unchanged and ran its first leg once.
func TestFlatCallPassesItsServersInputRequiredAt20260728(t *testing.T) {
	for _, transport := range []string{"http", "stdio"} {
		t.Run(transport, func(t *testing.T) {
			g := startLedgerGatewayWith(t, transport, flatLedgerSettings)
			noMiddleware := func(name string) *mcp.Client {
				return mcp.NewClient(&mcp.Implementation{Name: name, Version: "1"},
					&mcp.ClientOptions{MultiRoundTrip: &mcp.MultiRoundTripOptions{Disabled: true}, ElicitationHandler: noElicitation(t)})
			}
			wire := &wireRecord{}
			cs := g.dial(t, noMiddleware("e2e"), "", wire)
			if v := cs.InitializeResult().ProtocolVersion; v != "2026-07-28" {
				t.Fatalf("negotiated %q, want 2026-07-28", v)
			}
			call := func(args map[string]any, answers mcp.InputResponseMap, state string) (*mcp.CallToolResult, error) {
				return callFlat(t, cs, "mcp__ledger__sign", args, answers, state)
			}

			res, err := call(signArgs, nil, "")
			if err != nil || !res.NeedsInput() || len(res.InputRequests) != 1 {
				t.Fatalf("first call: %v %+v, want the approval question", err, res)
			}
			approval := mcp.InputResponseMap{}
			for id, ir := range res.InputRequests {
				if q, ok := ir.(*mcp.ElicitParams); !ok || !strings.Contains(q.Message, "mcp__ledger__sign") {
					t.Fatalf("the approval question: %+v", ir)
				}
				approval[id] = answer("allow once")
			}
			if ran := readSignRan(t, cs); ran.Legs != 0 {
				t.Fatalf("before the approval the ledger ran %+v", ran)
			}

			res, err = call(signArgs, approval, res.RequestState)
			if err != nil || !res.NeedsInput() || len(res.InputRequests) != 2 || res.RequestState == "" || len(res.Content) != 0 {
				t.Fatalf("the approved retry: %v %+v, want the server's first round", err, res)
			}
			signer, ok1 := res.InputRequests["signer"].(*mcp.ElicitParams)
			_, ok2 := res.InputRequests["where"].(*mcp.ListRootsParams)
			if !ok1 || !ok2 || signer.Message != testservers.SignMessage {
				t.Fatalf("the server's first round: %+v, want its signer form (its message intact) and its roots request", res.InputRequests)
			}
			if !wire.contains(string(testservers.SignSchema)) {
				t.Errorf("the gateway did not send the server's form as the server wrote it:\n%s", testservers.SignSchema)
			}
			round1 := res.RequestState
			if ran := readSignRan(t, cs); ran != (signRan{Started: 1, Legs: 1}) {
				t.Fatalf("after the first round the ledger ran %+v, want one first leg", ran)
			}

			answers1 := mcp.InputResponseMap{
				"signer": &mcp.ElicitResult{Action: "accept", Content: map[string]any{"signer": "Ada", "role": "clerk"}},
				"where":  &mcp.ListRootsResult{Roots: []*mcp.Root{{URI: "file:///ledger/books"}}},
			}
			parts := strings.Split(round1, ".")
			flipped := []byte(round1)
			flipped[len(flipped)-3] ^= 1
			for what, bad := range map[string]string{
				"a tampered requestState": string(flipped),
				"an altered server state": parts[0] + ".c2lnbi1yb3VuZC0y." + parts[len(parts)-1],
				"a forged requestState":   "f2." + parts[1] + ".AAAA",
			} {
				res, err := call(signArgs, answers1, bad)
				refusedAsInvalid(t, what, res, err)
			}
			res, err = call(map[string]any{"what": "entry 8"}, answers1, round1)
			refusedAsInvalid(t, "another call's requestState", res, err)
			// Over HTTP another client of the same gateway; over stdio
			// another gateway process, as after a restart.
			other := g.dial(t, noMiddleware("e2e-other"), "", nil)
			res, err = callFlat(t, other, "mcp__ledger__sign", signArgs, answers1, round1)
			refusedAsInvalid(t, "another client's requestState", res, err)
			if ran := readSignRan(t, cs); ran != (signRan{Started: 1, Legs: 1}) {
				t.Errorf("after the refused retries the ledger ran %+v, want the first leg alone", ran)
			}
			if transport == "stdio" {
				if ran := readSignRan(t, other); ran.Legs != 0 {
					t.Errorf("the other gateway's ledger ran %+v, want nothing", ran)
				}
			}

			res, err = call(signArgs, answers1, round1)
			if err != nil || !res.NeedsInput() || len(res.InputRequests) != 1 {
				t.Fatalf("the answered first round: %v %+v, want the server's second round", err, res)
			}
			if q, ok := res.InputRequests["witness"].(*mcp.ElicitParams); !ok || q.Message != testservers.WitnessMessage {
				t.Fatalf("the server's second round: %+v, want its witness form", res.InputRequests)
			}
			if !wire.contains(string(testservers.WitnessSchema)) {
				t.Errorf("the gateway did not send the second form as the server wrote it")
			}
			round2 := res.RequestState
			answers2 := mcp.InputResponseMap{"witness": &mcp.ElicitResult{Action: "accept", Content: map[string]any{"witness": "Charles"}}}
			res, err = call(signArgs, answers2, round2)
			if err != nil || res.NeedsInput() || res.IsError {
				t.Fatalf("the answered second round: %v %+v, want the result", err, res)
			}
			if got, want := canonicalJSON(t, json.RawMessage(contentText(res))), canonicalJSON(t, json.RawMessage(signedWant([]string{"file:///ledger/books"}))); got != want {
				t.Errorf("the server got %s, want the client's answers %s", got, want)
			}
			// Each state continues its call once: sent again, answers and
			// all, it is refused and reaches nothing.
			res, err = call(signArgs, answers1, round1)
			refusedSaying(t, "the first round's state again", res, err, "already used")
			res, err = call(signArgs, answers2, round2)
			refusedSaying(t, "the last round's state again", res, err, "already used")
			if ran := readSignRan(t, cs); ran != (signRan{Started: 1, Legs: 3, Signed: 1}) {
				t.Errorf("the ledger ran %+v, want one first leg, three legs, one signature (nothing replayed)", ran)
			}
		})
	}
}

// A flat call's state is good for --park-timeout: a retry that comes after
// it is refused, saying the state expired, and the server's call is not
// continued.
func TestFlatCallServersInputRequiredExpiresWithTheParkTimeout(t *testing.T) {
	const settings = `{"enableExec": false, "permissions": {"allow": ["mcp__ledger"]}}`
	g := startLedgerGatewayWith(t, "http", settings, "--park-timeout", "50ms")
	client := mcp.NewClient(&mcp.Implementation{Name: "e2e", Version: "1"},
		&mcp.ClientOptions{MultiRoundTrip: &mcp.MultiRoundTripOptions{Disabled: true}, ElicitationHandler: noElicitation(t)})
	cs := g.dial(t, client, "", nil)
	res, err := callFlat(t, cs, "mcp__ledger__sign", signArgs, nil, "")
	if err != nil || !res.NeedsInput() || res.InputRequests["signer"] == nil {
		t.Fatalf("first call: %v %+v, want the server's first round", err, res)
	}
	time.Sleep(time.Second) // twenty park timeouts
	res, err = callFlat(t, cs, "mcp__ledger__sign", signArgs, mcp.InputResponseMap{
		"signer": &mcp.ElicitResult{Action: "accept", Content: map[string]any{"signer": "Ada"}},
		"where":  &mcp.ListRootsResult{Roots: []*mcp.Root{}},
	}, res.RequestState)
	refusedSaying(t, "the late answer", res, err, "requestState expired")
	if ran := readSignRan(t, cs); ran != (signRan{Started: 1, Legs: 1}) {
		t.Errorf("the ledger ran %+v, want the first leg alone", ran)
	}
}

// With its SDK's multi round-trip middleware on, a client of 2026-07-28
// (HTTP and stdio) never sees input_required: its handlers answer the
// approval, both of the server's forms and its roots request, and the call
// returns the server's result. A client of 2025-11-25 gets the approval and
// the server's forms within the call (the forms under a line naming the
// server); its roots are not asked, the pool answers for itself.
func TestFlatCallServersInputRequiredIsTransparentToTheSDKMiddleware(t *testing.T) {
	for _, v := range []struct{ transport, version string }{{"http", ""}, {"stdio", ""}, {"stdio", "2025-11-25"}} {
		t.Run(v.transport+"/"+cmp.Or(v.version, "latest"), func(t *testing.T) {
			g := startLedgerGatewayWith(t, v.transport, flatLedgerSettings)
			var asked atomic.Int32
			opts := &mcp.ClientOptions{ElicitationHandler: func(_ context.Context, req *mcp.ElicitRequest) (*mcp.ElicitResult, error) {
				asked.Add(1)
				switch msg := req.Params.Message; {
				case strings.HasSuffix(msg, testservers.SignMessage):
					return &mcp.ElicitResult{Action: "accept", Content: map[string]any{"signer": "Ada", "role": "clerk"}}, nil
				case strings.HasSuffix(msg, testservers.WitnessMessage):
					return &mcp.ElicitResult{Action: "accept", Content: map[string]any{"witness": "Charles"}}, nil
				case strings.Contains(msg, "mcp__ledger__sign"):
					return answer("allow once"), nil
				}
				t.Errorf("an unexpected question: %q", req.Params.Message)
				return &mcp.ElicitResult{Action: "decline"}, nil
			}}
			client := mcp.NewClient(&mcp.Implementation{Name: "e2e", Version: "1"}, opts)
			client.AddRoots(&mcp.Root{URI: "file:///ledger/books"})
			cs := g.dial(t, client, v.version, nil)
			if want := cmp.Or(v.version, "2026-07-28"); cs.InitializeResult().ProtocolVersion != want {
				t.Fatalf("negotiated %q, want %s", cs.InitializeResult().ProtocolVersion, want)
			}
			res, err := callFlat(t, cs, "mcp__ledger__sign", signArgs, nil, "")
			if err != nil || res.IsError || res.NeedsInput() {
				t.Fatalf("sign: %v %+v", err, res)
			}
			// At 2026-07-28 the client answers the roots request; before,
			// the pool does, with its own (none).
			roots := []string{"file:///ledger/books"}
			if v.version != "" {
				roots = []string{}
			}
			if got, want := canonicalJSON(t, json.RawMessage(contentText(res))), canonicalJSON(t, json.RawMessage(signedWant(roots))); got != want {
				t.Errorf("the server got %s, want the client's answers %s", got, want)
			}
			if n := asked.Load(); n != 3 {
				t.Errorf("the client was asked %d questions, want 3 (the approval and the server's two)", n)
			}
			if ran := readSignRan(t, cs); ran != (signRan{Started: 1, Legs: 3, Signed: 1}) {
				t.Errorf("the ledger ran %+v, want one first leg, three legs, one signature", ran)
			}
		})
	}
}

// A deny rule added after a flat call's first round (the settings
// reloaded) refuses the call's continuation: the requestState the client
// holds spares it the question, not the rules (the rule takes the tool out
// of the pool; the pool's gate refuses a continuation the rules forbid in
// any case), and the server's call is not continued.
func TestFlatCallContinuationMeetsADenyRuleAddedSince(t *testing.T) {
	g := startLedgerGatewayWith(t, "http", `{"enableExec": false, "permissions": {"allow": ["mcp__ledger"]}}`)
	client := mcp.NewClient(&mcp.Implementation{Name: "e2e", Version: "1"},
		&mcp.ClientOptions{MultiRoundTrip: &mcp.MultiRoundTripOptions{Disabled: true}, ElicitationHandler: noElicitation(t)})
	cs := g.dial(t, client, "", nil)
	res, err := callFlat(t, cs, "mcp__ledger__sign", signArgs, nil, "")
	if err != nil || !res.NeedsInput() || res.InputRequests["signer"] == nil {
		t.Fatalf("first call: %v %+v, want the server's first round", err, res)
	}
	round1 := res.RequestState

	// read is denied with sign: once a read is refused, the rule holds.
	testkit.ReplaceFile(t, g.settings, []byte(`{"enableExec": false, "permissions": {"allow": ["mcp__ledger"], `+
		`"deny": ["mcp__ledger__sign", "mcp__ledger__read"]}}`))
	deadline := time.Now().Add(runLimit)
	for {
		res, err := callFlat(t, cs, "mcp__ledger__read", map[string]any{"key": "k"}, nil, "")
		if err != nil || res.IsError {
			break
		}
		if time.Now().After(deadline) {
			t.Fatal("the deny rule never applied")
		}
		time.Sleep(50 * time.Millisecond)
	}

	res, err = callFlat(t, cs, "mcp__ledger__sign", signArgs, mcp.InputResponseMap{
		"signer": &mcp.ElicitResult{Action: "accept", Content: map[string]any{"signer": "Ada"}},
		"where":  &mcp.ListRootsResult{Roots: []*mcp.Root{}},
	}, round1)
	if err == nil && !res.IsError {
		t.Errorf("the continuation after the deny rule: %+v, want it refused", res)
	}
	if ran := readSignRan(t, cs); ran != (signRan{Started: 1, Legs: 1}) {
		t.Errorf("the ledger ran %+v, want the first leg alone", ran)
	}
}
