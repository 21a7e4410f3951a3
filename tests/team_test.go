package tests

import (
	"bufio"
	"context"
	"io"
	"net/http"
	"os"
	"os/exec"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/modelcontextprotocol/go-sdk/mcp"
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
	g := &httpGateway{mark: newRunMark(t), stderr: &strings.Builder{}}
	settings := writeFile(t, "settings.json", teamSettings)
	args := append([]string{"serve", "--servers", servers, "--settings", settings, "--http", "127.0.0.1:0"}, flags...)
	g.cmd = exec.Command(mcpexecBin, args...)
	g.cmd.Env = append(append(os.Environ(), g.mark), env...)
	pipe, err := g.cmd.StderrPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := g.cmd.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		if g.cmd.ProcessState == nil {
			_ = g.cmd.Process.Kill()
			_ = g.cmd.Wait()
		}
	})
	lines := bufio.NewScanner(pipe)
	for lines.Scan() {
		g.stderr.WriteString(lines.Text() + "\n")
		if m := servingLine.FindStringSubmatch(lines.Text()); m != nil {
			g.url = m[1]
			break
		}
	}
	if g.url == "" {
		t.Fatalf("the gateway printed no address: %s", g.stderr.String())
	}
	go func() { _, _ = io.Copy(g.stderr, pipe) }()
	return g
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
