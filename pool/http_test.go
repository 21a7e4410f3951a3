package pool_test

import (
	"context"
	"encoding/json"
	"errors"
	"net/http"
	"net/http/httptest"
	"reflect"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

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

// switchable serves the behaviour server over streamable HTTP while up, and
// refuses every request while down.
type switchable struct {
	up     atomic.Bool
	server *mcp.Server
	h      http.Handler
}

// switchableServer starts one, up, and returns it with its URL.
func switchableServer(t *testing.T) (*switchable, string) {
	sw := &switchable{server: testservers.Behaviour(testservers.BehaviourOptions{})}
	sw.h = mcp.NewStreamableHTTPHandler(func(*http.Request) *mcp.Server { return sw.server }, nil)
	sw.up.Store(true)
	hs := httptest.NewServer(sw)
	t.Cleanup(hs.Close)
	return sw, hs.URL
}

// endSessionsAfter ends, once m is closed, the server sessions the pool gave
// up while the server was down (their DELETE was refused).
func (s *switchable) endSessionsAfter(t *testing.T, m *pool.Manager) {
	t.Cleanup(func() {
		_ = m.Close()
		for ss := range s.server.Sessions() {
			_ = ss.Close()
		}
	})
}

func (s *switchable) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	if !s.up.Load() {
		http.Error(w, "down for maintenance", http.StatusServiceUnavailable)
		return
	}
	s.h.ServeHTTP(w, r)
}

func TestHTTPServerGoingAwayIsNoticedAndComesBack(t *testing.T) {
	sw, url := switchableServer(t)
	m := start(t, []pool.ServerConfig{{Name: "r", URL: url}, behaviourInMemory("b")}, pool.Options{})
	sw.endSessionsAfter(t, m)
	if _, err := m.Call(context.Background(), "mcp__r__text", raw(`{}`)); err != nil {
		t.Fatal(err)
	}

	sw.up.Store(false)
	// Over HTTP nothing tells the client; the first failed call does.
	_, err := m.Call(context.Background(), "mcp__r__text", raw(`{}`))
	var ce *pool.CallError
	if !errors.As(err, &ce) || ce.Kind != pool.KindConnectionLost ||
		err.Error() != `MCP tool "mcp__r__text" failed: its server "r" could not be reached.` {
		t.Fatalf("err = %v", err)
	}
	waitFor(t, m, "r withdrawn", hasNot("mcp__r__text"))
	if _, err := m.Call(context.Background(), "mcp__b__text", raw(`{}`)); err != nil {
		t.Fatalf("the other server: %v", err)
	}

	sw.up.Store(true)
	waitFor(t, m, "r back", has("mcp__r__text"))
	if _, err := m.Call(context.Background(), "mcp__r__text", raw(`{}`)); err != nil {
		t.Fatalf("after coming back: %v", err)
	}
}

func TestHTTPServerGoingAwayIsNoticedWithoutACall(t *testing.T) {
	sw, url := switchableServer(t)
	m := start(t, []pool.ServerConfig{{Name: "r", URL: url}}, pool.Options{PingInterval: 20 * time.Millisecond})
	sw.endSessionsAfter(t, m)
	sw.up.Store(false)
	waitFor(t, m, "r withdrawn by the ping", hasNot("mcp__r__text"))
	if st := statusOf(t, m, "r"); st.Err == nil || !strings.Contains(st.Err.Error(), "stopped answering") && !strings.Contains(st.Err.Error(), "connect") {
		t.Fatalf("status %+v", st)
	}
	sw.up.Store(true)
	waitFor(t, m, "r back", has("mcp__r__text"))
}
