package pool_test

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"strings"
	"sync"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/mcpexec/mcpexec/internal/testservers"
	"github.com/mcpexec/mcpexec/pool"
)

func TestORCH2_ValueIsStructuredElseTextElseNull(t *testing.T) {
	m := start(t, []pool.ServerConfig{behaviourInMemory("b")}, pool.Options{})
	cases := []struct {
		tool string
		want any
	}{
		{"mcp__b__structured", testservers.StructuredValue},
		{"mcp__b__text", "first\nsecond"},
		{"mcp__b__nothing", nil},
		// EDGE-19: an outputSchema without structuredContent gives the text.
		{"mcp__b__declared_text", "plain text instead"},
	}
	for _, c := range cases {
		t.Run(c.tool, func(t *testing.T) {
			res, err := m.Call(context.Background(), c.tool, raw(`{}`))
			if err != nil {
				t.Fatal(err)
			}
			if diff := cmp.Diff(c.want, res.Value); diff != "" {
				t.Errorf("value (-want +got):\n%s", diff)
			}
			if len(res.Images) != 0 {
				t.Errorf("images = %d, want none", len(res.Images))
			}
			var decoded any
			if err := json.Unmarshal(res.JSON, &decoded); err != nil || !cmp.Equal(c.want, decoded) {
				t.Errorf("JSON %s does not hold the value (%v)", res.JSON, err)
			}
		})
	}
}

func TestEDGE19_DeclaredOutputSchemaWithoutStructuredFallsBackToText(t *testing.T) {
	m := start(t, []pool.ServerConfig{behaviourInMemory("b")}, pool.Options{})
	tool, _ := m.Snapshot().Lookup("mcp__b__declared_text")
	if len(tool.OutputSchema) == 0 {
		t.Fatal("the tool must declare an outputSchema for this test")
	}
	res, err := m.Call(context.Background(), "mcp__b__declared_text", nil)
	if err != nil {
		t.Fatal(err)
	}
	if res.Value != "plain text instead" {
		t.Fatalf("value = %#v, want the text", res.Value)
	}
}

func TestEDGE20_ImagesOnlyGiveNullValueAndImagesBeside(t *testing.T) {
	m := start(t, []pool.ServerConfig{behaviourInMemory("b")}, pool.Options{})
	res, err := m.Call(context.Background(), "mcp__b__image", raw(`{}`))
	if err != nil {
		t.Fatal(err)
	}
	if res.Value != nil {
		t.Errorf("value = %#v, want nil", res.Value)
	}
	want := []pool.Image{{MIMEType: "image/png", Data: testservers.PNG}}
	if diff := cmp.Diff(want, res.Images); diff != "" {
		t.Errorf("images (-want +got):\n%s", diff)
	}
}

func TestORCH3_ArgumentsReachTheServerUntouched(t *testing.T) {
	m := start(t, []pool.ServerConfig{behaviourInMemory("b")}, pool.Options{})
	// Unknown keys, key order, nulls, big numbers, nesting: nothing renamed,
	// defaulted or validated on the way.
	args := `{"zeta":1,"Alpha":null,"x-y":{"b":[1,"2",false],"a":{}},"big":12345678901234567890,"s":"\u00e9\n"}`
	res, err := m.Call(context.Background(), "mcp__b__echo", raw(args))
	if err != nil {
		t.Fatal(err)
	}
	var got bytes.Buffer
	if err := json.Compact(&got, []byte(res.Value.(string))); err != nil {
		t.Fatalf("server got invalid JSON %q: %v", res.Value, err)
	}
	var want bytes.Buffer
	_ = json.Compact(&want, []byte(args))
	if got.String() != want.String() {
		t.Fatalf("server received %s, want %s", got.String(), want.String())
	}
}

func TestORCH3_MissingArgumentsSendAnEmptyObject(t *testing.T) {
	m := start(t, []pool.ServerConfig{behaviourInMemory("b")}, pool.Options{})
	res, err := m.Call(context.Background(), "mcp__b__echo", nil)
	if err != nil {
		t.Fatal(err)
	}
	if res.Value != "{}" {
		t.Fatalf("server received %q, want {}", res.Value)
	}
}

