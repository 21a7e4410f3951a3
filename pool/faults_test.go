package pool_test

import (
	"context"
	"encoding/json"
	"errors"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/rs/zerolog"

	"github.com/mcpexec/mcpexec/internal/fixtures"
	"github.com/mcpexec/mcpexec/internal/testkit"
	"github.com/mcpexec/mcpexec/internal/testservers"
	"github.com/mcpexec/mcpexec/pool"
	"github.com/modelcontextprotocol/go-sdk/mcp"
)

func replayOf(t *testing.T, fixture string) *testservers.Replay {
	t.Helper()
	fx, err := fixtures.Load(fixture)
	if err != nil {
		t.Fatal(err)
	}
	r := &testservers.Replay{}
	for _, tool := range fx.Tools {
		r.Tools = append(r.Tools, tool.Raw)
	}
	if fx.Instructions != nil {
		r.Instructions = *fx.Instructions
	}
	return r
}

func TestPaginatedListKeepsEveryEntryAsListed(t *testing.T) {
	r := replayOf(t, "lark-all")
	r.PageSize = 7
	// Paging through every page is slow on a loaded machine; this test is
	// about what the pages hold, not how long they take.
	m := start(t, []pool.ServerConfig{{Name: "lark", Dial: r.Dial}}, pool.Options{ConnectTimeout: patience, ListTimeout: patience})
	fx, _ := fixtures.Load("lark-all")
	snap := m.Snapshot()
	if snap.Len() != len(fx.Tools) {
		t.Fatalf("got %d tools, want %d; status %+v", snap.Len(), len(fx.Tools), m.Status())
	}
	if r.Lists() != (len(fx.Tools)+6)/7 {
		t.Fatalf("served %d pages, want %d", r.Lists(), (len(fx.Tools)+6)/7)
	}
	for _, want := range fx.Tools {
		got, _ := snap.Lookup("mcp__lark__" + want.Name)
		if compact(t, got.InputSchema) != compact(t, want.InputSchema) {
			t.Fatalf("%s: schema not kept as listed", want.Name)
		}
	}
}

func TestMalformedSchemasOfGitlabLegacyAreKept(t *testing.T) {
	// Every inputSchema is only {"$schema": ...}. The TypeScript SDK
	// rejects the whole list; the Go SDK client accepts it, so the tools
	// join the pool exactly as listed and stay callable.
	r := replayOf(t, "gitlab-legacy-npm")
	m := start(t, []pool.ServerConfig{{Name: "gitlab", Dial: r.Dial}, behaviourInMemory("b")}, pool.Options{})
	fx, _ := fixtures.Load("gitlab-legacy-npm")
	snap := m.Snapshot()
	if got := len(snap.Tools()); got != len(fx.Tools)+11 {
		t.Fatalf("pool has %d tools: %v", got, names(snap))
	}
	for _, want := range fx.Tools {
		got, ok := snap.Lookup("mcp__gitlab__" + want.Name)
		if !ok || compact(t, got.InputSchema) != compact(t, want.InputSchema) {
			t.Fatalf("%s: %s", want.Name, got.InputSchema)
		}
		if !strings.Contains(string(got.InputSchema), `"$schema"`) || strings.Contains(string(got.InputSchema), `"type"`) {
			t.Fatalf("%s: not the recorded malformed schema: %s", want.Name, got.InputSchema)
		}
	}
	res, err := m.Call(context.Background(), "mcp__gitlab__"+fx.Tools[0].Name, raw(`{"project_id":"1"}`))
	if err != nil || res.Value != "called "+fx.Tools[0].Name {
		t.Fatalf("call: %v %v", res.Value, err)
	}
}

func TestUnreadableToolsListFailsOnlyThatServer(t *testing.T) {
	broken := &testservers.Replay{ListResult: json.RawMessage(`{"tools":[{"name":5,"inputSchema":{}}]}`)}
	m := start(t, []pool.ServerConfig{{Name: "broken", Dial: broken.Dial}, behaviourInMemory("b")}, pool.Options{})
	st := statusOf(t, m, "broken")
	if st.State != pool.StateRetrying || st.Err == nil || !strings.Contains(st.Err.Error(), "tools/list") {
		t.Fatalf("broken: %+v", st)
	}
	if _, err := m.Call(context.Background(), "mcp__b__text", raw(`{}`)); err != nil {
		t.Fatalf("the other server: %v", err)
	}
	for _, n := range names(m.Snapshot()) {
		if strings.HasPrefix(n, "mcp__broken__") {
			t.Fatalf("broken server contributed %s", n)
		}
	}
}

