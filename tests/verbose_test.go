package tests

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// --verbose shows what servers say on stderr; without it a server that
// cannot start is still reported, in one line.
func TestVerboseShowsTheServersStderr(t *testing.T) {
	offline := filepath.Join(t.TempDir(), "offline")
	if err := os.WriteFile(offline, nil, 0o600); err != nil {
		t.Fatal(err)
	}
	data, err := json.Marshal(map[string]any{"mcpServers": map[string]any{
		"text": map[string]any{"command": demoBin, "args": []string{"serve-mcp", "text"}},
		"srv":  map[string]any{"command": demoBin, "args": []string{"serve-mcp", "--offline-while", offline, "srv"}},
	}})
	if err != nil {
		t.Fatal(err)
	}
	servers := writeFile(t, "servers.json", string(data))
	script := writeFile(t, "s.js", `return await tools.mcp__text__echo({ text: "hi" });`)
	settings := writeFile(t, "settings.json", builtinAllowed)

	quiet := runDemo(t, "", "exec", "--servers", servers, "--settings", settings, "--script", script)
	verbose := runDemo(t, "", "exec", "--verbose", "--servers", servers, "--settings", settings, "--script", script)
	for _, run := range []demoRun{quiet, verbose} {
		// 3: the script ran, but srv was not connected.
		if run.code != 3 || !strings.Contains(run.stdout, "hi") {
			t.Fatalf("exec: exit %d\n%s\n%s", run.code, run.stdout, run.stderr)
		}
	}
	if strings.Contains(quiet.stderr, "mcp server stderr") {
		t.Errorf("without --verbose the servers' stderr is relayed:\n%s", quiet.stderr)
	}
	if !strings.Contains(quiet.stderr, "srv") {
		t.Errorf("without --verbose the failed server is not reported:\n%s", quiet.stderr)
	}
	if !strings.Contains(verbose.stderr, "mcp server stderr") || !strings.Contains(verbose.stderr, "offline") {
		t.Errorf("--verbose does not show the server's own stderr:\n%s", verbose.stderr)
	}
}
