package gateway

import (
	"context"
	"encoding/json"
	"errors"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/mcpexec/mcpexec"
	"github.com/mcpexec/mcpexec/exectool"
	"github.com/mcpexec/mcpexec/internal/testservers"
	"github.com/mcpexec/mcpexec/pool"
	"github.com/mcpexec/mcpexec/sandbox"
)

const allowB = `{"permissions": {"allow": ["mcp__b"]}}`

// The gateway offers one tool, Exec: the library's description pointing at
// the catalog that follows it, the catalog itself and the servers' usage
// instructions; a multi-call script runs and its images reach the client.
func TestExecIsOfferedWithTheCatalogInItsDescription(t *testing.T) {
	f := start(t, allowB, mcpexec.Options{})
	c := f.connect(t, nil)
	tools := c.tools(t)
	if len(tools) != 1 || tools["Exec"] == nil {
		t.Fatalf("tools = %v, want Exec alone", slices.Collect(mapsKeys(tools)))
	}
	desc := tools["Exec"].Description
	want := f.sys.DeclarationsWithCatalog(mcpexec.DeclareOptions{})[0].Description
	if desc != want {
		t.Errorf("description differs from the System's:\n%s\n---\n%s", desc, want)
	}
	for _, part := range []string{"listed in the MCP tool catalog below", "mcp__b__echo", testservers.BehaviourInstructions} {
		if !strings.Contains(desc, part) {
			t.Errorf("description lacks %q:\n%s", part, desc)
		}
	}
	if strings.Contains(desc, "catalog messages in the conversation") {
		t.Errorf("description points at catalog messages a client never gets:\n%s", desc)
	}
	var wantSchema any
	if err := json.Unmarshal(exectool.InputSchema(), &wantSchema); err != nil {
		t.Fatal(err)
	}
	if diff := cmp.Diff(wantSchema, tools["Exec"].InputSchema); diff != "" {
		t.Errorf("input schema differs from the library's (-want +got):\n%s", diff)
	}

	res, err := c.CallTool(context.Background(), &mcp.CallToolParams{Name: "Exec", Arguments: map[string]string{"code": `
		const s = await tools.mcp__b__structured({});
		await tools.mcp__b__image({});
		return s.items.join("+");`}})
	if err != nil {
		t.Fatal(err)
	}
	if res.IsError || !strings.Contains(firstText(res), "a+b") {
		t.Fatalf("result isError=%v %q, want the joined items", res.IsError, firstText(res))
	}
	if len(res.Content) != 2 {
		t.Fatalf("content has %d parts, want the text and one image", len(res.Content))
	}
	if img, ok := res.Content[1].(*mcp.ImageContent); !ok || img.MIMEType != "image/png" || string(img.Data) != string(testservers.PNG) {
		t.Errorf("second part %#v, want the server's PNG", res.Content[1])
	}
}

func mapsKeys(m map[string]*mcp.Tool) func(func(string) bool) {
	return func(yield func(string) bool) {
		for k := range m {
			if !yield(k) {
				return
			}
		}
	}
}

// A failing script is an isError result carrying the library's failure
// text, never a protocol error.
func TestAFailedScriptIsAnErrorResult(t *testing.T) {
	f := start(t, allowB, mcpexec.Options{})
	c := f.connect(t, nil)
	text, isError := c.exec(t, context.Background(), `throw new Error("boom")`, nil)
	if !isError || !strings.Contains(text, "boom") {
		t.Errorf("result isError=%v %q, want a failure naming boom", isError, text)
	}
}

// Proves CAT-8 for the catalog the gateway carries: while the pool does not
// change, the offered bytes do not either and no list_changed is sent (a
// settings change that leaves the pool alone included); when a server's
// tools change, clients are told once and read the new catalog.
func TestCAT8_ListChangedOnlyWhenTheCatalogChanges(t *testing.T) {
	f := start(t, allowB, mcpexec.Options{})
	c := f.connect(t, nil)
	before := c.tools(t)["Exec"].Description

	if n := f.gw.refresh(); n != 0 {
		t.Errorf("refresh with an unchanged pool offered %d tools again, want 0", n)
	}
	// An ask rule changes the settings, not the pool. It has landed once
	// echo needs a question this client cannot be asked.
	writeSettings(t, f.settings, `{"permissions": {"allow": ["mcp__b"], "ask": ["mcp__b__echo"]}}`)
	eventually(t, "the ask rule to apply", func() bool {
		_, isError := c.exec(t, context.Background(), `return await tools.mcp__b__echo({})`, nil)
		return isError
	})
	if n := f.gw.refresh(); n != 0 {
		t.Errorf("refresh after an ask rule was added offered %d tools again, want 0", n)
	}
	if n := c.listChangedCount(); n != 0 {
		t.Fatalf("%d list_changed notifications for an unchanged pool", n)
	}

	if text, isError := c.exec(t, context.Background(), `return await tools.mcp__b__add_tool({name: "fresh"})`, nil); isError {
		t.Fatalf("add_tool failed: %s", text)
	}
	select {
	case <-c.changed:
	case <-time.After(waitLimit):
		t.Fatal("no list_changed after the pool changed")
	}
	after := c.tools(t)["Exec"].Description
	if after == before || !strings.Contains(after, "mcp__b__fresh") {
		t.Errorf("description after the change does not list mcp__b__fresh:\n%s", after)
	}
	if n := f.gw.refresh(); n != 0 {
		t.Errorf("refresh after the change was offered offered %d tools again, want 0", n)
	}
}

