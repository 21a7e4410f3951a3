package tests

import (
	"bufio"
	"context"
	"encoding/json"
	"fmt"
	"net"
	"os"
	"os/exec"
	"slices"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/rs/zerolog"

	"github.com/mcpexec/mcpexec"
	"github.com/mcpexec/mcpexec/internal/testcerts"
	"github.com/mcpexec/mcpexec/internal/testkit"
	"github.com/mcpexec/mcpexec/nodes"
	"github.com/mcpexec/mcpexec/sandbox"
)

// sandboxNode is one `mcpexec sandbox-node` process.
type sandboxNode struct {
	cmd        *exec.Cmd
	listen     string // its remote, host:port: what placement reports
	membership string // its membership endpoint, host:port: what the daemon polls
	exited     chan struct{}

	mu     sync.Mutex
	stderr strings.Builder // what it said
}

// said is what the node has written on stderr so far.
func (n *sandboxNode) said() string {
	n.mu.Lock()
	defer n.mu.Unlock()
	return n.stderr.String()
}

// startSandboxNode starts a node process on the given ports, its processes
// marked, and waits until it says it is up.
func startSandboxNode(t *testing.T, files testcerts.Files, listenPort, membershipPort int, mark string) *sandboxNode {
	t.Helper()
	n := &sandboxNode{
		listen:     net.JoinHostPort("127.0.0.1", strconv.Itoa(listenPort)),
		membership: net.JoinHostPort("127.0.0.1", strconv.Itoa(membershipPort)),
		exited:     make(chan struct{}),
	}
	n.cmd = exec.Command(mcpexecBin, "sandbox-node", "--listen", n.listen, "--membership-port", strconv.Itoa(membershipPort),
		"--tls-cert", files.Cert, "--tls-key", files.Key, "--tls-ca", files.CA, "--workers", "2", "--max-workers", "40")
	n.cmd.Env = append(os.Environ(), mark)
	stderr, err := n.cmd.StderrPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := n.cmd.Start(); err != nil {
		t.Fatal(err)
	}
	up := make(chan struct{})
	go func() {
		defer close(n.exited)
		lines := bufio.NewScanner(stderr)
		said := false
		for lines.Scan() {
			n.mu.Lock()
			n.stderr.WriteString(lines.Text() + "\n")
			n.mu.Unlock()
			if !said && strings.Contains(lines.Text(), "sandbox node on") {
				said = true
				close(up)
			}
		}
		_ = n.cmd.Wait()
	}()
	select {
	case <-up:
	case <-n.exited:
		t.Fatalf("sandbox node on %s exited before it was up", n.listen)
	case <-time.After(30 * time.Second):
		t.Fatalf("sandbox node on %s did not come up", n.listen)
	}
	t.Cleanup(func() { n.stop(syscall.SIGKILL) })
	return n
}

// stop signals the node and waits for it to exit.
func (n *sandboxNode) stop(sig syscall.Signal) {
	_ = n.cmd.Process.Signal(sig)
	<-n.exited
}

// placements records the node each run was placed on, by run.
type placements struct {
	mu     sync.Mutex
	byRun  map[int]string
	called map[int]bool // runs that made a nested call
}

type runKey struct{}

func (p *placements) record(ctx context.Context, node string) {
	if run, ok := ctx.Value(runKey{}).(int); ok {
		p.mu.Lock()
		p.byRun[run] = node
		p.mu.Unlock()
	}
}

func (p *placements) node(run int) string {
	p.mu.Lock()
	defer p.mu.Unlock()
	return p.byRun[run]
}

// count returns how many runs were placed, and how many runs placed on
// node made a nested call.
func (p *placements) count(node string) (placed, calling int) {
	p.mu.Lock()
	defer p.mu.Unlock()
	for run, n := range p.byRun {
		if n == node && p.called[run] {
			calling++
		}
	}
	return len(p.byRun), calling
}

func (p *placements) madeCall(run int) {
	p.mu.Lock()
	p.called[run] = true
	p.mu.Unlock()
}

