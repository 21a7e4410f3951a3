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

// A server's question during a nested call reaches the client whose script
// made the call, as an elicitation in that call: the server's schema
// intact, its message after a line naming the server and the tool with
// what its server says about it; the client's answer reaches the server
// unchanged, and so does a decline.
func TestAServersQuestionIsPassedOnToTheClient(t *testing.T) {
	f := startAsking(t, `{"permissions": {"allow": ["mcp__a"]}}`)
	answer := map[string]any{"name": "Ada", "color": "red", "count": 5.0, "notify": false}
	person := &recording{result: mcp.ElicitResult{Action: "accept", Content: answer}}
	c := f.connect(t, person.handle)
	text, isError := c.exec(t, context.Background(), `return await tools.mcp__a__drop({})`, nil)
	if isError {
		t.Fatalf("the script failed: %s", text)
	}
	var got struct {
		Action  string         `json:"action"`
		Content map[string]any `json:"content"`
	}
	if err := json.Unmarshal([]byte(text), &got); err != nil {
		t.Fatalf("the server's reply %q: %v", text, err)
	}
	if got.Action != "accept" || canonical(t, got.Content) != canonical(t, answer) {
		t.Errorf("the server got %+v, want accept with %v", got, answer)
	}
	asked := person.requests()
	if len(asked) != 1 {
		t.Fatalf("the client was asked %d questions, want 1", len(asked))
	}
	q := asked[0]
	const wantMessage = "The MCP server \"a\" asks during mcp__a__drop (its server says: destructive):\nWho drops the table?"
	if q.Message != wantMessage || q.Mode != "form" {
		t.Errorf("question %q (mode %q), want %q in a form", q.Message, q.Mode, wantMessage)
	}
	if canonical(t, q.RequestedSchema) != canonical(t, testservers.ElicitSchema) {
		t.Errorf("the client got the schema %s, want the server's %s", canonical(t, q.RequestedSchema), testservers.ElicitSchema)
	}

	decliner := &recording{result: mcp.ElicitResult{Action: "decline"}}
	c2 := f.connect(t, decliner.handle)
	text, isError = c2.exec(t, context.Background(), `return await tools.mcp__a__drop({})`, nil)
	if isError || !strings.Contains(text, `"action":"decline"`) || strings.Contains(text, `"name"`) {
		t.Errorf("declined: isError=%v %q, want the server to see a decline and no content", isError, text)
	}
}

// A client that cannot be asked (no elicitation) has the server's question
// declined for it: the call goes on and the server hears the decline.
func TestAServersQuestionIsDeclinedForAClientThatCannotBeAsked(t *testing.T) {
	f := startAsking(t, `{"permissions": {"allow": ["mcp__a"]}}`)
	c := f.connect(t, nil)
	text, isError := c.exec(t, context.Background(), `return await tools.mcp__a__drop({})`, nil)
	if isError || !strings.Contains(text, `"action":"decline"`) {
		t.Errorf("isError=%v %q, want the server to see a decline", isError, text)
	}
}

// A flat call (Exec switched off) passes a server's question on the same
// way.
func TestAServersQuestionDuringAFlatCallIsPassedOn(t *testing.T) {
	f := startAsking(t, `{"enableExec": false, "permissions": {"allow": ["mcp__a"]}}`)
	person := &recording{result: mcp.ElicitResult{Action: "accept", Content: map[string]any{"name": "Ada"}}}
	c := f.connect(t, person.handle)
	eventually(t, "the flat tool offered", func() bool { return c.tools(t)["mcp__a__drop"] != nil })
	res, err := c.CallTool(context.Background(), &mcp.CallToolParams{Name: "mcp__a__drop", Arguments: map[string]any{}})
	if err != nil {
		t.Fatal(err)
	}
	if text := firstText(res); res.IsError || !strings.Contains(text, `"name":"Ada"`) {
		t.Errorf("isError=%v %q, want the server to get the answer", res.IsError, text)
	}
	if q := person.requests(); len(q) != 1 || !strings.HasPrefix(q[0].Message, `The MCP server "a" asks during mcp__a__drop`) {
		t.Errorf("the client was asked %d questions, want the server's one", len(q))
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
