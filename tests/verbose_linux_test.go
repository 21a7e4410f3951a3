package tests

import (
	"encoding/json"
	"strings"
	"testing"
)

// --verbose relays what a server says while it serves, not its reaction to
// being stopped: server-everything (Node) answers the closed pipe at every
// normal exit with a stack for EPIPE, which stays out of the log.
func TestVerboseLeavesOutTheServersReactionToBeingStopped(t *testing.T) {
	data, err := json.Marshal(map[string]any{"mcpServers": map[string]any{"everything": everythingServer(t)}})
	if err != nil {
		t.Fatal(err)
	}
	servers := writeFile(t, "servers.json", string(data))
	script := writeFile(t, "s.js", `return await tools.mcp__everything__echo({ message: "hi" });`)
	run := runDemo(t, "", "exec", "--verbose", "--ask", "allow", "--servers", servers, "--script", script)
	if run.code != 0 || !strings.Contains(run.stdout, "hi") {
		t.Fatalf("exec: exit %d\n%s\n%s", run.code, run.stdout, run.stderr)
	}
	if !strings.Contains(run.stderr, "mcp server stderr") {
		t.Errorf("--verbose shows nothing the server wrote while serving:\n%s", run.stderr)
	}
	if strings.Contains(run.stderr, "EPIPE") {
		t.Errorf("--verbose shows the server's broken pipe at exit:\n%s", run.stderr)
	}
}
