package gateway

import (
	"bytes"
	"context"
	"crypto/rand"
	"encoding/json"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"testing"

	"github.com/modelcontextprotocol/go-sdk/jsonrpc"
	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/mcpexec/mcpexec"
)

// sseEvent frames msg as the SDK writes an event: one Write of it whole.
func sseEvent(t *testing.T, msg jsonrpc.Message) []byte {
	t.Helper()
	data, err := jsonrpc.EncodeMessage(msg)
	if err != nil {
		t.Fatal(err)
	}
	return []byte("event: message\ndata: " + string(data) + "\n\n")
}

// progressEvent is an event of a progress notification under token,
// carrying info where the gateway's own carry their task.
func progressEvent(t *testing.T, token any, info taskInfo) []byte {
	t.Helper()
	params, err := json.Marshal(&mcp.ProgressNotificationParams{ProgressToken: token, Progress: 1, Meta: mcp.Meta{taskStatusKey: info}})
	if err != nil {
		t.Fatal(err)
	}
	return sseEvent(t, &jsonrpc.Request{Method: "notifications/progress", Params: params})
}

// The event stream renames the progress notifications under the gateway's
// secret token into notifications/tasks/status of the task they carry,
// and passes everything else byte for byte: a progress token shaped like
// the gateway's but with another secret, or its token with more after it,
// a client's token, a message that
// merely holds the token in its text, the stream's opening comment.
func TestTheEventStreamRenamesOnlyTheGatewaysTaskStatus(t *testing.T) {
	info := taskInfo{TaskID: "run_1", Status: "input_required", StatusMessage: "1 tool call: mcp__b__echo",
		CreatedAt: "2026-12-07T00:00:00Z", LastUpdatedAt: "2026-12-07T00:00:01Z", TTL: 60000, PollInterval: 500}
	status, err := json.Marshal(info)
	if err != nil {
		t.Fatal(err)
	}
	own := progressEvent(t, taskStatusToken, info)
	renamed := `event: message` + "\n" + `data: {"jsonrpc":"2.0","method":"notifications/tasks/status","params":` + string(status) + "}\n\n"

	text, _ := json.Marshal(&mcp.CallToolResult{Content: []mcp.Content{&mcp.TextContent{Text: taskStatusToken}}})
	id, err := jsonrpc.MakeID(float64(3))
	if err != nil {
		t.Fatal(err)
	}
	unchanged := map[string][]byte{
		"a lookalike token":   progressEvent(t, taskStatusKey+"/"+rand.Text(), info),
		"the token and more":  progressEvent(t, taskStatusToken+"0", info),
		"a client's token":    progressEvent(t, 7, info),
		"the token in a text": sseEvent(t, &jsonrpc.Response{ID: id, Result: text}),
		"the opening comment": []byte(": ok\n\n"),
	}

	write := func(event []byte) string {
		rec := httptest.NewRecorder()
		n, err := taskStatusWriter{rec}.Write(event)
		if err != nil || n != len(event) {
			t.Errorf("Write of %d bytes: %d, %v", len(event), n, err)
		}
		return rec.Body.String()
	}
	if got := write(own); got != renamed {
		t.Errorf("the gateway's own notification became\n%s\nwant\n%s", got, renamed)
	}
	for what, event := range unchanged {
		if got := write(event); got != string(event) {
			t.Errorf("%s: written as\n%s\nwant it byte for byte\n%s", what, got, event)
		}
	}
}

// The SDK flushes each event through an http.ResponseController: the
// renaming writer lets it reach the connection's.
func TestTheEventStreamStillFlushes(t *testing.T) {
	rec := httptest.NewRecorder()
	if err := http.NewResponseController(taskStatusWriter{rec}).Flush(); err != nil || !rec.Flushed {
		t.Errorf("flush: %v, flushed %v", err, rec.Flushed)
	}
}

// streamTap is a client's HTTP transport that watches the session's event
// stream (the answer to its GET): opened is closed once it is open, and
// the notifications/tasks/status it carries, which the go-sdk client
// itself ignores, are recorded.
type streamTap struct {
	opened chan struct{}
	once   sync.Once

	mu    sync.Mutex
	heard []taskInfo
}

func (s *streamTap) RoundTrip(r *http.Request) (*http.Response, error) {
	res, err := http.DefaultTransport.RoundTrip(r)
	if err == nil && r.Method == http.MethodGet && res.StatusCode == http.StatusOK {
		res.Body = &tappedBody{ReadCloser: res.Body, tap: s}
		s.once.Do(func() { close(s.opened) })
	}
	return res, err
}

func (s *streamTap) statuses() []taskInfo {
	s.mu.Lock()
	defer s.mu.Unlock()
	return append([]taskInfo(nil), s.heard...)
}

// tappedBody is an event stream whose lines its tap reads too.
type tappedBody struct {
	io.ReadCloser
	tap  *streamTap
	line []byte // the line read so far
}