// Proves SUM-4 through the gateway: with a progress token, every nested
// call sends a progress notification carrying the live summary, before the
// result.
func TestSUM4_ProgressNotificationPerNestedCall(t *testing.T) {
	f := start(t, allowB, mcpexec.Options{})
	c := f.connect(t, nil)
	text, isError := c.exec(t, context.Background(), `
		await tools.mcp__b__echo({n: 1});
		await tools.mcp__b__text({});
		await tools.mcp__b__nothing({});
		return "done";`, "tok-1")
	if isError {
		t.Fatalf("script failed: %s", text)
	}
	// Sent before the result, but the SDK's client hands notifications to
	// their handler on a goroutine of their own: wait until all are heard.
	var got []*mcp.ProgressNotificationParams
	eventually(t, "the three progress notifications", func() bool {
		c.mu.Lock()
		defer c.mu.Unlock()
		got = slices.Clone(c.progress)
		return len(got) >= 3
	})
	var messages []string
	for i, p := range got {
		if p.ProgressToken != "tok-1" {
			t.Errorf("notification %d has token %v", i, p.ProgressToken)
		}
		if p.Progress != float64(i+1) {
			t.Errorf("notification %d has progress %v, want %d", i, p.Progress, i+1)
		}
		messages = append(messages, p.Message)
	}
	want := []string{
		"1 tool call: mcp__b__echo",
		"2 tool calls: mcp__b__echo, mcp__b__text",
		"... 3 tool calls: mcp__b__text, mcp__b__nothing",
	}
	if !slices.Equal(messages, want) {
		t.Errorf("progress messages\n%q\nwant\n%q", messages, want)
	}
}

// Proves BUDGET-8 through the gateway: cancelling the request aborts the
// script. The sandbox has one worker, so the next script can only run once
// the first one is really gone, long before its own budget ends.
func TestBUDGET8_CancellingTheRequestAbortsTheScript(t *testing.T) {
	blocker, started := blockingServer()
	f := start(t, `{"permissions": {"allow": ["mcp__w"]}}`, mcpexec.Options{
		Servers: []pool.ServerConfig{{Name: "w", Dial: testservers.DialInMemory(blocker)}},
		Limits:  sandbox.Limits{Timeout: 10 * time.Minute},
		Workers: sandbox.WorkerOptions{MaxWorkers: 1},
	})
	c := f.connect(t, nil)
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan error, 1)
	go func() {
		_, err := c.CallTool(ctx, &mcp.CallToolParams{Name: "Exec", Arguments: map[string]string{"code": `await tools.mcp__w__wait({}); return "finished";`}})
		done <- err
	}()
	<-started
	cancel()
	if err := <-done; !errors.Is(err, context.Canceled) {
		t.Fatalf("cancelled call returned %v", err)
	}
	text, isError := c.exec(t, context.Background(), `return "next"`, nil)
	if isError || !strings.Contains(text, "next") {
		t.Errorf("the next script: isError=%v %q", isError, text)
	}
}

// With enableExec off the gateway serves the pool's tools flat, and they
// run through the same funnel; a result is the server's own.
func TestFlatToolsWhenExecIsOff(t *testing.T) {
	f := start(t, `{"enableExec": false, "permissions": {"allow": ["mcp__b"]}}`, mcpexec.Options{})
	c := f.connect(t, nil)
	tools := c.tools(t)
	if tools["Exec"] != nil || tools["mcp__b__echo"] == nil {
		t.Fatalf("tools = %v, want the flat MCP tools", slices.Sorted(mapsKeys(tools)))
	}
	res, err := c.CallTool(context.Background(), &mcp.CallToolParams{Name: "mcp__b__text", Arguments: map[string]any{}})
	if err != nil {
		t.Fatal(err)
	}
	// The result is the server's: its two text parts, in order.
	var parts []string
	for _, c := range res.Content {
		if tc, ok := c.(*mcp.TextContent); ok {
			parts = append(parts, tc.Text)
		}
	}
	if res.IsError || len(res.Content) != 2 || !slices.Equal(parts, []string{"first", "second"}) {
		t.Errorf("flat call: isError=%v %q, want the server's two parts", res.IsError, parts)
	}

	// Switching Exec on again is a change clients hear of.
	writeSettings(t, f.settings, allowB)
	select {
	case <-c.changed:
	case <-time.After(waitLimit):
		t.Fatal("no list_changed after Exec was switched on")
	}
	eventually(t, "Exec to be offered", func() bool { return c.tools(t)["Exec"] != nil })
}
