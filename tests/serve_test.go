package tests

import (
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// serveClient connects an SDK client to `demo serve-mcp args...` over stdio.
func serveClient(t *testing.T, mark string, args ...string) (*mcp.ClientSession, error) {
	t.Helper()
	cmd := exec.Command(demoBin, append([]string{"serve-mcp"}, args...)...)
	cmd.Env = append(os.Environ(), mark)
	client := mcp.NewClient(&mcp.Implementation{Name: "e2e", Version: "1"}, nil)
	return client.Connect(context.Background(), &mcp.CommandTransport{Command: cmd}, nil)
}

// `demo serve-mcp srv` is an MCP server over stdio for any client (here
// the official SDK's), and exits when the client closes.
func TestServeMCPServesABuiltinServerOverStdio(t *testing.T) {
	mark := newRunMark(t)
	cs, err := serveClient(t, mark, "srv")
	if err != nil {
		t.Fatal(err)
	}
	if cs.InitializeResult().Instructions == "" {
		t.Error("srv sends no instructions")
	}
	list, err := cs.ListTools(context.Background(), nil)
	if err != nil {
		t.Fatal(err)
	}
	var names []string
	for _, tool := range list.Tools {
		names = append(names, tool.Name)
	}
	slices.Sort(names)
	if !slices.Equal(names, []string{"delete", "fetch", "list", "store"}) {
		t.Errorf("srv tools = %q", names)
	}
	res, err := cs.CallTool(context.Background(), &mcp.CallToolParams{Name: "fetch", Arguments: map[string]any{"id": 1}})
	if err != nil || res.IsError || res.StructuredContent == nil {
		t.Errorf("fetch over stdio = %+v, %v; want structured content", res, err)
	}
	if err := cs.Close(); err != nil {
		t.Logf("close: %v", err)
	}
	checkNoSurvivors(t, mark)
}

// --offline-while keeps a server from starting while the file exists.
func TestServeMCPRefusesWhileTheOfflineFileExists(t *testing.T) {
	offline := filepath.Join(t.TempDir(), "offline")
	if err := os.WriteFile(offline, nil, 0o600); err != nil {
		t.Fatal(err)
	}
	run := runDemo(t, "", "serve-mcp", "--offline-while", offline, "weather")
	if run.code != 1 || !strings.Contains(run.stderr, "offline") {
		t.Errorf("exit %d, stderr %q; want exit 1 saying it is offline", run.code, run.stderr)
	}
}

// An unknown name fails with the list of built-in servers.
func TestServeMCPUnknownServer(t *testing.T) {
	run := runDemo(t, "", "serve-mcp", "nope")
	if run.code != 1 || !strings.Contains(run.stderr, "srv, text, weather") {
		t.Errorf("exit %d, stderr %q; want exit 1 listing the built-in servers", run.code, run.stderr)
	}
}