// execRuns runs scripts [first, first+n) concurrently on sys, each under
// a deadline, and returns their results by run.
func execRuns(t *testing.T, sys *mcpexec.System, where *placements, first, n int, script func(run int) string) map[int]mcpexec.ExecResult {
	t.Helper()
	var (
		mu      sync.Mutex
		results = map[int]mcpexec.ExecResult{}
		wg      sync.WaitGroup
	)
	for run := first; run < first+n; run++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			ctx, cancel := context.WithTimeout(context.WithValue(context.Background(), runKey{}, run), time.Minute)
			defer cancel()
			args, _ := json.Marshal(map[string]string{"code": script(run)})
			res := sys.Exec(ctx, args, func(string) { where.madeCall(run) })
			mu.Lock()
			results[run] = res
			mu.Unlock()
		}()
	}
	wg.Wait()
	return results
}

// An end-to-end run of a daemon and three sandbox node processes over
// mutual TLS: a few hundred concurrent Execs spread across the nodes, one
// node killed with SIGKILL mid-run. Every run gets its result: those on the
// killed node fail as lost, the others succeed; new runs avoid the dead
// node; the node restarted rejoins and gets work; a node whose certificate
// another CA signed is listed by membership but never gets a run; no
// process is left.
func TestSandboxNodesSurviveALostMachine(t *testing.T) {
	ca := testcerts.NewAuthority(t)
	mark := newRunMark(t)
	type ports struct{ listen, membership int }
	nodePorts := make([]ports, 4) // the last is the stranger's
	for i := range nodePorts {
		nodePorts[i] = ports{testkit.FreePort(t), testkit.FreePort(t)}
	}
	nodeFiles := make([]testcerts.Files, 3)
	started := make([]*sandboxNode, 3)
	var wg sync.WaitGroup
	for i := range started {
		nodeFiles[i] = ca.Issue(fmt.Sprintf("node-%d", i))
		wg.Add(1)
		go func() {
			defer wg.Done()
			started[i] = startSandboxNode(t, nodeFiles[i], nodePorts[i].listen, nodePorts[i].membership, mark)
		}()
	}
	wg.Wait()
	if t.Failed() {
		return
	}

	daemonTLS, err := nodes.TLSFiles(ca.Issue("daemon")).Config()
	if err != nil {
		t.Fatal(err)
	}
	where := &placements{byRun: map[int]string{}, called: map[int]bool{}}
	settings := writeFile(t, "settings.json", `{"permissions": {"allow": ["mcp__text"]}}`)
	ctx := context.Background()
	logs := &testkit.SyncBuffer{}
	logger := zerolog.New(logs).Level(zerolog.WarnLevel)
	sys, err := mcpexec.Start(ctx, mcpexec.Options{
		Logger:       &logger,
		Servers:      builtinServers("text"),
		SettingsPath: settings,
		Nodes: &nodes.DaemonOptions{
			Listen: "127.0.0.1:0", TLS: daemonTLS, RefreshInterval: 200 * time.Millisecond, OnPlace: where.record,
			Nodes: []string{started[0].membership, started[1].membership, started[2].membership,
				net.JoinHostPort("127.0.0.1", strconv.Itoa(nodePorts[3].membership))},
		},
	})
	if err != nil {
		t.Fatal(err)
	}
	defer sys.Close()
	waitCtx, cancel := context.WithTimeout(ctx, 30*time.Second)
	defer cancel()
	if err := sys.WaitReady(waitCtx); err != nil {
		t.Fatal(err)
	}
	if err := sys.WaitSandboxNodes(waitCtx, 3); err != nil {
		t.Fatalf("the nodes did not join: %v (live: %v)", err, sys.SandboxNodes())
	}

	// Phase 1: runs in flight on every node when one of them is killed.
	// A run sleeps long after its first call, so none on the killed node
	// can finish before the kill, which follows the first call there.
	const concurrent = 240
	victim := started[1]
	slow := func(run int) string {
		return fmt.Sprintf(`const said = await tools.mcp__text__echo({text: "run %d"});
await tools.mcp__text__sleep({ms: 2500});
return said;`, run)
	}
	killed := make(chan struct{})
	go func() {
		defer close(killed)
		deadline := time.Now().Add(45 * time.Second)
		for time.Now().Before(deadline) {
			if _, calling := where.count(victim.listen); calling > 0 {
				victim.stop(syscall.SIGKILL)
				return
			}
			time.Sleep(5 * time.Millisecond)
		}
	}()
	results := execRuns(t, sys, where, 0, concurrent, slow)
	<-killed
	if len(results) != concurrent {
		t.Fatalf("%d results for %d runs", len(results), concurrent)
	}
	perNode := map[string]int{}
	for run := 0; run < concurrent; run++ {
		res, node := results[run], where.node(run)
		perNode[node]++
		switch {
		case node == "":
			t.Errorf("run %d was never placed: %+v", run, res)
		case node == victim.listen:
			if res.OK || res.Text != sandbox.MsgMachineLost {
				t.Errorf("run %d on the killed node: ok=%v %q, want the lost-machine failure", run, res.OK, res.Text)
			}
		default:
			if want := fmt.Sprintf("run %d", run); !res.OK || res.Text != want {
				t.Errorf("run %d on %s: ok=%v %q, want %q", run, node, res.OK, res.Text, want)
			}
		}
	}
	if len(perNode) != 3 {
		t.Errorf("runs per node: %v, want all three nodes used", perNode)
	}
	t.Logf("runs per node: %v", perNode)

	// Phase 2: new runs go to the remaining nodes, and never to a node
	// from another CA, which membership (under the same mutual TLS) never
	// lists although it is up and answering on its membership port.
	stranger := startSandboxNode(t, testcerts.NewAuthority(t).Issue("stranger"), nodePorts[3].listen, nodePorts[3].membership, mark)
	quick := func(run int) string {
		return fmt.Sprintf(`return await tools.mcp__text__echo({text: "run %d"});`, run)
	}
	const later = 30
	results = execRuns(t, sys, where, concurrent, later, quick)
	for run := concurrent; run < concurrent+later; run++ {
		res, node := results[run], where.node(run)
		if want := fmt.Sprintf("run %d", run); !res.OK || res.Text != want {
			t.Errorf("run %d after the kill: ok=%v %q, want %q", run, res.OK, res.Text, want)
		}
		if node == victim.listen || node == stranger.listen {
			t.Errorf("run %d after the kill was placed on %s", run, node)
		}
	}
	if slices.Contains(sys.SandboxNodes(), stranger.listen) {
		t.Errorf("the node from another CA is listed: %v", sys.SandboxNodes())
	}

	// Phase 3: the node restarted on its address rejoins and gets work.
	restarted := startSandboxNode(t, nodeFiles[1], nodePorts[1].listen, nodePorts[1].membership, mark)
	waitForNode(t, sys, restarted.listen)
	// Membership has looked at every node since the stranger started.
	if slices.Contains(sys.SandboxNodes(), stranger.listen) {
		t.Errorf("the node from another CA is listed: %v", sys.SandboxNodes())
	}
	first := concurrent + later
	results = execRuns(t, sys, where, first, later, quick)
	onRestarted := 0
	for run := first; run < first+later; run++ {
		res := results[run]
		if want := fmt.Sprintf("run %d", run); !res.OK || res.Text != want {
			t.Errorf("run %d after the restart: ok=%v %q, want %q", run, res.OK, res.Text, want)
		}
		switch where.node(run) {
		case restarted.listen:
			onRestarted++
		case stranger.listen:
			t.Errorf("run %d was placed on the node from another CA", run)
		}
	}
	if onRestarted == 0 {
		t.Errorf("no run went to the restarted node")
	}

	// Every process of the run goes: the daemon's server, the nodes and
	// all their workers, the killed node's included.
	if err := sys.Close(); err != nil {
		t.Errorf("close: %v", err)
	}
	for _, n := range []*sandboxNode{started[0], started[2], restarted, stranger} {
		n.stop(syscall.SIGTERM)
	}
	deadline := time.Now().Add(10 * time.Second)
	for len(processesMarked(t, mark)) > 0 && time.Now().Before(deadline) {
		time.Sleep(50 * time.Millisecond)
	}
	checkNoSurvivors(t, mark)
}

// waitForNode waits until membership lists the node whose remote listens
// on address.
func waitForNode(t *testing.T, sys *mcpexec.System, address string) {
	t.Helper()
	deadline := time.Now().Add(30 * time.Second)
	for !slices.Contains(sys.SandboxNodes(), address) {
		if time.Now().After(deadline) {
			t.Fatalf("node %s did not join (live: %v)", address, sys.SandboxNodes())
		}
		time.Sleep(20 * time.Millisecond)
	}
}