func TestFunnelToolErrorTextPassesThrough(t *testing.T) {
	m := start(t, []pool.ServerConfig{behaviourInMemory("b")}, pool.Options{})
	_, err := m.Call(context.Background(), "mcp__b__fail", raw(`{}`))
	var te *pool.ToolError
	if !errors.As(err, &te) || err.Error() != testservers.FailText {
		t.Fatalf("err = %v (%T), want the tool's own text %q", err, err, testservers.FailText)
	}
}

func TestFunnelProtocolErrorIsClear(t *testing.T) {
	m := start(t, []pool.ServerConfig{behaviourInMemory("b")}, pool.Options{})
	_, err := m.Call(context.Background(), "mcp__b__protocol_error", raw(`{}`))
	var ce *pool.CallError
	if !errors.As(err, &ce) || ce.Kind != pool.KindProtocol {
		t.Fatalf("err = %v (%T), want a protocol CallError", err, err)
	}
	want := `MCP tool "mcp__b__protocol_error" failed: the server answered with an error: bad request from the test`
	if err.Error() != want {
		t.Fatalf("message = %q, want %q", err.Error(), want)
	}
}

// gate records what it was asked and refuses one tool.
type gate struct {
	mu    sync.Mutex
	asked []string
	deny  string
}

func (g *gate) Admit(_ context.Context, name string, args json.RawMessage) error {
	g.mu.Lock()
	defer g.mu.Unlock()
	g.asked = append(g.asked, name+" "+string(args))
	if name == g.deny {
		return errors.New("Permission to use " + name + " was denied by the user.")
	}
	return nil
}

func TestNFR3_CONV8_EveryCallPassesTheGateFirst(t *testing.T) {
	g := &gate{deny: "mcp__b__echo"}
	m := start(t, []pool.ServerConfig{behaviourInMemory("b")}, pool.Options{Gate: g})
	if _, err := m.Call(context.Background(), "mcp__b__text", raw(`{"a":1}`)); err != nil {
		t.Fatal(err)
	}
	_, err := m.Call(context.Background(), "mcp__b__echo", raw(`{}`))
	var ce *pool.CallError
	if !errors.As(err, &ce) || ce.Kind != pool.KindDenied || !strings.Contains(err.Error(), "denied by the user") {
		t.Fatalf("err = %v, want the gate's refusal", err)
	}
	// A name that is not in the pool never reaches the gate.
	if _, err := m.Call(context.Background(), "mcp__b__nope", raw(`{}`)); err == nil {
		t.Fatal("unknown tool succeeded")
	}
	want := []string{`mcp__b__text {"a":1}`, `mcp__b__echo {}`}
	if diff := cmp.Diff(want, g.asked); diff != "" {
		t.Fatalf("gate calls (-want +got):\n%s", diff)
	}
}

func TestCONV6_EDGE27_ExcludedToolIsNeitherListedNorCallable(t *testing.T) {
	exclude := func(name string) bool { return name == "mcp__b__text" }
	g := &gate{}
	m := start(t, []pool.ServerConfig{behaviourInMemory("b")}, pool.Options{Exclude: exclude, Gate: g})
	if _, ok := m.Snapshot().Lookup("mcp__b__text"); ok {
		t.Fatal("excluded tool is in the pool")
	}
	_, err := m.Call(context.Background(), "mcp__b__text", raw(`{}`))
	var ce *pool.CallError
	if !errors.As(err, &ce) || ce.Kind != pool.KindUnknownTool {
		t.Fatalf("err = %v, want unknown tool", err)
	}
	// EDGE-27: an excluded tool's call never reaches the host's gate.
	if len(g.asked) != 0 {
		t.Fatalf("the gate was asked about %v", g.asked)
	}
	m.SetExclude(nil)
	if _, err := m.Call(context.Background(), "mcp__b__text", raw(`{}`)); err != nil {
		t.Fatalf("after lifting the exclusion: %v", err)
	}
}

