package tests

import (
	"context"
	"encoding/json"
	"os"
	"os/exec"
	"slices"
	"strings"
	"testing"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/mcpexec/mcpexec/internal/testservers"
)

// ledgerServersFile writes a servers file running the ledger, which counts
// what ran, as server "l".
func ledgerServersFile(t *testing.T) string {
	t.Helper()
	command, args, env := testservers.LedgerCommand()
	data, err := json.Marshal(map[string]any{"mcpServers": map[string]any{
		"l": map[string]any{"command": command, "args": args, "env": env}}})
	if err != nil {
		t.Fatal(err)
	}
	return writeFile(t, "servers.json", string(data))
}

// serveLedger runs `mcpexec serve` with flags over its own ledger, and
// connects a go-sdk client to it over stdio.
func serveLedger(t *testing.T, mark string, flags ...string) (*mcp.ClientSession, *strings.Builder) {
	t.Helper()
	settings := writeFile(t, "settings.json", `{"permissions": {"allow": ["mcp__l"]}}`)
	cmd := exec.Command(mcpexecBin, append([]string{"serve", "--servers", ledgerServersFile(t), "--settings", settings}, flags...)...)
	cmd.Env = append(os.Environ(), mark)
	var stderr strings.Builder
	cmd.Stderr = &stderr
	client := mcp.NewClient(&mcp.Implementation{Name: "e2e", Version: "1"}, nil)
	cs, err := client.Connect(context.Background(), &mcp.CommandTransport{Command: cmd}, nil)
	if err != nil {
		t.Fatal(err)
	}
	return cs, &stderr
}

func execWith(t *testing.T, cs *mcp.ClientSession, args map[string]string) *mcp.CallToolResult {
	t.Helper()
	res, err := cs.CallTool(context.Background(), &mcp.CallToolParams{Name: "Exec", Arguments: args})
	if err != nil {
		t.Fatalf("Exec %v: %v", args, err)
	}
	return res
}

// stillRunning returns the handle a "Still running" result names.
func stillRunning(t *testing.T, res *mcp.CallToolResult) string {
	t.Helper()
	text := contentText(res)
	if res.IsError || !strings.HasPrefix(text, "Still running") {
		t.Fatalf("want Still running, got isError=%v %q", res.IsError, text)
	}
	i := strings.Index(text, "run_")
	if i < 0 {
		t.Fatalf("no handle in %q", text)
	}
	end := i
	for end < len(text) && (text[end] == '_' || text[end] >= '0' && text[end] <= '9' || text[end] >= 'a' && text[end] <= 'z') {
		end++
	}
	return text[i:end]
}

// A client without tasks gets "Still running" and a handle once the script
// outlasts --yield-after, waits on the handle until the result comes, and
// the ledger shows every call ran once.
func TestServeYieldsAndWaitsWithoutRunningTwice(t *testing.T) {
	mark := newRunMark(t)
	cs, stderr := serveLedger(t, mark, "--yield-after", "200ms")
	list, err := cs.ListTools(context.Background(), nil)
	if err != nil {
		t.Fatal(err)
	}
	exec := list.Tools[0]
	schema, _ := json.Marshal(exec.InputSchema)
	if !strings.Contains(string(schema), `"wait"`) || !strings.Contains(string(schema), `"cancel"`) ||
		!strings.Contains(exec.Description, `{"wait": handle}`) {
		t.Errorf("Exec does not offer wait and cancel: %s\n%s", schema, exec.Description)
	}

	// The pause keeps the script going well past the yield.
	handle := stillRunning(t, execWith(t, cs, map[string]string{"code": `
		await tools.mcp__l__write({key: "a"});
		await new Promise(r => setTimeout(r, 1500));
		await tools.mcp__l__write({key: "b"});
		return "done";`}))

	var res *mcp.CallToolResult
	waits := 0
	for {
		res = execWith(t, cs, map[string]string{"wait": handle})
		waits++
		if !strings.HasPrefix(contentText(res), "Still running") {
			break
		}
		if got := stillRunning(t, res); got != handle {
			t.Fatalf("waiting named %s, want %s", got, handle)
		}
	}
	if res.IsError || contentText(res) != "done" {
		t.Fatalf("the result after %d waits: isError=%v %q (stderr %s)", waits, res.IsError, contentText(res), stderr)
	}
	if res := execWith(t, cs, map[string]string{"wait": handle}); !res.IsError {
		t.Errorf("a handle whose result was returned answered again: %q", contentText(res))
	}
	ran := execToEnd(t, cs, `return await tools.mcp__l__ran({})`)
	var got struct{ Write []string }
	if err := json.Unmarshal([]byte(contentText(ran)), &got); err != nil || !slices.Equal(got.Write, []string{"a", "b"}) {
		t.Errorf("the ledger says %q, want each write once", contentText(ran))
	}
	_ = cs.Close()
	checkNoSurvivors(t, mark)
}