func (b *tappedBody) Read(p []byte) (int, error) {
	n, err := b.ReadCloser.Read(p)
	for _, c := range p[:n] {
		if c != '\n' {
			b.line = append(b.line, c)
			continue
		}
		var msg struct {
			Method string   `json:"method"`
			Params taskInfo `json:"params"`
		}
		if data, ok := bytes.CutPrefix(b.line, []byte("data: ")); ok && json.Unmarshal(data, &msg) == nil && msg.Method == methodTaskStatus {
			b.tap.mu.Lock()
			b.tap.heard = append(b.tap.heard, msg.Params)
			b.tap.mu.Unlock()
		}
		b.line = b.line[:0]
	}
	return n, err
}

// taskCall is a task-augmented tools/call's params.
type taskCall struct {
	mcp.ParamsBase
	Name      string         `json:"name"`
	Arguments map[string]any `json:"arguments"`
	Task      map[string]any `json:"task"`
}

// A go-sdk client in an HTTP session hears its task's status on the
// session's event stream, the end with the task's id and live summary,
// and the session goes on working after it.
func TestAnHTTPSessionHearsItsTasksStatus(t *testing.T) {
	f := start(t, `{"permissions": {"allow": ["mcp__b"]}}`, mcpexec.Options{})
	srv := httptest.NewServer(f.gw.Handler(HTTPOptions{}))
	defer srv.Close()
	tap := &streamTap{opened: make(chan struct{})}
	transport := &mcp.StreamableClientTransport{Endpoint: srv.URL, HTTPClient: &http.Client{Transport: tap}}
	ctx, cancel := context.WithTimeout(context.Background(), waitLimit)
	defer cancel()
	cs, err := mcp.NewClient(&mcp.Implementation{Name: "test", Version: "1"}, nil).Connect(ctx, transport, &mcp.ClientSessionOptions{ProtocolVersion: "2025-11-25"})
	if err != nil {
		t.Fatal(err)
	}
	defer func() { _ = cs.Close() }()
	// Only an open event stream carries the notifications.
	select {
	case <-tap.opened:
	case <-ctx.Done():
		t.Fatal("the client opened no event stream")
	}

	if _, err := mcp.CallCustomMethod[*taskCall, *mcp.CallToolResult](ctx, cs, "tools/call", &taskCall{Name: "Exec",
		Arguments: map[string]any{"code": `return await tools.mcp__b__echo({x: 1})`}, Task: map[string]any{"ttl": 60000}}); err != nil {
		t.Fatal(err)
	}
	var end taskInfo
	eventually(t, "the task's completion notified", func() bool {
		for _, info := range tap.statuses() {
			if info.Status == "completed" {
				end = info
				return true
			}
		}
		return false
	})
	if !strings.HasPrefix(end.TaskID, "run_") || end.StatusMessage != "1 tool call: mcp__b__echo" {
		t.Errorf("completion %+v, want the task's id and the live summary", end)
	}
	if text, isError := (&client{ClientSession: cs}).exec(t, ctx, `return 1 + 1`, nil); isError || text != "2" {
		t.Errorf("a call after the notifications: %q (isError %v)", text, isError)
	}
}

// A session without an event stream misses its task's notifications, and
// nothing else: its client polls the task to its end, and calls on.
func TestAnHTTPSessionWithoutEventStreamPollsItsTask(t *testing.T) {
	f := start(t, `{"permissions": {"allow": ["mcp__b"]}}`, mcpexec.Options{})
	srv := httptest.NewServer(f.gw.Handler(HTTPOptions{}))
	defer srv.Close()
	ctx, cancel := context.WithTimeout(context.Background(), waitLimit)
	defer cancel()
	c := mcp.NewClient(&mcp.Implementation{Name: "test", Version: "1"}, nil)
	_ = mcp.AddSendingCustomMethod[*taskParams, *taskState](c, methodTasksGet)
	_ = mcp.AddSendingCustomMethod[*listParams, *taskList](c, methodTasksList)
	transport := &mcp.StreamableClientTransport{Endpoint: srv.URL, DisableStandaloneSSE: true}
	cs, err := c.Connect(ctx, transport, &mcp.ClientSessionOptions{ProtocolVersion: "2025-11-25"})
	if err != nil {
		t.Fatal(err)
	}
	defer func() { _ = cs.Close() }()

	if _, err := mcp.CallCustomMethod[*taskCall, *mcp.CallToolResult](ctx, cs, "tools/call", &taskCall{Name: "Exec",
		Arguments: map[string]any{"code": `return await tools.mcp__b__echo({x: 1})`}, Task: map[string]any{"ttl": 60000}}); err != nil {
		t.Fatal(err)
	}
	list, err := mcp.CallCustomMethod[*listParams, *taskList](ctx, cs, methodTasksList, &listParams{})
	if err != nil || len(list.Tasks) != 1 {
		t.Fatalf("tasks/list: %v, %v; want the task started", list, err)
	}
	eventually(t, "the task polled to completed", func() bool {
		st, err := mcp.CallCustomMethod[*taskParams, *taskState](ctx, cs, methodTasksGet, &taskParams{TaskID: list.Tasks[0].TaskID})
		if err != nil {
			t.Fatalf("tasks/get: %v", err)
		}
		return st.Status == "completed"
	})
	if text, isError := (&client{ClientSession: cs}).exec(t, ctx, `return 1 + 1`, nil); isError || text != "2" {
		t.Errorf("a call after the task: %q (isError %v)", text, isError)
	}
}
