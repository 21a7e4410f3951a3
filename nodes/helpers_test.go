package nodes_test

import (
	"bufio"
	"context"
	"crypto/tls"
	"encoding/json"
	"io"
	"net"
	"os"
	"os/exec"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/rs/zerolog"

	"github.com/mcpexec/mcpexec/actors"
	"github.com/mcpexec/mcpexec/internal/testcerts"
	"github.com/mcpexec/mcpexec/internal/testkit"
	"github.com/mcpexec/mcpexec/nodes"
	"github.com/mcpexec/mcpexec/sandbox"
)

// refreshInterval is how often the tests' daemons and nodes poll
// membership.
const refreshInterval = 200 * time.Millisecond

// startNode starts a sandbox node process whose certificate files are
// given, stopped when the test ends; it returns the node's remote address
// and its membership endpoint.
func startNode(t testing.TB, files testcerts.Files) (address, membership string) {
	t.Helper()
	port := testkit.FreePort(t)
	cmd := exec.Command(os.Args[0], "-test.run=^$")
	cmd.Env = append(os.Environ(), nodeEnv+"="+strings.Join([]string{itoa(port), files.Cert, files.Key, files.CA}, "\n"))
	stdin, err := cmd.StdinPipe()
	if err != nil {
		t.Fatal(err)
	}
	stdout, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	cmd.Stderr = os.Stderr
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		stdin.Close()
		_ = cmd.Wait()
	})
	// Other lines come first: the membership endpoint says it started.
	lines := bufio.NewReader(stdout)
	var line string
	for !strings.HasPrefix(line, "ready ") {
		if line, err = lines.ReadString('\n'); err != nil {
			t.Fatalf("sandbox node did not start: %v", err)
		}
	}
	go io.Copy(io.Discard, lines)
	return strings.TrimSpace(strings.TrimPrefix(line, "ready ")), net.JoinHostPort("127.0.0.1", itoa(port))
}

// daemon is a daemon's actor system joined to sandbox nodes, running
// Execs on them.
type daemon struct {
	placement *nodes.Placement
	execs     *actors.Execs
}

func startDaemon(t testing.TB, ca *testcerts.Authority, members ...string) *daemon {
	t.Helper()
	cfg, err := nodes.TLSFiles(ca.Issue("daemon")).Config()
	if err != nil {
		t.Fatal(err)
	}
	return startDaemonWith(t, cfg, len(members), members...)
}

// startDaemonWith starts a daemon with its TLS configuration and waits
// until want of the members are live.
func startDaemonWith(t testing.TB, cfg *tls.Config, want int, members ...string) *daemon {
	t.Helper()
	system := testkit.ActorSystem(t)
	p, err := nodes.Join(system, nodes.DaemonOptions{
		Listen: "127.0.0.1:0", Nodes: members, TLS: cfg, RefreshInterval: refreshInterval,
	})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(p.Close)
	execs := actors.NewExecs(system, nil, zerolog.New(zerolog.NewTestWriter(t)))
	execs.PlaceOn(p)
	ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
	defer cancel()
	if err := p.WaitNodes(ctx, want); err != nil {
		t.Fatalf("nodes did not join: %v (live: %v)", err, p.Nodes())
	}
	return &daemon{placement: p, execs: execs}
}

// toolHost answers nested calls by tool name, and counts them.
type toolHost struct {
	mu    sync.Mutex
	calls []string
	tools map[string]func(ctx context.Context, args json.RawMessage) (sandbox.CallResult, error)
}

func (h *toolHost) CallTool(ctx context.Context, name string, args json.RawMessage) (sandbox.CallResult, error) {
	h.mu.Lock()
	h.calls = append(h.calls, name)
	h.mu.Unlock()
	return h.tools[name](ctx, args)
}

func (h *toolHost) Search(context.Context, json.RawMessage) (json.RawMessage, error) {
	return json.RawMessage(`[]`), nil
}

func (h *toolHost) made() []string {
	h.mu.Lock()
	defer h.mu.Unlock()
	return append([]string(nil), h.calls...)
}

func (h *toolHost) names() []string {
	var out []string
	for n := range h.tools {
		out = append(out, n)
	}
	return out
}

func itoa(n int) string { return strconv.Itoa(n) }
