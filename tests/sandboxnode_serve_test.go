package tests

import (
	"context"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"testing"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/mcpexec/mcpexec/internal/testcerts"
	"github.com/mcpexec/mcpexec/internal/testkit"
	"github.com/mcpexec/mcpexec/sandbox"
)

// The installable tool end to end with a sandbox node: `mcpexec serve
// --node` and `mcpexec sandbox-node`, real processes over mutual TLS with
// certificates made for the test, serve an SDK client's Exec whose script
// chains two calls to a real MCP server. The result is right; the script
// ran on the node (serve has no sandbox worker process, and one of the
// node's workers read the run); after SIGTERM both exit cleanly and no
// server or worker process is left. The node's start is quiet.
func TestMcpexecServeRunsScriptsOnASandboxNode(t *testing.T) {
	ca := testcerts.NewAuthority(t)
	mark := newRunMark(t)
	node := startSandboxNode(t, ca.Issue("node"), testkit.FreePort(t), testkit.FreePort(t), mark)
	before := workerReads(t, node.cmd.Process.Pid)
	if len(before) == 0 {
		t.Fatal("the sandbox node has no worker process")
	}

	daemon := ca.Issue("daemon")
	g := startHTTPGatewayWith(t, mark, nil, "--node", node.membership, "--node-listen", "127.0.0.1:0",
		"--tls-cert", daemon.Cert, "--tls-key", daemon.Key, "--tls-ca", daemon.CA)
	ctx := context.Background()
	cs := g.connect(t)
	exec := func(code string) *mcp.CallToolResult {
		t.Helper()
		res, err := cs.CallTool(ctx, &mcp.CallToolParams{Name: "Exec", Arguments: map[string]string{"code": code}})
		if err != nil {
			t.Fatalf("Exec: %v (stderr: %s)", err, g.stderr.String())
		}
		return res
	}
	// serve polls membership: until it has seen the node, a run finds no
	// machine, and says so.
	waitFor(t, "serve to see the sandbox node", func() bool {
		return contentText(exec(`return 1`)) != sandbox.MsgNoMachine
	})

	res := exec(`const r = await tools.mcp__srv__fetch({id: 2});
		const s = await tools.mcp__srv__store({value: r.title});
		return s.key + " " + s.stored;`)
	if res.IsError || !strings.Contains(contentText(res), "value-1 Release checklist") {
		t.Errorf("chained script on the node: isError=%v %q (stderr: %s)", res.IsError, contentText(res), g.stderr.String())
	}
	if local := workerReads(t, g.cmd.Process.Pid); len(local) > 0 {
		t.Errorf("serve has sandbox workers of its own: %v", local)
	}
	after := workerReads(t, node.cmd.Process.Pid)
	read := false
	for pid, n := range after {
		read = read || n > before[pid]
	}
	if !read {
		t.Errorf("no worker of the sandbox node read a run: bytes read before %v, after %v", before, after)
	}

	saidWhileServing := node.said()
	if err := g.cmd.Process.Signal(syscall.SIGTERM); err != nil {
		t.Fatal(err)
	}
	if err := waitExit(g.cmd); err != nil {
		t.Errorf("serve after SIGTERM: %v (stderr: %s)", err, g.stderr.String())
	}
	node.stop(syscall.SIGTERM)
	if state := node.cmd.ProcessState; state == nil || !state.Success() {
		t.Errorf("sandbox node after SIGTERM: %v", state)
	}
	// A healthy start and run are quiet: the node says where it listens,
	// and nothing else.
	if said := strings.TrimSpace(saidWhileServing); strings.Count(said, "\n") > 0 || !strings.Contains(said, "sandbox node on") {
		t.Errorf("the sandbox node said more than where it listens:\n%s", said)
	}
	checkNoSurvivors(t, mark)
}

// workerReads returns, for each sandbox worker process whose parent is
// ppid, how many bytes it has read: its run input arrives on a pipe, and an
// idle worker reads nothing.
func workerReads(t *testing.T, ppid int) map[string]int64 {
	t.Helper()
	reads := map[string]int64{}
	eachProcess(t, func(pid string) {
		if parent, _, ok := parentAndState(pid); !ok || parent != strconv.Itoa(ppid) || !hasEnv(pid, "MCPEXEC_SANDBOX_WORKER=1") {
			return
		}
		io, err := os.ReadFile(filepath.Join("/proc", pid, "io"))
		if err != nil {
			return
		}
		for line := range strings.Lines(string(io)) {
			if v, ok := strings.CutPrefix(strings.TrimSpace(line), "rchar: "); ok {
				reads[pid], _ = strconv.ParseInt(v, 10, 64)
			}
		}
	})
	return reads
}
