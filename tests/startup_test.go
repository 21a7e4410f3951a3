package tests

import (
	"encoding/json"
	"strings"
	"testing"

	"github.com/mcpexec/mcpexec/internal/testservers"
)

// testServer is a servers-file entry running one of the test servers (this
// test binary, re-executed).
func testServer(command string, args []string, env map[string]string) map[string]any {
	return map[string]any{"command": command, "args": args, "env": env}
}

// textServer is a servers-file entry running the demo's built-in text server.
func textServer() map[string]any {
	return map[string]any{"command": demoBin, "args": []string{"serve-mcp", "text"}}
}

// writeServers writes an mcpServers file holding entries.
func writeServers(t *testing.T, entries map[string]any) string {
	t.Helper()
	data, err := json.Marshal(map[string]any{"mcpServers": entries})
	if err != nil {
		t.Fatal(err)
	}
	return writeFile(t, "servers.json", string(data))
}

// A server that never finishes its handshake does not hold the run for its
// connect timeout: --timeout bounds the start-up wait, the person is told
// which server is still starting and that the run goes on without it, the
// script runs on the other servers, a call to the missing server's tools
// says why it is missing, and the run ends with it listed as not connected
// and exit status 3.
//
// Proves EDGE-3.
func TestEDGE3_TimeoutBoundsTheStartUpWaitAndNamesServersStillStarting(t *testing.T) {
	silent := testServer(testservers.SilentCommand())
	silent["connectTimeoutSec"] = 3600 // only --timeout can end the wait
	servers := writeServers(t, map[string]any{"text": textServer(), "silent": silent})
	script := `let why = "";
try { await tools.mcp__silent__anything({}); } catch (e) { why = e.message; }
return { why, echo: await tools.mcp__text__echo({ text: "hi" }) };`
	res, run := execJSONStatus(t, 3, script, "", "--servers", servers, "--ask", "allow", "--timeout", "5s")
	if !res.OK || !strings.Contains(res.Text, `"echo":"hi"`) {
		t.Errorf("the script did not run on the servers that started: %+v", res)
	}
	if !strings.Contains(res.Text, `its server \"silent\" is not connected: still starting`) {
		t.Errorf("a call to the missing server: %s, want it to say the server is still starting", res.Text)
	}
	for _, want := range []string{
		"still starting: silent",
		"not started after 5s: silent (running without its tools while it goes on starting)",
		"1 MCP server was not connected:\n  silent: still starting\n",
	} {
		if !strings.Contains(run.stderr, want) {
			t.Errorf("stderr lacks %q:\n%s", want, run.stderr)
		}
	}
}

// After a run, the servers that failed are listed on stderr, each with its
// reason, and the exit status is 3, whether the script succeeded or not; a
// server that keeps failing the same way is warned about once, not at each
// retry; a disabled server is not a failure.
func TestFailedServersAreListedWithTheirReasonsAndExitStatus3(t *testing.T) {
	servers := writeServers(t, map[string]any{
		"text":    textServer(),
		"crash":   testServer(testservers.CrashAtStartCommand()),
		"missing": map[string]any{"command": "/nonexistent/mcp-server"},
		"off":     map[string]any{"command": "/nonexistent/off", "disabled": true},
	})
	// The sleep outlasts a few retries of the failing servers.
	ok := `await tools.mcp__text__sleep({ ms: 2500 }); return await tools.mcp__text__echo({ text: "hi" });`
	res, run := execJSONStatus(t, 3, ok, "", "--servers", servers, "--ask", "allow")
	if !res.OK || res.Text != "hi" {
		t.Errorf("the script on the servers that started: %+v", res)
	}
	want := "2 MCP servers were not connected:\n" +
		"  crash: server process exited: exit status 1; stderr: " + testservers.CrashMessage + "\n" +
		`  missing: cannot start "/nonexistent/mcp-server": fork/exec /nonexistent/mcp-server: no such file or directory` + "\n"
	if !strings.HasSuffix(run.stderr, want) {
		t.Errorf("stderr ends\n%s\nwant it to end with\n%s", run.stderr, want)
	}
	for _, name := range []string{"crash", "missing"} {
		if n := strings.Count(run.stderr, "server="+name); n != 1 {
			t.Errorf("server %s warned about %d times, want once:\n%s", name, n, run.stderr)
		}
	}
	if strings.Contains(run.stderr, "off") {
		t.Errorf("the disabled server is reported:\n%s", run.stderr)
	}

	// A script that fails on a partial pool: still 3, the servers listed.
	res, run = execJSONStatus(t, 3, `throw new Error("boom");`, "", "--servers", servers)
	if res.OK || !strings.HasSuffix(run.stderr, want) {
		t.Errorf("failed script: %+v, stderr\n%s", res, run.stderr)
	}

	// catalog and tools say the same.
	for _, cmd := range []string{"catalog", "tools"} {
		run := runDemo(t, "", cmd, "--servers", servers)
		if run.code != 3 || !strings.Contains(run.stdout, "text") || !strings.HasSuffix(run.stderr, want) {
			t.Errorf("demo %s: exit %d, stdout %q, stderr\n%s", cmd, run.code, run.stdout, run.stderr)
		}
	}
}

// execJSONStatus is execJSON for a run expected to end with exit status
// code: the script's own outcome is then only in the output.
func execJSONStatus(t *testing.T, code int, script, stdin string, flags ...string) (execResult, demoRun) {
	t.Helper()
	file := writeFile(t, "script.js", script)
	run := runDemo(t, stdin, append([]string{"exec", "--json", "--script", file}, flags...)...)
	if run.code != code {
		t.Errorf("exit status %d, want %d (stderr: %s)", run.code, code, run.stderr)
	}
	return parseExecJSON(t, run), run
}
