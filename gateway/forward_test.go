package gateway

import (
	"context"
	"encoding/json"
	"strings"
	"sync"
	"testing"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/mcpexec/mcpexec"
	"github.com/mcpexec/mcpexec/internal/testservers"
	"github.com/mcpexec/mcpexec/pool"
)

// askingServer is a server "a" whose tool drop (annotated destructive) asks
// the person a question with testservers.ElicitSchema and returns the answer
// it got, {"action": ..., "content": ...}, as its text; its tool peek
// (read-only) is there to be approved.
func askingServer() *mcp.Server {
	s := mcp.NewServer(&mcp.Implementation{Name: "a", Version: "1"}, nil)
	schema := json.RawMessage(`{"type":"object"}`)
	s.AddTool(&mcp.Tool{Name: "drop", InputSchema: schema, Annotations: &mcp.ToolAnnotations{DestructiveHint: new(true)}},
		func(_ context.Context, req *mcp.CallToolRequest) (*mcp.CallToolResult, error) {
			answer, ok := req.Params.InputResponses["who"].(*mcp.ElicitResult)
			if !ok {
				return &mcp.CallToolResult{InputRequests: mcp.InputRequestMap{
					"who": &mcp.ElicitParams{Message: "Who drops the table?", RequestedSchema: testservers.ElicitSchema},
				}}, nil
			}
			out, _ := json.Marshal(map[string]any{"action": answer.Action, "content": answer.Content})
			return &mcp.CallToolResult{Content: []mcp.Content{&mcp.TextContent{Text: string(out)}}}, nil
		})
	s.AddTool(&mcp.Tool{Name: "peek", InputSchema: schema, Annotations: &mcp.ToolAnnotations{ReadOnlyHint: true}},
		func(context.Context, *mcp.CallToolRequest) (*mcp.CallToolResult, error) {
			return &mcp.CallToolResult{Content: []mcp.Content{&mcp.TextContent{Text: "peeked"}}}, nil
		})
	return s
}

// recording answers every question with one result and keeps the requests.
type recording struct {
	result mcp.ElicitResult

	mu    sync.Mutex
	asked []*mcp.ElicitParams
}

func (r *recording) handle(_ context.Context, req *mcp.ElicitRequest) (*mcp.ElicitResult, error) {
	r.mu.Lock()
	r.asked = append(r.asked, req.Params)
	r.mu.Unlock()
	res := r.result
	return &res, nil
}

func (r *recording) requests() []*mcp.ElicitParams {
	r.mu.Lock()
	defer r.mu.Unlock()
	return append([]*mcp.ElicitParams(nil), r.asked...)
}

func startAsking(t *testing.T, settings string) *fixture {
	return start(t, settings, mcpexec.Options{Servers: []pool.ServerConfig{{Name: "a", Dial: testservers.DialInMemory(askingServer())}}})
}

// canonical is v as JSON with sorted keys, to compare schemas whatever
// decoded them.
func canonical(t *testing.T, v any) string {
	t.Helper()
	data, err := json.Marshal(v)
	if err != nil {
		t.Fatal(err)
	}
	var decoded any
	if err := json.Unmarshal(data, &decoded); err != nil {
		t.Fatal(err)
	}
	out, _ := json.Marshal(decoded)
	return string(out)
}

// connectAt connects a go-sdk client at protocol version, answering
// elicitations with handle (nil: no elicitation); roundTrips off turns its
// multi round-trip middleware off, so that it sees input_required itself.
func connectAt(t *testing.T, f *fixture, version string, roundTripsOff bool, handle func(context.Context, *mcp.ElicitRequest) (*mcp.ElicitResult, error)) *mcp.ClientSession {
	t.Helper()
	opts := &mcp.ClientOptions{ElicitationHandler: handle}
	if roundTripsOff {
		opts.MultiRoundTrip = &mcp.MultiRoundTripOptions{Disabled: true}
	}
	ct, st := mcp.NewInMemoryTransports()
	ss, err := f.gw.Server().Connect(context.Background(), st, nil)
	if err != nil {
		t.Fatal(err)
	}
	cs, err := mcp.NewClient(&mcp.Implementation{Name: "test", Version: "1"}, opts).Connect(context.Background(), ct,
		&mcp.ClientSessionOptions{ProtocolVersion: version})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		_ = cs.Close()
		_ = ss.Wait()
	})
	if got := cs.InitializeResult().ProtocolVersion; got != version {
		t.Fatalf("negotiated %s, want %s", got, version)
	}
	return cs
}

