package pool_test

import (
	"context"
	"encoding/json"
	"strings"
	"sync"
	"testing"

	"github.com/modelcontextprotocol/go-sdk/jsonrpc"
	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/mcpexec/mcpexec/elicit"
	"github.com/mcpexec/mcpexec/internal/testservers"
	"github.com/mcpexec/mcpexec/pool"
)

// taskRequiredSign shows the ledger's sign tool as one whose server
// requires a task (its tools/list entry says execution.taskSupport
// "required") and records the params of every tools/call of it. The ledger
// itself makes no task: it answers the task-augmented call at once,
// input_required included, as a server of 2026-07-28 may.
type taskRequiredSign struct {
	mu    sync.Mutex
	calls []json.RawMessage
}

// dial connects to a session of ledger, seen through s on the server's
// side (the pool taps the SDK's own transports only).
func (s *taskRequiredSign) dial(ledger *mcp.Server) func(context.Context) (mcp.Transport, error) {
	return func(context.Context) (mcp.Transport, error) {
		client, server := mcp.NewInMemoryTransports()
		if _, err := ledger.Connect(context.Background(), signTransport{server, s}, nil); err != nil {
			return nil, err
		}
		return client, nil
	}
}

func (s *taskRequiredSign) signCalls() []json.RawMessage {
	s.mu.Lock()
	defer s.mu.Unlock()
	return append([]json.RawMessage{}, s.calls...)
}

type signTransport struct {
	mcp.Transport
	rec *taskRequiredSign
}

func (t signTransport) Connect(ctx context.Context) (mcp.Connection, error) {
	c, err := t.Transport.Connect(ctx)
	if err != nil {
		return nil, err
	}
	return signConn{c, t.rec}, nil
}

type signConn struct {
	mcp.Connection
	rec *taskRequiredSign
}

func (c signConn) Read(ctx context.Context) (jsonrpc.Message, error) {
	msg, err := c.Connection.Read(ctx)
	if req, ok := msg.(*jsonrpc.Request); ok && req.Method == "tools/call" {
		var p struct {
			Name string `json:"name"`
		}
		if json.Unmarshal(req.Params, &p) == nil && p.Name == "sign" {
			c.rec.mu.Lock()
			c.rec.calls = append(c.rec.calls, append(json.RawMessage{}, req.Params...))
			c.rec.mu.Unlock()
		}
	}
	return msg, err
}

func (c signConn) Write(ctx context.Context, msg jsonrpc.Message) error {
	resp, ok := msg.(*jsonrpc.Response)
	if !ok || len(resp.Result) == 0 {
		return c.Connection.Write(ctx, msg)
	}
	var list map[string]any
	if json.Unmarshal(resp.Result, &list) != nil {
		return c.Connection.Write(ctx, msg)
	}
	tools, ok := list["tools"].([]any)
	if !ok {
		return c.Connection.Write(ctx, msg)
	}
	for _, tool := range tools {
		if entry, ok := tool.(map[string]any); ok && entry["name"] == "sign" {
			entry["execution"] = map[string]any{"taskSupport": pool.TaskRequired}
		}
	}
	result, err := json.Marshal(list)
	if err != nil {
		return err
	}
	return c.Connection.Write(ctx, &jsonrpc.Response{ID: resp.ID, Result: result})
}

// A server of 2026-07-28 that did not declare the tasks extension and
// marks a tool as requiring a task gets plain calls of it: the 2025-style
// task param means nothing to it, so every leg, continuations included,
// goes out without one, and the catalog does not mark the tool @task.
func TestA2026ServersTaskToolIsCalledWithoutTheTaskParam(t *testing.T) {
	server := &taskRequiredSign{}
	m := start(t, []pool.ServerConfig{{Name: "ledger", Dial: server.dial(testservers.Ledger())}}, pool.Options{Gate: &countingGate{}})
	waitFor(t, m, "the sign tool", has("mcp__ledger__sign"))
	if tool, _ := m.Snapshot().Lookup("mcp__ledger__sign"); tool.TaskSupport != "" {
		t.Fatalf("sign's task support is %q, want none for a server without the tasks extension", tool.TaskSupport)
	}
	ctx := context.Background()
	args := raw(`{"what":"entry"}`)
	res, err := m.Call(pool.WithInputReturned(ctx), "mcp__ledger__sign", args)
	if err != nil || res.InputRequired == nil {
		t.Fatalf("first leg: %+v %v, want the server's request for input", res, err)
	}
	res, err = m.Call(pool.WithContinuation(ctx, pool.Continuation{State: res.InputRequired.State, Responses: mcp.InputResponseMap{
		"signer": &mcp.ElicitResult{Action: "accept", Content: map[string]any{"signer": "Ada"}},
		"where":  &mcp.ListRootsResult{Roots: []*mcp.Root{}},
	}}), "mcp__ledger__sign", args)
	if err != nil || res.InputRequired == nil {
		t.Fatalf("second round: %+v %v, want the witness question", res, err)
	}
	res, err = m.Call(pool.WithContinuation(ctx, pool.Continuation{State: res.InputRequired.State, Responses: mcp.InputResponseMap{
		"witness": &mcp.ElicitResult{Action: "accept", Content: map[string]any{"witness": "Charles"}},
	}}), "mcp__ledger__sign", args)
	if err != nil || res.InputRequired != nil || !strings.Contains(res.Value.(string), `"witness":{"witness":"Charles"}`) {
		t.Fatalf("last round: %+v %v, want the signature", res, err)
	}
	checkSignLegs(t, server.signCalls(), 3)
}

