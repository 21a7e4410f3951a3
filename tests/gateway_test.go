package tests

import (
	"bufio"
	"context"
	"errors"
	"io"
	"os"
	"os/exec"
	"regexp"
	"slices"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/mcpexec/mcpexec/internal/testkit"
)

// builtinAllowed are settings that allow every built-in server's tools.
const builtinAllowed = `{"permissions": {"allow": ["mcp__srv", "mcp__text", "mcp__weather"]}}`

// rewriteServersFile replaces the servers file at path with one running
// the named built-in servers, atomically as editors save.
func rewriteServersFile(t *testing.T, path string, names ...string) {
	t.Helper()
	data, err := os.ReadFile(serversFile(t, names...))
	if err != nil {
		t.Fatal(err)
	}
	testkit.ReplaceFile(t, path, data)
}

// `mcpexec serve` is an MCP server over stdio for any client (here the
// go-sdk's): it offers Exec with the catalog of the servers in the servers
// file, runs a script that chains real server processes, follows the
// servers file (a client hears list_changed and reads the new catalog), and
// when the client leaves it stops every server and worker.
func TestMcpexecServeOverStdio(t *testing.T) {
	mark := newRunMark(t)
	servers := serversFile(t, "srv", "text")
	settings := writeFile(t, "settings.json", builtinAllowed)
	cmd := exec.Command(mcpexecBin, "serve", "--servers", servers, "--settings", settings)
	cmd.Env = append(os.Environ(), mark)
	var stderr strings.Builder
	cmd.Stderr = &stderr
	changed := make(chan struct{}, 16)
	client := mcp.NewClient(&mcp.Implementation{Name: "e2e", Version: "1"}, &mcp.ClientOptions{
		ToolListChangedHandler: func(context.Context, *mcp.ToolListChangedRequest) { changed <- struct{}{} },
	})
	ctx := context.Background()
	cs, err := client.Connect(ctx, &mcp.CommandTransport{Command: cmd}, nil)
	if err != nil {
		t.Fatal(err)
	}
	exec := func(code string) *mcp.CallToolResult {
		t.Helper()
		res, err := cs.CallTool(ctx, &mcp.CallToolParams{Name: "Exec", Arguments: map[string]string{"code": code}})
		if err != nil {
			t.Fatalf("Exec: %v (stderr: %s)", err, stderr.String())
		}
		return res
	}
	desc := execDescription(t, cs)
	if !strings.Contains(desc, "mcp__srv__fetch") || strings.Contains(desc, "mcp__weather") {
		t.Errorf("Exec's description does not list srv alone:\n%s", desc)
	}
	res := exec(`const r = await tools.mcp__srv__fetch({id: 2});
		const s = await tools.mcp__srv__store({value: r.title});
		return s.key + " " + s.stored;`)
	if res.IsError || !strings.Contains(contentText(res), "value-1 Release checklist") {
		t.Errorf("chained script: isError=%v %q", res.IsError, contentText(res))
	}

	rewriteServersFile(t, servers, "srv", "text", "weather")
	select {
	case <-changed:
	case <-time.After(runLimit):
		t.Fatalf("no list_changed after weather was added to the servers file (stderr: %s)", stderr.String())
	}
	waitFor(t, "weather in Exec's description", func() bool {
		return strings.Contains(execDescription(t, cs), "mcp__weather__forecast")
	})
	res = exec(`return (await tools.mcp__weather__forecast({city: "Oslo", days: 1})) !== null`)
	if res.IsError || !strings.Contains(contentText(res), "true") {
		t.Errorf("the added server's tool: isError=%v %q", res.IsError, contentText(res))
	}

	if err := cs.Close(); err != nil {
		t.Logf("close: %v", err)
	}
	checkNoSurvivors(t, mark)
}

func execDescription(t *testing.T, cs *mcp.ClientSession) string {
	t.Helper()
	list, err := cs.ListTools(context.Background(), nil)
	if err != nil {
		t.Fatal(err)
	}
	if len(list.Tools) != 1 || list.Tools[0].Name != "Exec" {
		t.Fatalf("tools %v, want Exec alone", list.Tools)
	}
	return list.Tools[0].Description
}

func contentText(res *mcp.CallToolResult) string {
	var parts []string
	for _, c := range res.Content {
		if tc, ok := c.(*mcp.TextContent); ok {
			parts = append(parts, tc.Text)
		}
	}
	return strings.Join(parts, "\n")
}

func waitFor(t *testing.T, what string, cond func() bool) {
	t.Helper()
	deadline := time.Now().Add(runLimit)
	for !cond() {
		if time.Now().After(deadline) {
			t.Fatalf("gave up waiting: %s", what)
		}
		time.Sleep(50 * time.Millisecond)
	}
}

// httpGateway is a running `mcpexec serve --http` and the URL it serves.
type httpGateway struct {
	cmd    *exec.Cmd
	url    string
	mark   string
	stderr *strings.Builder
}

var servingLine = regexp.MustCompile(`serving MCP on (http://\S+)`)

// startHTTPGateway starts `mcpexec serve --http 127.0.0.1:0` over the
// built-in srv and text servers and waits for the address it prints.
func startHTTPGateway(t *testing.T, env ...string) *httpGateway {
	t.Helper()
	return startHTTPGatewayWith(t, newRunMark(t), env)
}

