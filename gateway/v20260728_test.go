package gateway

import (
	"context"
	"strings"
	"testing"

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

// A requestState verifies only unaltered, for its own subject, and for
// the client it was issued to; one from another process (another key)
// does not verify.
func TestRequestStateIsBoundToItsRunAndClient(t *testing.T) {
	s := newRequestStates()
	state := s.seal("run_abc", "client a")
	if run, err := s.open(state, "client a"); err != nil || run != "run_abc" {
		t.Fatalf("open: %q %v", run, err)
	}
	if _, err := s.open(state, "client b"); err == nil {
		t.Error("another client's requestState verified")
	}
	if _, err := s.open(strings.Replace(state, "run_abc", "run_abd", 1), "client a"); err == nil {
		t.Error("a requestState naming another run verified")
	}
	if _, err := newRequestStates().open(state, "client a"); err == nil {
		t.Error("another process's requestState verified")
	}
	for _, bad := range []string{"", "v1", "v1.", "v1.run_abc", "v1.run_abc.!!", s.sealFlat("run_abc", "client a")} {
		if _, err := s.open(bad, "client a"); err == nil {
			t.Errorf("%q verified", bad)
		}
	}
	flat := s.sealFlat("tool\x00digest", "client a")
	if s.openFlat(flat, "tool\x00digest", "client a") != nil || s.openFlat(flat, "tool\x00other", "client a") == nil ||
		s.openFlat(flat, "tool\x00digest", "client b") == nil || s.openFlat(state, "tool\x00digest", "client a") == nil {
		t.Error("a flat requestState verified for the wrong call or client, or not for its own")
	}
}