// Such a server's task marks stay dropped when its tools are listed again
// after it said they changed: the catalog's @task must not come back.
func TestA2026ServersTaskMarksStayDroppedAfterARefresh(t *testing.T) {
	server := &taskRequiredSign{}
	ledger := testservers.Ledger()
	m := start(t, []pool.ServerConfig{{Name: "ledger", Dial: server.dial(ledger)}}, pool.Options{Gate: &countingGate{}})
	waitFor(t, m, "the sign tool", has("mcp__ledger__sign"))
	ledger.AddTool(&mcp.Tool{Name: "added", InputSchema: json.RawMessage(`{"type":"object"}`)},
		func(context.Context, *mcp.CallToolRequest) (*mcp.CallToolResult, error) {
			return &mcp.CallToolResult{}, nil
		})
	waitFor(t, m, "the refreshed list", has("mcp__ledger__added"))
	if tool, _ := m.Snapshot().Lookup("mcp__ledger__sign"); tool.TaskSupport != "" {
		t.Errorf("sign's task support is %q after a refresh, want none for a server without the tasks extension", tool.TaskSupport)
	}
}

// A script's call of such a tool, whose server asks by input_required,
// has its questions answered through the pool's Elicitor and finishes: a
// task-param'd call once failed here after the person was asked, as the
// SDK's client could not retry it.
func TestA2026ServersTaskToolAsksThroughTheElicitor(t *testing.T) {
	server := &taskRequiredSign{}
	var mu sync.Mutex
	var asked []string
	answers := map[string]map[string]any{testservers.SignMessage: {"signer": "Ada"}, testservers.WitnessMessage: {"witness": "Charles"}}
	m := start(t, []pool.ServerConfig{{Name: "ledger", Dial: server.dial(testservers.Ledger())}}, pool.Options{Gate: &countingGate{},
		Elicitor: elicit.Func(func(_ context.Context, r elicit.Request) (elicit.Response, error) {
			mu.Lock()
			asked = append(asked, r.Message)
			mu.Unlock()
			return elicit.Response{Action: elicit.Accept, Content: answers[r.Message]}, nil
		})})
	waitFor(t, m, "the sign tool", has("mcp__ledger__sign"))
	res, err := m.Call(context.Background(), "mcp__ledger__sign", raw(`{"what":"entry"}`))
	if err != nil || !strings.Contains(res.Value.(string), `"witness":{"witness":"Charles"}`) {
		t.Fatalf("call: %+v %v, want the signature", res, err)
	}
	mu.Lock()
	defer mu.Unlock()
	if len(asked) != 2 || asked[0] != testservers.SignMessage || asked[1] != testservers.WitnessMessage {
		t.Errorf("asked %q, want the signer then the witness", asked)
	}
	checkSignLegs(t, server.signCalls(), 3)
}

// checkSignLegs checks that sign was called in n legs, none with the
// 2025-style task param, the continuations carrying state and answers.
func checkSignLegs(t *testing.T, calls []json.RawMessage, n int) {
	t.Helper()
	if len(calls) != n {
		t.Fatalf("sign was called %d times, want %d legs", len(calls), n)
	}
	for i, params := range calls {
		var p struct {
			Task           json.RawMessage `json:"task"`
			RequestState   string          `json:"requestState"`
			InputResponses json.RawMessage `json:"inputResponses"`
		}
		if err := json.Unmarshal(params, &p); err != nil {
			t.Fatal(err)
		}
		if len(p.Task) != 0 {
			t.Errorf("leg %d went out with the task param: %s", i+1, params)
		}
		if continues := i > 0; continues != (p.RequestState != "" && len(p.InputResponses) > 0) {
			t.Errorf("leg %d: %s, want the state and the answers on the continuations alone", i+1, params)
		}
	}
}