// startHTTPGatewayWith is startHTTPGateway with the run's mark, and more
// flags for serve.
func startHTTPGatewayWith(t *testing.T, mark string, env []string, flags ...string) *httpGateway {
	t.Helper()
	servers := serversFile(t, "srv", "text")
	settings := writeFile(t, "settings.json", builtinAllowed)
	return startHTTPGatewayArgs(t, mark, env, append([]string{"serve", "--servers", servers, "--settings", settings}, flags...))
}

// startHTTPGatewayArgs starts mcpexec with args (serve and its flags)
// serving HTTP on a free loopback port, and waits for the address it
// prints.
func startHTTPGatewayArgs(t *testing.T, mark string, env, args []string) *httpGateway {
	t.Helper()
	g := &httpGateway{mark: mark, stderr: &strings.Builder{}}
	startHTTPGatewayInto(t, g, env, args, g.stderr)
	return g
}

// startHTTPGatewayInto starts g's process as startHTTPGatewayArgs does;
// what it writes to stderr after the address goes to rest.
func startHTTPGatewayInto(t *testing.T, g *httpGateway, env, args []string, rest io.Writer) {
	t.Helper()
	args = append(slices.Clone(args), "--http", "127.0.0.1:0")
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
	go func() { _, _ = io.Copy(rest, pipe) }()
}

// connect connects an SDK client to the gateway, closed when the test ends.
func (g *httpGateway) connect(t *testing.T) *mcp.ClientSession {
	t.Helper()
	return g.connectAs(t, "e2e", "")
}

// connectAs connects an SDK client named name at protocol version ("":
// the SDK's latest), closed when the test ends.
func (g *httpGateway) connectAs(t *testing.T, name, version string) *mcp.ClientSession {
	t.Helper()
	cs, err := mcp.NewClient(&mcp.Implementation{Name: name, Version: "1"}, nil).Connect(context.Background(),
		&mcp.StreamableClientTransport{Endpoint: g.url}, &mcp.ClientSessionOptions{ProtocolVersion: version})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = cs.Close() })
	return cs
}

// waitExit waits for cmd, which was told to stop, to exit: an error when it
// failed, or did not exit in time.
func waitExit(cmd *exec.Cmd) error {
	done := make(chan error, 1)
	go func() { done <- cmd.Wait() }()
	select {
	case err := <-done:
		return err
	case <-time.After(runLimit):
		return errors.New("did not exit")
	}
}

// Over HTTP, SIGTERM shuts the gateway down cleanly while a client is
// connected: exit status 0, and no server or worker process outlives it.
func TestMcpexecServeHTTPShutsDownOnSIGTERM(t *testing.T) {
	g := startHTTPGateway(t)
	ctx := context.Background()
	cs := g.connect(t)
	res, err := cs.CallTool(ctx, &mcp.CallToolParams{Name: "Exec", Arguments: map[string]string{"code": `return await tools.mcp__text__echo({text: "over http"})`}})
	if err != nil || res.IsError || !strings.Contains(contentText(res), "over http") {
		t.Fatalf("Exec over HTTP: %v %+v", err, res)
	}
	if n := len(processesMarked(t, g.mark)); n < 4 {
		t.Fatalf("found %d processes of the run, want the gateway, 2 servers and a worker", n)
	}
	if err := g.cmd.Process.Signal(syscall.SIGTERM); err != nil {
		t.Fatal(err)
	}
	if err := waitExit(g.cmd); err != nil {
		t.Errorf("exit after SIGTERM: %v (stderr: %s)", err, g.stderr.String())
	}
	checkNoSurvivors(t, g.mark)
}

// A bearer token in MCPEXEC_TOKEN is required of every request.
func TestMcpexecServeHTTPRequiresTheToken(t *testing.T) {
	g := startHTTPGateway(t, "MCPEXEC_TOKEN=e2e-secret")
	_, err := mcp.NewClient(&mcp.Implementation{Name: "e2e", Version: "1"}, nil).Connect(context.Background(),
		&mcp.StreamableClientTransport{Endpoint: g.url}, nil)
	if err == nil || !strings.Contains(err.Error(), "401") && !strings.Contains(strings.ToLower(err.Error()), "unauthorized") {
		t.Errorf("connecting without the token: %v, want 401 Unauthorized", err)
	}
	if !strings.Contains(g.stderr.String(), "bearer token") {
		t.Errorf("startup line does not say a token is required: %s", g.stderr.String())
	}
}

// The installable tool's command line: version, and --servers required.
func TestMcpexecCommandLine(t *testing.T) {
	out, err := exec.Command(mcpexecBin, "version").Output()
	if err != nil || !strings.HasPrefix(string(out), "mcpexec ") {
		t.Errorf("mcpexec version: %q, %v", out, err)
	}
	cmd := exec.Command(mcpexecBin, "exec", "-")
	var stderr strings.Builder
	cmd.Stderr = &stderr
	err = cmd.Run()
	var exitErr *exec.ExitError
	if !errors.As(err, &exitErr) || exitErr.ExitCode() != 2 || !strings.Contains(stderr.String(), "--servers FILE is required") {
		t.Errorf("mcpexec exec without --servers: %v, %q", err, stderr.String())
	}
}
