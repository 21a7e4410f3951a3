package gateway

import (
	"context"
	"strings"
	"testing"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/mcpexec/mcpexec"
	"github.com/mcpexec/mcpexec/state"
)

// Each session is a conversation of its own: what its scripts store, and
// the results it keeps by reference, are its own; a result the session had
// to drop to make room says so when read; a session's state goes with it.
func TestEachSessionHasItsOwnState(t *testing.T) {
	f := start(t, `{"permissions": {"allow": ["mcp__b"]}}`, mcpexec.Options{})
	f.gw.Close() // replaced by one with small results, closed at cleanup by start
	f.gw = New(f.sys, Options{State: state.Limits{MaxResultBytes: 300 << 10}})
	ctx := context.Background()
	a, b := f.connect(t, nil), f.connect(t, nil)

	if text, isError := a.exec(t, ctx, `store("k", {n: 1}); return "ok"`, nil); isError || text != "ok" {
		t.Fatalf("store: %v %q", isError, text)
	}
	if text, _ := a.exec(t, ctx, `return load("k").n`, nil); text != "1" {
		t.Errorf("the same session loads %q, want 1", text)
	}
	if text, _ := b.exec(t, ctx, `return load("k") === undefined`, nil); text != "true" {
		t.Errorf("another session loads the key: %q", text)
	}

	link := func(c *client, code string) *mcp.ResourceLink {
		t.Helper()
		res, err := c.CallTool(ctx, &mcp.CallToolParams{Name: "Exec", Arguments: map[string]string{"code": code}})
		if err != nil || res.IsError || len(res.Content) != 2 {
			t.Fatalf("Exec of a large result: %v, %+v", err, res)
		}
		l, ok := res.Content[1].(*mcp.ResourceLink)
		if !ok {
			t.Fatalf("second item %T, want a resource link", res.Content[1])
		}
		return l
	}
	first := link(a, `return "x".repeat(200000)`)
	if first.URI != "mcpexec://results/r1" || first.Size == nil || *first.Size != 200000 || first.MIMEType != "text/plain" ||
		first.Meta[ShapeMetaKey] != "text" {
		t.Errorf("link %+v", first)
	}
	read, err := a.ReadResource(ctx, &mcp.ReadResourceParams{URI: first.URI})
	if err != nil || len(read.Contents) != 1 || len(read.Contents[0].Text) != 200000 {
		t.Fatalf("reading the link: %v", err)
	}
	if _, err := b.ReadResource(ctx, &mcp.ReadResourceParams{URI: first.URI}); err == nil {
		t.Error("another session read the result")
	}

	// A second result of 200 KB leaves no room for the first.
	second := link(a, `return Array.from({length: 20000}, (_, i) => ({ i: i % 10 }))`)
	if second.URI != "mcpexec://results/r2" || second.MIMEType != "application/json" || second.Meta[ShapeMetaKey] != "{ i: number }[]" {
		t.Errorf("second link %+v", second)
	}
	if _, err := a.ReadResource(ctx, &mcp.ReadResourceParams{URI: first.URI}); err == nil || !strings.Contains(err.Error(), "dropped to make room") {
		t.Errorf("reading a dropped result: %v", err)
	}
	if text, _ := a.exec(t, ctx, `return [load("r1") === undefined, load("r2").length]`, nil); text != "[true,20000]" {
		t.Errorf("after the drop: %q", text)
	}

	if err := a.Close(); err != nil {
		t.Fatal(err)
	}
	eventually(t, "the closed session's state forgotten", func() bool {
		f.gw.states.mu.Lock()
		defer f.gw.states.mu.Unlock()
		return len(f.gw.states.sessions) == 1
	})
}