// Cancelling a handle stops the script: the result is an error that says
// so, and the call the script had not reached never runs.
func TestServeCancelsARunByItsHandle(t *testing.T) {
	mark := newRunMark(t)
	cs, _ := serveLedger(t, mark, "--yield-after", "200ms")
	handle := stillRunning(t, execWith(t, cs, map[string]string{"code": `
		await tools.mcp__l__write({key: "a"});
		await new Promise(r => setTimeout(r, 60000));
		await tools.mcp__l__write({key: "never"});`}))
	res := execWith(t, cs, map[string]string{"cancel": handle})
	if !res.IsError || !strings.Contains(contentText(res), "cancelled") {
		t.Errorf("cancel: isError=%v %q", res.IsError, contentText(res))
	}
	ran := execToEnd(t, cs, `return await tools.mcp__l__ran({})`)
	var got struct{ Write []string }
	if err := json.Unmarshal([]byte(contentText(ran)), &got); err != nil || slices.Contains(got.Write, "never") {
		t.Errorf("the ledger says %q after the cancel", contentText(ran))
	}
	_ = cs.Close()
	checkNoSurvivors(t, mark)
}

// A handle belongs to the client that started its run: another client of
// the same gateway cannot wait on it or cancel it.
func TestServeHandlesBelongToTheirSession(t *testing.T) {
	mark := newRunMark(t)
	g := startHTTPGatewayWith(t, mark, nil, "--yield-after", "200ms")
	mine, theirs := connectAs(t, g, "mine"), connectAs(t, g, "theirs")
	handle := stillRunning(t, execWith(t, mine, map[string]string{"code": `await new Promise(r => setTimeout(r, 1500)); return "mine";`}))
	for _, arg := range []string{"wait", "cancel"} {
		if res := execWith(t, theirs, map[string]string{arg: handle}); !res.IsError || !strings.Contains(contentText(res), "another client") {
			t.Errorf("another client's %s: isError=%v %q", arg, res.IsError, contentText(res))
		}
	}
	for {
		res := execWith(t, mine, map[string]string{"wait": handle})
		if !strings.HasPrefix(contentText(res), "Still running") {
			if res.IsError || contentText(res) != "mine" {
				t.Errorf("the owner's wait: isError=%v %q", res.IsError, contentText(res))
			}
			break
		}
	}
}

// execToEnd runs code and waits on its handle until its result comes: on a
// busy machine even a short script may outlast the yield.
func execToEnd(t *testing.T, cs *mcp.ClientSession, code string) *mcp.CallToolResult {
	t.Helper()
	res := execWith(t, cs, map[string]string{"code": code})
	for strings.HasPrefix(contentText(res), "Still running") {
		res = execWith(t, cs, map[string]string{"wait": stillRunning(t, res)})
	}
	return res
}

// connectAs connects a go-sdk client named name to the gateway: clients
// without a session (the current revision over HTTP) are told apart by
// their credentials and their names.
func connectAs(t *testing.T, g *httpGateway, name string) *mcp.ClientSession {
	t.Helper()
	cs, err := mcp.NewClient(&mcp.Implementation{Name: name, Version: "1"}, nil).Connect(context.Background(),
		&mcp.StreamableClientTransport{Endpoint: g.url}, nil)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = cs.Close() })
	return cs
}
