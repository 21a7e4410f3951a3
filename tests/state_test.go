package tests

import (
	"context"
	"strings"
	"syscall"
	"testing"

	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// execOver calls Exec over cs and fails the test on a protocol error.
func execOver(t *testing.T, cs *mcp.ClientSession, code string) *mcp.CallToolResult {
	t.Helper()
	res, err := cs.CallTool(context.Background(), &mcp.CallToolParams{Name: "Exec", Arguments: map[string]string{"code": code}})
	if err != nil {
		t.Fatalf("Exec: %v", err)
	}
	return res
}

// alphabet is the 200,000-character text the scripts below return.
const alphabetScript = `Array.from({length: 200000}, (_, i) => String.fromCharCode(97 + i % 26)).join("")`

func alphabet(n int) string {
	var b strings.Builder
	for i := 0; i < n; i++ {
		b.WriteByte(byte('a' + i%26))
	}
	return b.String()
}

// State across Execs and results by reference, through `mcpexec serve`
// over streamable HTTP with the official Go SDK's client, two sessions at
// once (protocol 2025-11-25, which has sessions): a value stored in one Exec is loaded in the next of the same
// session and by no other session; past the bound a store throws a
// catchable error naming it; a 200,000-character result comes back as the
// capped text plus a resource_link whose resources/read returns all of it,
// the session's next script loads it by the link's id, and the other
// session can neither read nor load it.
func TestStateAndResultsByReferenceThroughServe(t *testing.T) {
	mark := newRunMark(t)
	g := startHTTPGatewayWith(t, mark, nil, "--state-mb", "1")
	a, b := g.connectAs(t, "e2e", "2025-11-25"), g.connectAs(t, "e2e", "2025-11-25")
	ctx := context.Background()

	res := execOver(t, a, `const f = await tools.mcp__srv__fetch({id: 2}); store("doc", f); return f.title;`)
	if res.IsError {
		t.Fatalf("storing Exec failed: %s", contentText(res))
	}
	title := contentText(res)
	if res = execOver(t, a, `return load("doc").title`); res.IsError || contentText(res) != title {
		t.Errorf("the next Exec of the session loads %q, want %q", contentText(res), title)
	}
	if res = execOver(t, b, `return load("doc") === undefined`); res.IsError || contentText(res) != "true" {
		t.Errorf("another session loads the key: %q", contentText(res))
	}
	res = execOver(t, a, `try { store("big", "x".repeat(2 * 1024 * 1024)); return "stored" } catch (e) { return e.message }`)
	if res.IsError || !strings.Contains(contentText(res), "1 MiB") {
		t.Errorf("a store past the bound: %q, want a caught error naming 1 MiB", contentText(res))
	}

	res = execOver(t, a, `return `+alphabetScript)
	if res.IsError || len(res.Content) != 2 {
		t.Fatalf("large result: isError=%v, %d content items", res.IsError, len(res.Content))
	}
	text := contentText(res)
	if !strings.HasPrefix(text, alphabet(40000)+"\n[return value truncated: 200000 characters in all;") || len(text) > 41000 {
		t.Errorf("the text is not the capped first part and its note (%d characters)", len(text))
	}
	link, ok := res.Content[1].(*mcp.ResourceLink)
	if !ok || !strings.HasPrefix(link.URI, "mcpexec://results/") || link.Name == "" || link.Size == nil || *link.Size != 200000 ||
		!strings.Contains(link.Description, "observed shape: text") {
		t.Fatalf("second item %#v, want a resource_link with its size and shape", res.Content[1])
	}
	id := strings.TrimPrefix(link.URI, "mcpexec://results/")
	if !strings.Contains(text, `load("`+id+`")`) {
		t.Errorf("the text does not name the link's id %q", id)
	}
	read, err := a.ReadResource(ctx, &mcp.ReadResourceParams{URI: link.URI})
	if err != nil || len(read.Contents) != 1 || read.Contents[0].Text != alphabet(200000) || read.Contents[0].MIMEType != "text/plain" {
		t.Fatalf("resources/read of the link: %v", err)
	}
	if res = execOver(t, a, `return load("`+id+`").length`); res.IsError || contentText(res) != "200000" {
		t.Errorf("load of the link's id: %q", contentText(res))
	}
	if _, err := b.ReadResource(ctx, &mcp.ReadResourceParams{URI: link.URI}); err == nil {
		t.Error("another session read the result")
	}
	if res = execOver(t, b, `return load("`+link.URI+`") === undefined`); res.IsError || contentText(res) != "true" {
		t.Errorf("another session loads the result: %q", contentText(res))
	}

	_ = a.Close()
	_ = b.Close()
	if err := g.cmd.Process.Signal(syscall.SIGTERM); err != nil {
		t.Fatal(err)
	}
	if err := waitExit(g.cmd); err != nil {
		t.Errorf("serve did not exit cleanly: %v (stderr: %s)", err, g.stderr.String())
	}
	checkNoSurvivors(t, mark)
}

// `exec --state DIR` keeps a conversation in a directory: the next exec
// given the same DIR loads what the last one stored and the result it kept
// by reference, which --json hands over whole; without --state, store
// says there is no state.
func TestExecKeepsStateInAStateDirectory(t *testing.T) {
	dir := t.TempDir()
	res, _ := execJSON(t, `store("n", {count: 3}); return `+alphabetScript, "", "--state", dir)
	if !res.OK || res.Stored == nil || res.Stored.URI != "mcpexec://results/r1" || res.Stored.Chars != 200000 ||
		res.Stored.MIMEType != "text/plain" || res.Stored.Shape != "text" {
		t.Fatalf("first exec: ok=%v stored=%+v", res.OK, res.Stored)
	}
	if string(res.Stored.Value) != `"`+alphabet(200000)+`"` {
		t.Errorf("--json's stored value is not the whole value (%d bytes)", len(res.Stored.Value))
	}
	if res.Audit.State == nil || res.Audit.State.Stores != 1 || res.Audit.Result == nil || res.Audit.Result.URI != res.Stored.URI {
		t.Errorf("audit: state %+v, result %+v", res.Audit.State, res.Audit.Result)
	}
	res, _ = execJSON(t, `return [load("n").count, load("r1").length]`, "", "--state", dir)
	if !res.OK || res.Text != "[3,200000]" {
		t.Errorf("the next exec with the same directory: %v %q", res.OK, res.Text)
	}
	res, _ = execJSON(t, `try { store("n", 1) } catch (e) { return e.message }`, "")
	if !res.OK || !strings.Contains(res.Text, "keeps no state") {
		t.Errorf("without --state: %q", res.Text)
	}
}

// A return value of 150 MiB in a worker capped at 256 MiB: its JSON
// streams out of the worker instead of being built beside the string, so
// the run ends well, its text the first part and a note saying the whole
// value is too large to keep, not the worker killed for its memory (as it
// was at 512 MiB when the worker held the value twice).
func TestReturning150MBIsBoundedByTheCapNotByACrash(t *testing.T) {
	res, run := execJSON(t, `return "x".repeat(150 * 1024 * 1024)`, "", "--memory-mb", "256")
	if !res.OK {
		t.Fatalf("the run failed: %s (stderr: %s)", res.Text, run.stderr)
	}
	if !strings.HasSuffix(res.Text, "[return value truncated: 157286400 characters in all; the whole value (150 MiB) is too large to keep, so only this first part can be read]") {
		t.Errorf("text ends %q", res.Text[len(res.Text)-200:])
	}
	if res.Stored != nil {
		t.Errorf("a value over what is kept was handed over: %d bytes", len(res.Stored.Value))
	}
}

// A client of 2026-07-28 has no session: over HTTP the gateway knows it by
// its credentials and its name, the same on every request. Its state and
// its results by reference outlast each request, and a client of another
// name neither loads nor reads them.
func TestStateOfSessionlessClientsThroughServe(t *testing.T) {
	g := startHTTPGateway(t)
	a, b := g.connectAs(t, "alpha", ""), g.connectAs(t, "beta", "")
	if v := a.InitializeResult().ProtocolVersion; v != "2026-07-28" {
		t.Fatalf("negotiated %q, want 2026-07-28", v)
	}
	if res := execOver(t, a, `store("k", "kept"); return "ok"`); res.IsError {
		t.Fatalf("store: %s", contentText(res))
	}
	if res := execOver(t, a, `return load("k")`); res.IsError || contentText(res) != "kept" {
		t.Errorf("the same client's next request loads %q, want kept", contentText(res))
	}
	if res := execOver(t, b, `return load("k") === undefined`); res.IsError || contentText(res) != "true" {
		t.Errorf("another client loads the key: %q", contentText(res))
	}
	res := execOver(t, a, `return `+alphabetScript)
	link, ok := res.Content[len(res.Content)-1].(*mcp.ResourceLink)
	if res.IsError || !ok {
		t.Fatalf("large result: %+v, want a resource_link", res)
	}
	ctx := context.Background()
	read, err := a.ReadResource(ctx, &mcp.ReadResourceParams{URI: link.URI})
	if err != nil || len(read.Contents) != 1 || read.Contents[0].Text != alphabet(200000) {
		t.Fatalf("resources/read of the link by the same client: %v", err)
	}
	if _, err := b.ReadResource(ctx, &mcp.ReadResourceParams{URI: link.URI}); err == nil {
		t.Error("another client read the result")
	}
}
