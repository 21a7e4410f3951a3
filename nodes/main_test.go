package nodes_test

import (
	"fmt"
	"io"
	"os"
	"strconv"
	"strings"
	"testing"

	"github.com/mcpexec/mcpexec/nodes"
	"github.com/mcpexec/mcpexec/sandbox"
)

// nodeEnv, when set, makes this test binary a sandbox node process (see
// serveTestNode): protoactor's remote sets gRPC's process-wide logger as it
// starts, so each process hosts one remote, as in production.
const nodeEnv = "MCPEXEC_NODES_TEST_NODE"

// TestMain lets this test binary serve as its own sandbox worker process,
// and as a sandbox node process.
func TestMain(m *testing.M) {
	sandbox.MaybeRunWorker()
	if spec := os.Getenv(nodeEnv); spec != "" {
		os.Exit(serveTestNode(spec))
	}
	os.Exit(m.Run())
}

// serveTestNode runs a node from spec (membership port, then the TLS
// certificate, key and CA files, separated by newlines), says "ready" and
// its address on stdout, and stops when stdin closes.
func serveTestNode(spec string) int {
	parts := strings.Split(spec, "\n")
	if len(parts) != 4 {
		fmt.Fprintln(os.Stderr, "bad node spec")
		return 2
	}
	port, _ := strconv.Atoi(parts[0])
	cfg, err := nodes.TLSFiles{Cert: parts[1], Key: parts[2], CA: parts[3]}.Config()
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		return 1
	}
	n, err := nodes.StartNode(nodes.NodeOptions{
		Listen: "127.0.0.1:0", MembershipPort: port, TLS: cfg,
		Workers: sandbox.WorkerOptions{Warm: 1}, RefreshInterval: refreshInterval,
	})
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		return 1
	}
	fmt.Println("ready", n.Address())
	_, _ = io.Copy(io.Discard, os.Stdin)
	n.Close()
	return 0
}