// execOn calls Exec on cs (a retry carries responses and state).
func execOn(t *testing.T, cs *mcp.ClientSession, code string, responses mcp.InputResponseMap, state string) *mcp.CallToolResult {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), waitLimit)
	defer cancel()
	res, err := cs.CallTool(ctx, &mcp.CallToolParams{Name: "Exec", Arguments: map[string]string{"code": code},
		InputResponses: responses, RequestState: state})
	if err != nil {
		t.Fatalf("calling Exec: %v", err)
	}
	return res
}

// serverGot reads the asking server's reply: the answer it got.
func serverGot(t *testing.T, res *mcp.CallToolResult) (action string, content map[string]any) {
	t.Helper()
	text := firstText(res)
	if res.IsError {
		t.Fatalf("the script failed: %s", text)
	}
	var got struct {
		Action  string         `json:"action"`
		Content map[string]any `json:"content"`
	}
	if err := json.Unmarshal([]byte(text), &got); err != nil {
		t.Fatalf("the server's reply %q: %v", text, err)
	}
	return got.Action, got.Content
}

// The question the asking server's drop tool becomes for the gateway's
// client: a line naming the server and the tool, with what its server says
// about it, then the server's own message.
const dropQuestion = "The MCP server \"a\" asks during mcp__a__drop (its server says: destructive):\nWho drops the table?"

// A server's question during a nested call reaches the client whose script
// made the call, in both protocol versions: within the call for a
// 2025-11-25 client, as input_required (here answered by the SDK's
// middleware) for a 2026-07-28 one. The server's schema arrives intact,
// the message names the server and the tool with what its server says
// about it, and the client's answer reaches the server unchanged, and so
// does a decline.
func TestAServersQuestionIsPassedOnToTheClient(t *testing.T) {
	for _, version := range []string{"2025-11-25", "2026-07-28"} {
		t.Run(version, func(t *testing.T) {
			f := startAsking(t, `{"permissions": {"allow": ["mcp__a"]}}`)
			answer := map[string]any{"name": "Ada", "color": "red", "count": 5.0, "notify": false}
			person := &recording{result: mcp.ElicitResult{Action: "accept", Content: answer}}
			cs := connectAt(t, f, version, false, person.handle)
			action, content := serverGot(t, execOn(t, cs, `return await tools.mcp__a__drop({})`, nil, ""))
			if action != "accept" || canonical(t, content) != canonical(t, answer) {
				t.Errorf("the server got %s %v, want accept with %v", action, content, answer)
			}
			asked := person.requests()
			if len(asked) != 1 {
				t.Fatalf("the client was asked %d questions, want 1", len(asked))
			}
			q := asked[0]
			if q.Message != dropQuestion || q.Mode != "form" {
				t.Errorf("question %q (mode %q), want %q in a form", q.Message, q.Mode, dropQuestion)
			}
			if canonical(t, q.RequestedSchema) != canonical(t, testservers.ElicitSchema) {
				t.Errorf("the client got the schema %s, want the server's %s", canonical(t, q.RequestedSchema), testservers.ElicitSchema)
			}

			decliner := &recording{result: mcp.ElicitResult{Action: "decline"}}
			cs2 := connectAt(t, f, version, false, decliner.handle)
			if action, content := serverGot(t, execOn(t, cs2, `return await tools.mcp__a__drop({})`, nil, "")); action != "decline" || content != nil {
				t.Errorf("declined: the server got %s %v, want a decline and no content", action, content)
			}
		})
	}
}