func TestEDGE3_ToolRemovedAfterSnapshotFailsWithReason(t *testing.T) {
	m := start(t, []pool.ServerConfig{behaviourInMemory("b")}, pool.Options{})
	if _, err := m.Call(context.Background(), "mcp__b__add_tool", raw(`{"name":"late"}`)); err != nil {
		t.Fatal(err)
	}
	catalog := waitFor(t, m, "late tool", has("mcp__b__late"))
	if _, err := m.Call(context.Background(), "mcp__b__remove_tool", raw(`{"name":"late"}`)); err != nil {
		t.Fatal(err)
	}
	waitFor(t, m, "late tool gone", hasNot("mcp__b__late"))
	if _, ok := catalog.Lookup("mcp__b__late"); !ok {
		t.Fatal("an older snapshot must not change")
	}
	_, err := m.Call(context.Background(), "mcp__b__late", raw(`{}`))
	want := `MCP tool "mcp__b__late" is not in the current tool pool; it may have been removed since the tool list was shown.`
	if err == nil || err.Error() != want {
		t.Fatalf("err = %v, want %q", err, want)
	}
}

func TestFunnelHangingCallEndsWithCallersContext(t *testing.T) {
	m := start(t, []pool.ServerConfig{behaviourInMemory("b"), behaviourInMemory("other")}, pool.Options{})
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan error, 1)
	go func() {
		_, err := m.Call(ctx, "mcp__b__hang", raw(`{}`))
		done <- err
	}()
	// The other server and the same server keep answering meanwhile.
	for _, name := range []string{"mcp__other__text", "mcp__b__text"} {
		if _, err := m.Call(context.Background(), name, raw(`{}`)); err != nil {
			t.Fatalf("%s during a hanging call: %v", name, err)
		}
	}
	cancel()
	err := <-done
	var ce *pool.CallError
	if !errors.As(err, &ce) || ce.Kind != pool.KindCancelled || !errors.Is(err, context.Canceled) {
		t.Fatalf("err = %v, want cancelled", err)
	}
	if err.Error() != `MCP tool "mcp__b__hang" was cancelled before it finished.` {
		t.Fatalf("message = %q", err.Error())
	}
	ctx, cancel = context.WithTimeout(context.Background(), 1)
	defer cancel()
	_, err = m.Call(ctx, "mcp__b__hang", raw(`{}`))
	if err == nil || !errors.Is(err, context.DeadlineExceeded) {
		t.Fatalf("err = %v, want deadline exceeded", err)
	}
}

func TestORCH2_StructuredContentReachesTheCallerAsSent(t *testing.T) {
	m := start(t, []pool.ServerConfig{behaviourInMemory("b")}, pool.Options{})
	res, err := m.Call(context.Background(), "mcp__b__structured", nil)
	if err != nil {
		t.Fatal(err)
	}
	if string(res.JSON) != string(testservers.StructuredJSON) {
		t.Fatalf("JSON = %s, want the server's bytes %s", res.JSON, testservers.StructuredJSON)
	}
}

func TestSchemasKeepTheServersKeyOrder(t *testing.T) {
	m := start(t, []pool.ServerConfig{behaviourInMemory("b")}, pool.Options{})
	tool, _ := m.Snapshot().Lookup("mcp__b__structured")
	if string(tool.OutputSchema) != string(testservers.StructuredSchema) {
		t.Fatalf("outputSchema %s, want %s", tool.OutputSchema, testservers.StructuredSchema)
	}
}

// waitingGate holds every call until the caller gives up, as a permission
// prompt nobody answers.
type waitingGate struct{ asked chan struct{} }

func (g waitingGate) Admit(ctx context.Context, _ string, _ json.RawMessage) error {
	g.asked <- struct{}{}
	<-ctx.Done()
	return ctx.Err()
}

func TestCallerGivingUpAtTheGateIsACancellation(t *testing.T) {
	g := waitingGate{asked: make(chan struct{}, 1)}
	m := start(t, []pool.ServerConfig{behaviourInMemory("b")}, pool.Options{Gate: g})
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan error, 1)
	go func() {
		_, err := m.Call(ctx, "mcp__b__text", raw(`{}`))
		done <- err
	}()
	<-g.asked
	cancel()
	err := <-done
	var ce *pool.CallError
	if !errors.As(err, &ce) || ce.Kind != pool.KindCancelled || err.Error() != `MCP tool "mcp__b__text" was cancelled before it finished.` {
		t.Fatalf("err = %v", err)
	}
}
