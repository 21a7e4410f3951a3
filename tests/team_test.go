package tests

import (
	"context"
	"net/http"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"syscall"
	"testing"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/mcpexec/mcpexec/internal/testkit"
)

// A gateway shared by a team: what its children inherit, what the model
// reads when a server fails, how it answers while a server restarts and
// when it is stopped.

// teamSettings allow the tools of the servers these tests configure.
const teamSettings = `{"permissions": {"allow": ["mcp__everything", "mcp__srv", "mcp__text", "mcp__failing"]}}`

// startServeHTTP starts `mcpexec serve --http 127.0.0.1:0` on a servers
// file, with the run's mark and env added to the environment, and waits for
// the address it prints.
func startServeHTTP(t *testing.T, servers string, env []string, flags ...string) *httpGateway {
	t.Helper()
	g, _ := startServeHTTPLogged(t, servers, env, flags...)
	return g
}

// startServeHTTPLogged is startServeHTTP that also returns everything the
// gateway writes on stderr after its address, safe to read while it runs.
func startServeHTTPLogged(t *testing.T, servers string, env []string, flags ...string) (*httpGateway, *testkit.SyncBuffer) {
	t.Helper()
	g := &httpGateway{mark: newRunMark(t), stderr: &strings.Builder{}}
	settings := writeFile(t, "settings.json", teamSettings)
	output := &testkit.SyncBuffer{}
	startHTTPGatewayInto(t, g, env, append([]string{"serve", "--servers", servers, "--settings", settings}, flags...), output)
	return g, output
}

// connectWithToken connects an SDK client that sends the bearer token.
func (g *httpGateway) connectWithToken(t *testing.T, token string) *mcp.ClientSession {
	t.Helper()
	client := &http.Client{Transport: bearer{token: token, next: http.DefaultTransport}}
	cs, err := mcp.NewClient(&mcp.Implementation{Name: "team", Version: "1"}, nil).Connect(context.Background(),
		&mcp.StreamableClientTransport{Endpoint: g.url, HTTPClient: client}, nil)
	if err != nil {
		t.Fatalf("connecting with the token: %v (stderr: %s)", err, g.stderr.String())
	}
	t.Cleanup(func() { _ = cs.Close() })
	return cs
}

// bearer adds the Authorization header to every request.
type bearer struct {
	token string
	next  http.RoundTripper
}

func (b bearer) RoundTrip(r *http.Request) (*http.Response, error) {
	r = r.Clone(r.Context())
	r.Header.Set("Authorization", "Bearer "+b.token)
	return b.next.RoundTrip(r)
}

// execText runs an Exec call and returns its text and whether it failed.
func execText(t *testing.T, cs *mcp.ClientSession, code string) (string, bool) {
	t.Helper()
	res, err := cs.CallTool(context.Background(), &mcp.CallToolParams{Name: "Exec", Arguments: map[string]string{"code": code}})
	if err != nil {
		t.Fatalf("Exec: %v", err)
	}
	return contentText(res), res.IsError
}

// processEnv reads a process's environment; nil when it is gone.
func processEnv(pid string) []string {
	data, err := os.ReadFile("/proc/" + pid + "/environ")
	if err != nil {
		return nil
	}
	return strings.Split(string(data), "\x00")
}

// The gateway's bearer token never reaches its children: a script that
// makes a real server report its environment does not see it, and neither
// the server's nor a sandbox worker's /proc/PID/environ holds it, while
// the rest of the environment (the run's mark) is still inherited.
func TestServeChildrenDoNotInheritTheToken(t *testing.T) {
	const token = "team-token-3f9a1c"
	servers := writeServers(t, map[string]any{"everything": everythingServer(t)})
	g := startServeHTTP(t, servers, []string{"MCPEXEC_TOKEN=" + token})
	cs := g.connectWithToken(t, token)

	text, failed := execText(t, cs, `return await tools["mcp__everything__get-env"]({})`)
	if failed {
		t.Fatalf("get-env failed: %s", text)
	}
	if strings.Contains(text, token) {
		t.Errorf("a script read the gateway's token through get-env")
	}
	if !strings.Contains(text, strings.TrimPrefix(g.mark, runVar+"=")) {
		t.Errorf("the server did not inherit the rest of the environment: %.300s", text)
	}

	gateway := g.cmd.Process.Pid
	var children, workers int
	eachProcess(t, func(pid string) {
		env := processEnv(pid)
		if pid == strconv.Itoa(gateway) || !slices.Contains(env, g.mark) {
			return
		}
		children++
		if slices.Contains(env, "MCPEXEC_SANDBOX_WORKER=1") {
			workers++
		}
		for _, kv := range env {
			if strings.HasPrefix(kv, "MCPEXEC_TOKEN=") || strings.Contains(kv, token) {
				t.Errorf("process %s inherited the token", describeProcess(pid))
			}
		}
	})
	if workers == 0 || children <= workers {
		t.Errorf("found %d children of the gateway, %d of them workers: want the server and a worker at least", children, workers)
	}
}

// childPid returns the pid of the gateway's child whose command line holds
// part.
func childPid(t *testing.T, g *httpGateway, part string) int {
	t.Helper()
	pid := 0
	eachProcess(t, func(p string) {
		if parent, _, ok := parentAndState(p); ok && parent == strconv.Itoa(g.cmd.Process.Pid) && strings.Contains(describeProcess(p), part) {
			pid, _ = strconv.Atoi(p)
		}
	})
	if pid == 0 {
		t.Fatalf("the gateway has no child running %q", part)
	}
	return pid
}

