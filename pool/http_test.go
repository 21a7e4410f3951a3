package pool_test

import (
	"context"
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"reflect"
	"sync"
	"testing"

	"github.com/mcpexec/mcpexec/internal/testservers"
	"github.com/mcpexec/mcpexec/pool"
	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// headerLog records the Authorization header of every request.
type headerLog struct {
	mu   sync.Mutex
	seen []string
	next http.Handler
}

func (h *headerLog) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	h.mu.Lock()
	h.seen = append(h.seen, r.Header.Get("Authorization"))
	h.mu.Unlock()
	h.next.ServeHTTP(w, r)
}

func (h *headerLog) all(want string) bool {
	h.mu.Lock()
	defer h.mu.Unlock()
	for _, v := range h.seen {
		if v != want {
			return false
		}
	}
	return len(h.seen) > 0
}

func TestHTTPServersStreamableAndSSE(t *testing.T) {
	streamable := testservers.Behaviour(testservers.BehaviourOptions{})
	sse := testservers.Behaviour(testservers.BehaviourOptions{})
	streamLog := &headerLog{next: mcp.NewStreamableHTTPHandler(func(*http.Request) *mcp.Server { return streamable }, nil)}
	sseLog := &headerLog{next: mcp.NewSSEHandler(func(*http.Request) *mcp.Server { return sse }, nil)}
	streamSrv := httptest.NewServer(streamLog)
	sseSrv := httptest.NewServer(sseLog)
	// Registered before start: cleanups run last first, so the pool's
	// clients stop before the servers close.
	t.Cleanup(streamSrv.Close)
	t.Cleanup(sseSrv.Close)

	file := `{"mcpServers": {
		"remote": {"url": "` + streamSrv.URL + `", "headers": {"Authorization": "Bearer remote-token"}},
		"legacy": {"type": "sse", "url": "` + sseSrv.URL + `", "headers": {"Authorization": "Bearer sse-token"}}
	}}`
	servers, err := pool.ParseConfig([]byte(file))
	if err != nil {
		t.Fatal(err)
	}
	m := start(t, servers, pool.Options{})
	for _, server := range []string{"remote", "legacy"} {
		res, err := m.Call(context.Background(), "mcp__"+server+"__text", raw(`{}`))
		if err != nil || res.Value != "first\nsecond" {
			t.Fatalf("%s: %v %v; status %+v", server, res.Value, err, m.Status())
		}
		// list_changed arrives over HTTP too.
		if _, err := m.Call(context.Background(), "mcp__"+server+"__add_tool", raw(`{"name":"over_http"}`)); err != nil {
			t.Fatal(err)
		}
		waitFor(t, m, server+" refresh", has("mcp__"+server+"__over_http"))
	}
	// Streamable HTTP keeps the result bytes as sent, SSE re-encodes them.
	res, err := m.Call(context.Background(), "mcp__remote__structured", nil)
	if err != nil || string(res.JSON) != string(testservers.StructuredJSON) {
		t.Errorf("streamable structured JSON %s (%v)", res.JSON, err)
	}
	res, err = m.Call(context.Background(), "mcp__legacy__structured", nil)
	if err != nil || string(res.JSON) != `{"count":2,"items":["a","b"]}` {
		t.Errorf("SSE structured JSON %s (%v)", res.JSON, err)
	}
	// Streamable HTTP keeps the schema bytes as the server wrote them; the
	// legacy SSE transport gets the SDK's decoding (same JSON, keys sorted).
	structured, _ := m.Snapshot().Lookup("mcp__remote__structured")
	if string(structured.OutputSchema) != string(testservers.StructuredSchema) {
		t.Errorf("streamable outputSchema %s, want %s", structured.OutputSchema, testservers.StructuredSchema)
	}
	legacy, _ := m.Snapshot().Lookup("mcp__legacy__structured")
	var got, want any
	_ = json.Unmarshal(legacy.OutputSchema, &got)
	_ = json.Unmarshal(testservers.StructuredSchema, &want)
	if !reflect.DeepEqual(got, want) {
		t.Errorf("SSE outputSchema %s", legacy.OutputSchema)
	}
	if text, ok := m.Snapshot().Instructions("remote"); !ok || text != testservers.BehaviourInstructions {
		t.Errorf("instructions over HTTP: %q %v", text, ok)
	}
	if !streamLog.all("Bearer remote-token") || !sseLog.all("Bearer sse-token") {
		t.Errorf("configured headers not sent on every request: %v / %v", streamLog.seen, sseLog.seen)
	}
}