func TestToolsTheSDKRejectsAreLeftOutAlone(t *testing.T) {
	// An x-mcp-header on an object property is invalid; the SDK drops that
	// tool and keeps its neighbours, and so does the pool.
	r := &testservers.Replay{Tools: []json.RawMessage{
		json.RawMessage(`{"name":"good","inputSchema":{"type":"object"}}`),
		json.RawMessage(`{"name":"bad","inputSchema":{"type":"object","properties":{"o":{"type":"object","x-mcp-header":"X-O"}}}}`),
		json.RawMessage(`{"name":"odd","inputSchema":"not a schema"}`),
	}}
	logs := &testkit.SyncBuffer{}
	m := start(t, []pool.ServerConfig{{Name: "r", Dial: r.Dial}}, pool.Options{Logger: zerolog.New(logs)})
	got := names(m.Snapshot())
	if strings.Join(got, ",") != "mcp__r__good,mcp__r__odd" {
		t.Fatalf("pool = %v", got)
	}
	// The SDK's reason reaches the pool's log.
	if !strings.Contains(logs.String(), `"tool":"bad"`) || !strings.Contains(logs.String(), "x-mcp-header") {
		t.Errorf("log does not say why bad was dropped:\n%s", logs.String())
	}
	odd, _ := m.Snapshot().Lookup("mcp__r__odd")
	if string(odd.InputSchema) != `"not a schema"` {
		t.Fatalf("odd schema = %s", odd.InputSchema)
	}
}

func TestListChangedFloodCoalescesAndConverges(t *testing.T) {
	r := &testservers.Replay{Tools: []json.RawMessage{json.RawMessage(`{"name":"v1","inputSchema":{"type":"object"}}`)}}
	m := start(t, []pool.ServerConfig{{Name: "flood", Dial: r.Dial}, behaviourInMemory("b")}, pool.Options{})
	done := make(chan struct{})
	go func() {
		defer close(done)
		r.Flood(5000)
	}()
	for range 20 {
		if _, err := m.Call(context.Background(), "mcp__b__text", raw(`{}`)); err != nil {
			t.Fatalf("call during a flood: %v", err)
		}
	}
	<-done
	r.SetTools([]json.RawMessage{json.RawMessage(`{"name":"v2","inputSchema":{"type":"object"}}`)})
	r.Flood(1)
	snap := waitFor(t, m, "the last change", has("mcp__flood__v2"))
	if _, ok := snap.Lookup("mcp__flood__v1"); ok {
		t.Fatal("stale tool kept")
	}
	if st := statusOf(t, m, "flood"); st.State != pool.StateConnected || st.Connects != 1 {
		t.Fatalf("flooded server: %+v", st)
	}
	t.Logf("5001 list_changed notifications caused %d tools/list requests", r.Lists())
}

func TestEDGE2_CONV7_ServersJoiningAndLeavingChangeThePool(t *testing.T) {
	r := &testservers.Replay{Tools: []json.RawMessage{json.RawMessage(`{"name":"late","inputSchema":{"type":"object"}}`)}}
	var up atomic.Bool
	var dialed atomic.Pointer[mcp.Transport]
	dial := func(ctx context.Context) (mcp.Transport, error) {
		if !up.Load() {
			return nil, errors.New("not up yet")
		}
		tr, err := r.Dial(ctx)
		dialed.Store(&tr)
		return tr, err
	}
	m := start(t, []pool.ServerConfig{{Name: "late", Dial: dial}, behaviourInMemory("b")}, pool.Options{})
	before := m.Snapshot()
	if _, ok := before.Lookup("mcp__late__late"); ok {
		t.Fatal("server not up yet, but its tool is in the pool")
	}
	changes, cancel := m.Subscribe()
	defer cancel()
	up.Store(true)
	<-changes // a subscriber hears of the change
	after := waitFor(t, m, "late server", has("mcp__late__late"))
	if _, err := m.Call(context.Background(), "mcp__late__late", raw(`{}`)); err != nil {
		t.Fatalf("a server that just connected must be callable: %v", err)
	}
	if _, ok := before.Lookup("mcp__late__late"); ok || after.Version() <= before.Version() {
		t.Fatal("snapshots must be immutable and versioned")
	}
	// It leaves: its connection closes and it cannot come back.
	up.Store(false)
	r.DisconnectAll()
	waitFor(t, m, "late server gone", hasNot("mcp__late__late"))
	_, err := m.Call(context.Background(), "mcp__late__late", raw(`{}`))
	var ce *pool.CallError
	if !errors.As(err, &ce) || ce.Kind != pool.KindServerDown {
		t.Fatalf("err = %v, want server down", err)
	}
}

