package tests

import (
	"context"
	"encoding/json"
	"os"
	"os/exec"
	"strings"
	"testing"

	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// With Exec switched off, `mcpexec serve` is a faithful pass-through of
// the real server-everything: a client gets the server's usage
// instructions in the gateway's own, and each tool's result exactly as a
// client connected to the server directly gets it (content items, their
// order and text, images, resource links, structuredContent).
func TestFlatServeIsAFaithfulPassThrough(t *testing.T) {
	ctx := context.Background()
	entry := everythingServer(t)
	direct, err := mcp.NewClient(&mcp.Implementation{Name: "direct", Version: "1"}, nil).Connect(ctx,
		&mcp.CommandTransport{Command: exec.Command(entry["command"].(string), entry["args"].([]string)...)}, nil)
	if err != nil {
		t.Fatal(err)
	}
	defer direct.Close()

	mark := newRunMark(t)
	data, err := json.Marshal(map[string]any{"mcpServers": map[string]any{"everything": entry}})
	if err != nil {
		t.Fatal(err)
	}
	servers := writeFile(t, "servers.json", string(data))
	settings := writeFile(t, "settings.json", `{"enableExec": false, "permissions": {"allow": ["mcp__everything"]}}`)
	cmd := exec.Command(mcpexecBin, "serve", "--servers", servers, "--settings", settings)
	cmd.Env = append(os.Environ(), mark)
	var stderr strings.Builder
	cmd.Stderr = &stderr
	served, err := mcp.NewClient(&mcp.Implementation{Name: "through", Version: "1"}, nil).Connect(ctx, &mcp.CommandTransport{Command: cmd}, nil)
	if err != nil {
		t.Fatal(err)
	}

	own := direct.InitializeResult().Instructions
	if own == "" {
		t.Fatal("server-everything sent no instructions: nothing to pass on")
	}
	if got := served.InitializeResult().Instructions; !strings.Contains(got, own) || !strings.Contains(got, `"everything"`) {
		t.Errorf("the gateway's instructions do not carry the server's, under its name:\n%s", got)
	}

	for _, c := range []struct {
		tool string
		args map[string]any
	}{
		{"echo", map[string]any{"message": "hi\n  there \"quoted\""}},
		{"get-structured-content", map[string]any{"location": "Chicago"}},
		{"get-tiny-image", map[string]any{}},
		{"get-resource-links", map[string]any{"count": 2}},
		{"get-annotated-message", map[string]any{"messageType": "success", "includeImage": true}},
		{"get-sum", map[string]any{"a": 2, "b": 3}},
	} {
		want, err := direct.CallTool(ctx, &mcp.CallToolParams{Name: c.tool, Arguments: c.args})
		if err != nil {
			t.Fatalf("%s directly: %v", c.tool, err)
		}
		got, err := served.CallTool(ctx, &mcp.CallToolParams{Name: "mcp__everything__" + c.tool, Arguments: c.args})
		if err != nil {
			t.Fatalf("%s through serve: %v (stderr: %s)", c.tool, err, stderr.String())
		}
		if w, g := resultJSON(t, want), resultJSON(t, got); w != g {
			t.Errorf("%s through serve:\n%s\nwant, as the server sent it:\n%s", c.tool, g, w)
		}
	}
	served.Close()
	_ = cmd.Wait()
	checkNoSurvivors(t, mark)
}

// resultJSON is what of a result a model sees, as JSON: content,
// structuredContent, isError.
func resultJSON(t *testing.T, res *mcp.CallToolResult) string {
	t.Helper()
	data, err := json.Marshal(map[string]any{"content": res.Content, "structuredContent": res.StructuredContent, "isError": res.IsError})
	if err != nil {
		t.Fatal(err)
	}
	return string(data)
}
