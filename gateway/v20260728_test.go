package gateway

import (
	"context"
	"encoding/base64"
	"strings"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/mcpexec/mcpexec"
)

// A client of 2025-11-25 is still asked within the call: its elicitation
// handler answers, and the call returns the run's end.
func TestOlderClientsAreAskedWithinTheCall(t *testing.T) {
	f := start(t, askEcho, mcpexec.Options{})
	person := &answering{content: map[string]any{"answer": "allow once"}}
	c := f.connectAt(t, "2025-11-25", true, person.handle)
	if v := c.InitializeResult().ProtocolVersion; v != "2025-11-25" {
		t.Fatalf("negotiated %q", v)
	}
	text, isError := c.exec(t, context.Background(), `return await tools.mcp__b__echo({x: 1})`, nil)
	if isError || !strings.Contains(text, `{"x":1}`) || len(person.questions()) != 1 {
		t.Errorf("result isError=%v %q after %d questions, want the echo after one", isError, text, len(person.questions()))
	}
}

// With Exec off, a flat call of a 2026-07-28 client stops at its question
// and returns it as input_required; the retry with the answer makes the
// call; a requestState for other arguments is refused; a yes/no "no"
// refuses the call.
func TestFlatCallsAskByRoundTripAt20260728(t *testing.T) {
	f := start(t, `{"enableExec": false, "permissions": {"allow": ["mcp__b"], "ask": ["mcp__b__echo"]}}`, mcpexec.Options{})
	c := f.connectAt(t, "", true, (&answering{}).handle)
	ctx := context.Background()
	call := func(args map[string]any, answers mcp.InputResponseMap, state string) (*mcp.CallToolResult, error) {
		return c.CallTool(ctx, &mcp.CallToolParams{Name: "mcp__b__echo", Arguments: args, InputResponses: answers, RequestState: state})
	}
	args := map[string]any{"x": 1}
	res, err := call(args, nil, "")
	if err != nil || !res.NeedsInput() || len(res.InputRequests) != 1 || res.RequestState == "" {
		t.Fatalf("first call: %v %+v, want input_required with one question", err, res)
	}
	q, ok := res.InputRequests[flatQuestionID].(*mcp.ElicitParams)
	if !ok || !strings.Contains(q.Message, "mcp__b__echo") {
		t.Fatalf("question %+v", res.InputRequests)
	}
	yes := mcp.InputResponseMap{flatQuestionID: &mcp.ElicitResult{Action: "accept", Content: map[string]any{"answer": true}}}
	if _, err := call(map[string]any{"x": 2}, yes, res.RequestState); err == nil || !strings.Contains(err.Error(), "does not verify") {
		t.Errorf("the state of another call: %v, want it refused", err)
	}
	res2, err := call(args, yes, res.RequestState)
	if err != nil || res2.NeedsInput() || res2.IsError || !strings.Contains(firstText(res2), `{"x":1}`) {
		t.Errorf("the answered retry: %v %+v, want the echo", err, res2)
	}
	no := mcp.InputResponseMap{flatQuestionID: &mcp.ElicitResult{Action: "accept", Content: map[string]any{"answer": false}}}
	res3, err := call(args, no, res.RequestState)
	if err != nil || !res3.IsError || !strings.Contains(firstText(res3), "denied") {
		t.Errorf("a no: %v %+v, want the call refused", err, res3)
	}
}