func TestEDGE17_FunnelRoutesByLookupNotBySplit(t *testing.T) {
	odd := &testservers.Replay{Tools: []json.RawMessage{json.RawMessage(`{"name":"x","inputSchema":{"type":"object"}}`)}}
	plain := &testservers.Replay{Tools: []json.RawMessage{json.RawMessage(`{"name":"y","inputSchema":{"type":"object"}}`)}}
	m := start(t, []pool.ServerConfig{{Name: "a__b", Dial: odd.Dial}, {Name: "a", Dial: plain.Dial}}, pool.Options{})
	// Split routing would send this to server "a" as tool "b__x".
	res, err := m.Call(context.Background(), "mcp__a__b__x", raw(`{}`))
	if err != nil || res.Value != "called x" {
		t.Fatalf("mcp__a__b__x: %v %v", res.Value, err)
	}
	if pool.GroupKey("mcp__a__b__x") != "a" {
		t.Fatal("grouping key must stay split(\"__\")[1]")
	}
}

func TestServerThatNeverAnswersToolsListFailsAlone(t *testing.T) {
	stalled := &testservers.Replay{StallList: true}
	// Only the stalled server gets a short timeout: its tools/list is bounded
	// by it (the list timeout is at least the server's connect timeout),
	// while b's generous one keeps a loaded machine from failing b too.
	b := behaviourInMemory("b")
	b.ConnectTimeout = patience
	m := start(t, []pool.ServerConfig{{Name: "stalled", Dial: stalled.Dial, ConnectTimeout: 50 * time.Millisecond}, b},
		pool.Options{ListTimeout: 50 * time.Millisecond})
	st := statusOf(t, m, "stalled")
	if st.State != pool.StateRetrying || !errors.Is(st.Err, context.DeadlineExceeded) {
		t.Fatalf("stalled: %+v", st)
	}
	waitFor(t, m, "the other server", has("mcp__b__text"))
	if _, err := m.Call(context.Background(), "mcp__b__text", raw(`{}`)); err != nil {
		t.Fatalf("the other server: %v", err)
	}
}

func TestReadyEvenWhenStoppedDuringTheFirstAttempt(t *testing.T) {
	stalled := &testservers.Replay{StallList: true}
	ctx, cancel := context.WithCancel(context.Background())
	m, err := pool.New(ctx, []pool.ServerConfig{{Name: "stalled", Dial: stalled.Dial}}, pool.Options{})
	if err != nil {
		t.Fatal(err)
	}
	cancel()
	<-m.Ready()
	if err := m.Close(); err != nil {
		t.Fatal(err)
	}
}

func TestCircularPaginationFailsThatServerAlone(t *testing.T) {
	circular := replayOf(t, "memory")
	circular.PageSize, circular.CircularCursor = 4, true
	m := start(t, []pool.ServerConfig{{Name: "circular", Dial: circular.Dial}, behaviourInMemory("b")}, pool.Options{})
	st := statusOf(t, m, "circular")
	if st.State != pool.StateRetrying || st.Err == nil || !strings.Contains(st.Err.Error(), "circle") {
		t.Fatalf("circular: %+v", st)
	}
	if _, err := m.Call(context.Background(), "mcp__b__text", raw(`{}`)); err != nil {
		t.Fatal(err)
	}
}
