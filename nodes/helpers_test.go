package nodes_test

import (
	"context"
	"encoding/json"
	"net"
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

// freePort is a TCP port nothing listens on at the moment.
func freePort(t testing.TB) int {
	t.Helper()
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer l.Close()
	return l.Addr().(*net.TCPAddr).Port
}

func tlsConfigOf(t testing.TB, files testcerts.Files) nodes.TLSFiles {
	t.Helper()
	return nodes.TLSFiles(files)
}

// startNode starts an in-process sandbox node whose certificate ca
// signed, closed when the test ends; it returns the node and its
// membership endpoint.
func startNode(t testing.TB, ca *testcerts.Authority, name string) (*nodes.Node, string) {
	t.Helper()
	cfg, err := tlsConfigOf(t, ca.Issue(name)).Config()
	if err != nil {
		t.Fatal(err)
	}
	port := freePort(t)
	n, err := nodes.StartNode(nodes.NodeOptions{
		Listen: "127.0.0.1:0", MembershipPort: port, TLS: cfg,
		Workers: sandbox.WorkerOptions{Warm: 1}, RefreshInterval: 200 * time.Millisecond,
	})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { n.Close() })
	return n, net.JoinHostPort("127.0.0.1", itoa(port))
}

// daemon is a daemon's actor system joined to sandbox nodes, running
// Execs on them.
type daemon struct {
	placement *nodes.Placement
	execs     *actors.Execs
}

func startDaemon(t testing.TB, ca *testcerts.Authority, members ...string) *daemon {
	t.Helper()
	cfg, err := tlsConfigOf(t, ca.Issue("daemon")).Config()
	if err != nil {
		t.Fatal(err)
	}
	system := testkit.ActorSystem(t)
	p, err := nodes.Join(system, nodes.DaemonOptions{
		Listen: "127.0.0.1:0", Nodes: members, TLS: cfg, RefreshInterval: 200 * time.Millisecond,
	})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(p.Close)
	execs := actors.NewExecs(system, nil, zerolog.New(zerolog.NewTestWriter(t)))
	execs.PlaceOn(p)
	ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
	defer cancel()
	if err := p.WaitNodes(ctx, len(members)); err != nil {
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

func itoa(n int) string { return json.Number(jsonInt(n)).String() }

func jsonInt(n int) string {
	b, _ := json.Marshal(n)
	return string(b)
}