// offeredExec returns Exec's description in tools/list, and whether
// Exec is listed at all.
func offeredExec(t *testing.T, cs *mcp.ClientSession) (string, bool) {
	t.Helper()
	res, err := cs.ListTools(context.Background(), nil)
	if err != nil {
		t.Fatalf("tools/list: %v", err)
	}
	for _, tool := range res.Tools {
		if tool.Name == "Exec" {
			return tool.Description, true
		}
	}
	return "", false
}

// When the only server dies, Exec stays in tools/list, and a call made
// while the server reconnects is answered at once: a failure result (not
// a protocol error) naming the server and saying it is reconnecting. The
// server here cannot come back (its restarts fail), so the test does not
// race the reconnect.
func TestServeKeepsExecWhileTheOnlyServerReconnects(t *testing.T) {
	started := filepath.Join(t.TempDir(), "started")
	wrapper := `if [ -e "$1" ]; then echo "not again" >&2; exit 1; fi; : > "$1"; exec "$2" serve-mcp text`
	servers := writeServers(t, map[string]any{"text": map[string]any{
		"command": "sh", "args": []string{"-c", wrapper, "sh", started, demoBin},
	}})
	g := startServeHTTP(t, servers, nil)
	cs := g.connect(t)
	if text, failed := execText(t, cs, `return await tools.mcp__text__echo({text: "up"})`); failed || !strings.Contains(text, "up") {
		t.Fatalf("echo before the kill: %s", text)
	}
	before, _ := offeredExec(t, cs)

	if err := syscall.Kill(childPid(t, g, "serve-mcp text"), syscall.SIGKILL); err != nil {
		t.Fatal(err)
	}
	// The gateway offers what it learns of the pool: once the offer has
	// changed, the server's loss has reached the client.
	waitFor(t, "the gateway to offer what it knows of the lost server", func() bool {
		desc, listed := offeredExec(t, cs)
		return !listed || desc != before
	})
	if _, listed := offeredExec(t, cs); !listed {
		t.Fatal("Exec left tools/list while its only server reconnects")
	}
	res, err := cs.CallTool(context.Background(), &mcp.CallToolParams{Name: "Exec",
		Arguments: map[string]string{"code": `return await tools.mcp__text__echo({text: "down"})`}})
	if err != nil {
		t.Fatalf("Exec while the server reconnects: protocol error %v", err)
	}
	text := contentText(res)
	if !res.IsError || !strings.Contains(text, `server "text"`) || !strings.Contains(text, "reconnecting") {
		t.Errorf("Exec while the server reconnects: isError=%v %q, want a failure naming server \"text\" as reconnecting", res.IsError, text)
	}
}

// A server that fails writing a secret and the home directory's path to
// stderr: the model's failure text names the server and why, bounded,
// without the values the servers file passes, the gateway's token or the
// home path, and tools/list carries none of them either; the person reads
// every line of the server's stderr.
func TestServeFailureTextKeepsSecretsFromTheModel(t *testing.T) {
	const (
		token  = "team-token-77d2e0"
		secret = "aws-secret-5be1c9a4"
	)
	home, err := os.UserHomeDir()
	if err != nil || len(home) < 2 {
		t.Skip("no home directory to leak")
	}
	// 200 lines, far over what a model may read: each carries the
	// secret the servers file passes, the token and the home path.
	failing := `for i in $(seq 1 200); do echo "line $i: cannot read $HOME/.config/x (AWS_SECRET=$AWS_SECRET, token=$1)" >&2; done; echo "last line of stderr" >&2; exit 1`
	servers := writeServers(t, map[string]any{
		"text": map[string]any{"command": demoBin, "args": []string{"serve-mcp", "text"}},
		"failing": map[string]any{"command": "sh", "args": []string{"-c", failing, "sh", token},
			"env": map[string]string{"AWS_SECRET": "${TEAM_AWS_SECRET}"}},
	})
	g, output := startServeHTTPLogged(t, servers, []string{"MCPEXEC_TOKEN=" + token, "TEAM_AWS_SECRET=" + secret})
	cs := g.connectWithToken(t, token)

	text, failed := execText(t, cs, `return await tools.mcp__failing__anything({})`)
	if !failed || !strings.Contains(text, `server "failing"`) || !strings.Contains(text, "cannot read") {
		t.Errorf("failure text %q: want a failure naming server \"failing\" and why", text)
	}
	if n := len([]rune(text)); n > 4096 {
		t.Errorf("failure text has %d characters, want at most 4096", n)
	}
	desc, _ := offeredExec(t, cs)
	for name, leak := range map[string]string{"the servers file's secret": secret, "the token": token, "the home path": home} {
		if strings.Contains(text, leak) {
			t.Errorf("the failure text holds %s: %.400s", name, text)
		}
		if strings.Contains(desc, leak) {
			t.Errorf("tools/list holds %s", name)
		}
	}
	waitFor(t, "the person to read the server's whole stderr", func() bool {
		out := g.stderr.String() + output.String() // the failure may come before the address
		return strings.Contains(out, "line 1: cannot read") && strings.Contains(out, "line 200: cannot read") && strings.Contains(out, "last line of stderr")
	})
}