// A 2026-07-28 client that handles input_required itself sees the
// server's question among the run's questions, with the server's schema;
// its retry answers it and the server gets the answer unchanged.
func TestAServersQuestionComesAsInputRequiredAt20260728(t *testing.T) {
	f := startAsking(t, `{"permissions": {"allow": ["mcp__a"]}}`)
	cs := connectAt(t, f, "2026-07-28", true, func(context.Context, *mcp.ElicitRequest) (*mcp.ElicitResult, error) {
		t.Error("the client was asked within the call")
		return &mcp.ElicitResult{Action: "decline"}, nil
	})
	const code = `return await tools.mcp__a__drop({})`
	res := execOn(t, cs, code, nil, "")
	if !res.NeedsInput() || len(res.InputRequests) != 1 || res.RequestState == "" {
		t.Fatalf("want input_required with one question and a requestState, got %+v", res)
	}
	var id string
	for key, ir := range res.InputRequests {
		id = key
		q, ok := ir.(*mcp.ElicitParams)
		if !ok || q.Message != dropQuestion || canonical(t, q.RequestedSchema) != canonical(t, testservers.ElicitSchema) {
			t.Fatalf("the question %+v, want %q with the server's schema", ir, dropQuestion)
		}
	}
	answer := map[string]any{"name": "Grace", "color": "blue", "count": 1.0, "notify": true}
	res = execOn(t, cs, code, mcp.InputResponseMap{id: &mcp.ElicitResult{Action: "accept", Content: answer}}, res.RequestState)
	if res.NeedsInput() {
		t.Fatalf("the answered retry asks again: %+v", res)
	}
	if action, content := serverGot(t, res); action != "accept" || canonical(t, content) != canonical(t, answer) {
		t.Errorf("the server got %s %v, want accept with %v", action, content, answer)
	}
}

// A client that cannot be asked (no elicitation) has the server's question
// declined for it: the call goes on and the server hears the decline.
func TestAServersQuestionIsDeclinedForAClientThatCannotBeAsked(t *testing.T) {
	f := startAsking(t, `{"permissions": {"allow": ["mcp__a"]}}`)
	for _, version := range []string{"2025-11-25", "2026-07-28"} {
		cs := connectAt(t, f, version, false, nil)
		if action, _ := serverGot(t, execOn(t, cs, `return await tools.mcp__a__drop({})`, nil, "")); action != "decline" {
			t.Errorf("%s: the server got %s, want a decline", version, action)
		}
	}
}

// A flat call (Exec switched off) passes a server's question on: within
// the call to a 2025-11-25 client, under a line naming the server; as the
// gateway's own input_required to a 2026-07-28 client (answered here by its
// SDK's multi round-trip middleware), as the server asked it. Either way
// the person's answer reaches the server.
func TestAServersQuestionDuringAFlatCall(t *testing.T) {
	f := startAsking(t, `{"enableExec": false, "permissions": {"allow": ["mcp__a"]}}`)
	for version, message := range map[string]string{"2025-11-25": "The MCP server \"a\" asks during mcp__a__drop", "2026-07-28": "Who drops the table?"} {
		person := &recording{result: mcp.ElicitResult{Action: "accept", Content: map[string]any{"name": "Ada"}}}
		cs := connectAt(t, f, version, false, person.handle)
		eventually(t, "the flat tool offered", func() bool {
			list, err := cs.ListTools(context.Background(), nil)
			return err == nil && len(list.Tools) > 0 && list.Tools[0].Name != "Exec"
		})
		res, err := cs.CallTool(context.Background(), &mcp.CallToolParams{Name: "mcp__a__drop", Arguments: map[string]any{}})
		if err != nil {
			t.Fatal(err)
		}
		if text := firstText(res); res.IsError || !strings.Contains(text, `"action":"accept"`) || !strings.Contains(text, `"name":"Ada"`) {
			t.Errorf("%s: isError=%v %q, want the server to get the person's answer", version, res.IsError, text)
		}
		if asked := person.requests(); len(asked) != 1 || !strings.HasPrefix(asked[0].Message, message) {
			t.Errorf("%s: the person was asked %+v, want one question starting %q", version, asked, message)
		}
	}
}

// An approval question says what the tool's server says about it, so the
// person knows what they approve.
func TestAnApprovalQuestionShowsTheToolsAnnotations(t *testing.T) {
	f := startAsking(t, `{"permissions": {"ask": ["mcp__a"]}}`)
	person := &answering{content: map[string]any{"answer": "allow once"}}
	c := f.connect(t, person.handle)
	if text, isError := c.exec(t, context.Background(), `return await tools.mcp__a__peek({})`, nil); isError {
		t.Fatalf("the script failed: %s", text)
	}
	if q := person.questions(); len(q) != 1 || !strings.Contains(q[0], "mcp__a__peek (its server says: read-only)") {
		t.Errorf("questions %q, want one saying the tool is read-only", q)
	}
}