// A requestState verifies only unaltered, for its own holder and run, and
// for the client it was issued to; one from another process verifies only
// when the two share their key (replicas), and then names its holder.
func TestRequestStateIsBoundToItsRunAndClient(t *testing.T) {
	s := newRequestStates(nil, time.Minute)
	state := s.seal("inc@", "run_abc", "client a")
	if holder, run, err := s.open(state, "client a"); err != nil || run != "run_abc" || holder != "inc@" {
		t.Fatalf("open: %q %q %v", holder, run, err)
	}
	if _, _, err := s.open(state, "client b"); err == nil {
		t.Error("another client's requestState verified")
	}
	if _, _, err := s.open(strings.Replace(state, "run_abc", "run_abd", 1), "client a"); err == nil {
		t.Error("a requestState naming another run verified")
	}
	other := s.seal("inc@10.0.0.2:7500", "run_abc", "client a")
	forged := strings.Join(append(strings.Split(other, ".")[:1], append(strings.Split(state, ".")[1:2], strings.Split(other, ".")[2:]...)...), ".")
	if _, _, err := s.open(forged, "client a"); err == nil {
		t.Error("a requestState naming another holder verified")
	}
	if _, _, err := newRequestStates(nil, time.Minute).open(state, "client a"); err == nil {
		t.Error("another process's requestState verified")
	}
	key := []byte("a key the replicas share, long enough")
	shared := newRequestStates(key, time.Minute).seal("inc@10.0.0.1:7500", "run_abc", "client a")
	if holder, run, err := newRequestStates(key, time.Minute).open(shared, "client a"); err != nil || holder != "inc@10.0.0.1:7500" || run != "run_abc" {
		t.Errorf("a replica sharing the key: %q %q %v, want the holder and run", holder, run, err)
	}
	for _, bad := range []string{"", "v2", "v2.", "v2.aW5jQA.run_abc", "v2.aW5jQA.run_abc.!!", "v2.!!.run_abc." + strings.Split(state, ".")[3],
		"v1.run_abc." + strings.Split(state, ".")[3], s.sealFlat("run_abc", "client a")} {
		if _, _, err := s.open(bad, "client a"); err == nil {
			t.Errorf("%q verified", bad)
		}
	}
	flat := s.sealFlat("tool\x00digest", "client a")
	if st, err := s.openFlat(flat, "tool\x00digest", "client a"); err != nil || st.serverInput {
		t.Errorf("a flat requestState for its own call: %+v %v", st, err)
	}
	for _, bad := range []struct{ state, subject, client string }{
		{flat, "tool\x00other", "client a"}, {flat, "tool\x00digest", "client b"}, {state, "tool\x00digest", "client a"},
	} {
		if _, err := s.openFlat(bad.state, bad.subject, bad.client); err == nil {
			t.Errorf("a flat requestState verified for %q, %q", bad.subject, bad.client)
		}
	}
}

// A requestState passing on a flat call's server's request for input
// carries the server's own state, verifies for that call, that server
// state and that client only, and never as another layout.
func TestServerInputStateIsBoundToItsCallServerStateAndClient(t *testing.T) {
	s := newRequestStates(nil, time.Minute)
	const serverState = "the server's own \x00 state.with.dots"
	state := s.sealServerInput("tool\x00digest", serverState, "client a")
	st, err := s.openFlat(state, "tool\x00digest", "client a")
	if err != nil || !st.serverInput || st.serverState != serverState {
		t.Fatalf("open: %+v %v, want the server's state", st, err)
	}
	parts := strings.Split(state, ".")
	altered := parts[0] + "." + base64.RawURLEncoding.EncodeToString([]byte("another state")) + "." + parts[2] + "." + parts[3]
	for name, bad := range map[string]struct{ state, subject, client string }{
		"another call":            {state, "tool\x00other", "client a"},
		"another client":          {state, "tool\x00digest", "client b"},
		"an altered server state": {altered, "tool\x00digest", "client a"},
		"as a permission answer":  {"f1." + parts[2] + "." + parts[3], "tool\x00digest", "client a"},
		"truncated":               {parts[0] + "." + parts[1], "tool\x00digest", "client a"},
	} {
		if _, err := s.openFlat(bad.state, bad.subject, bad.client); err == nil {
			t.Errorf("%s verified", name)
		}
	}
	if _, err := newRequestStates(nil, time.Minute).openFlat(state, "tool\x00digest", "client a"); err == nil {
		t.Error("another process's (a restarted gateway's) requestState verified")
	}
	if _, _, err := s.open(state, "client a"); err == nil {
		t.Error("a flat call's requestState named a run")
	}
}
