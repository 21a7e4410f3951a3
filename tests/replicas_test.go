package tests

import (
	"context"
	"net"
	"slices"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"testing"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/mcpexec/mcpexec/internal/testcerts"
	"github.com/mcpexec/mcpexec/internal/testkit"
	"github.com/mcpexec/mcpexec/internal/testservers"
)

// Two `mcpexec serve` replicas, as behind a load balancer: a client of
// 2026-07-28 whose call parked on one replica sends its retry to the
// other, which passes it to the replica holding the run over the replica
// mesh (mutual TLS, a shared requestState key).

// replica is one running serve replica, its mesh address and its process
// mark.
type replica struct {
	*httpGateway
	address string
}

// startReplicas starts two serve replicas over the ledger server, each
// the other's peer, sharing one requestState key and one CA.
func startReplicas(t *testing.T) (a, b *replica) {
	t.Helper()
	ca := testcerts.NewAuthority(t)
	servers := writeServers(t, map[string]any{"ledger": testServer(testservers.LedgerCommand())})
	settings := writeFile(t, "settings.json", ledgerSettings)
	key := writeFile(t, "state.key", "6f1d0c0b7e8a4d2f9a3b5c7d1e2f4a6b8c0d2e4f6a8b0c2d4e6f8a0b2c4d6e8f\n")
	addrA := net.JoinHostPort("127.0.0.1", strconv.Itoa(testkit.FreePort(t)))
	addrB := net.JoinHostPort("127.0.0.1", strconv.Itoa(testkit.FreePort(t)))
	start := func(name, listen, peer string) *replica {
		mark := newRunMark(t)
		t.Cleanup(func() { checkNoSurvivors(t, mark) }) // last, after the replica stopped
		files := ca.Issue(name)
		h := startHTTPGatewayArgs(t, mark, nil, []string{"serve", "--servers", servers, "--settings", settings,
			"--state-key-file", key, "--replica-listen", listen, "--replica-peer", peer,
			"--tls-cert", files.Cert, "--tls-key", files.Key, "--tls-ca", files.CA})
		t.Cleanup(func() {
			if h.cmd.ProcessState != nil {
				return // killed by the test
			}
			_ = h.cmd.Process.Signal(syscall.SIGTERM)
			if err := waitExit(h.cmd); err != nil {
				t.Errorf("replica %s did not stop cleanly: %v (stderr: %s)", name, err, h.stderr)
			}
		})
		return &replica{httpGateway: h, address: listen}
	}
	return start("a", addrA, addrB), start("b", addrB, addrA)
}

// client connects a client of 2026-07-28 that handles input_required
// itself to r; every client here has the same name and credentials, so the
// replicas know them as one client. progress, if set, hears the progress
// notifications.
func (r *replica) client(t *testing.T, progress func(string)) *mcp.ClientSession {
	t.Helper()
	opts := &mcp.ClientOptions{MultiRoundTrip: &mcp.MultiRoundTripOptions{Disabled: true}, ElicitationHandler: noElicitation(t)}
	if progress != nil {
		opts.ProgressNotificationHandler = func(_ context.Context, req *mcp.ProgressNotificationClientRequest) {
			progress(req.Params.Message)
		}
	}
	cs, err := mcp.NewClient(&mcp.Implementation{Name: "e2e", Version: "1"}, opts).Connect(context.Background(),
		&mcp.StreamableClientTransport{Endpoint: r.url}, nil)
	if err != nil {
		t.Fatalf("connect: %v (stderr: %s)", err, r.stderr)
	}
	t.Cleanup(func() { _ = cs.Close() })
	if v := cs.InitializeResult().ProtocolVersion; v != "2026-07-28" {
		t.Fatalf("negotiated %q, want 2026-07-28", v)
	}
	return cs
}

// writesThenConfirm reads once, writes three keys at once (each refusal
// caught), then asks the ledger's own question: two rounds of questions.
const writesThenConfirm = `await tools.mcp__ledger__read({key: "before"});
const r = await Promise.all(["a", "b", "c"].map(k =>
	tools.mcp__ledger__write({key: k}).then(() => "wrote " + k, e => "refused " + k + ": " + e.message)));
const c = await tools.mcp__ledger__confirm({what: "entry"});
return r.join("\n") + "\n" + JSON.stringify(c);`

// ids are the keys of an input_required result's questions, sorted.
func ids(res *mcp.CallToolResult) []string {
	var out []string
	for id := range res.InputRequests {
		out = append(out, id)
	}
	slices.Sort(out)
	return out
}

// A run parked on replica A is answered through replica B: B passes the
// retry to A, where the same run goes on (the read made before the
// questions is not repeated, B's ledger never runs anything), the run's
// next question (the ledger's own) comes back through B with a
// requestState that still names A, and so does its result. B relays A's
// live summary as progress. A forged requestState sent to B runs nothing
// anywhere.
func TestGatewayReplicaResumesARunParkedOnAnother(t *testing.T) {
	a, b := startReplicas(t)
	var mu sync.Mutex
	var progressB []string
	csA := a.client(t, nil)
	csB := b.client(t, func(s string) {
		mu.Lock()
		progressB = append(progressB, s)
		mu.Unlock()
	})

	res, err := callExec(t, csA, writesThenConfirm, nil, "")
	if err != nil || !res.NeedsInput() || len(res.InputRequests) != 3 {
		t.Fatalf("the first call, on A: %v %+v, want three questions (stderr: %s)", err, res, a.stderr)
	}
	q := ids(res)

	forged := []byte(res.RequestState)
	forged[len(forged)/2] ^= 1
	all := mcp.InputResponseMap{q[0]: answer("allow once"), q[1]: answer("allow once"), q[2]: answer("allow once")}
	if bad, err := callExec(t, csB, writesThenConfirm, all, string(forged)); err == nil || !strings.Contains(err.Error(), "requestState does not verify") {
		t.Errorf("a forged requestState on B: %v %+v, want it refused", err, bad)
	}
	if ran := readLedger(t, csA); len(ran.Write) != 0 || ran.Read != 1 {
		t.Errorf("after the forged retry A's ledger ran %+v, want the one read alone", ran)
	}

	answers := mcp.InputResponseMap{q[0]: answer("allow once"), q[1]: answer("allow once"), q[2]: &mcp.ElicitResult{Action: "decline"}}
	ctx, cancel := context.WithTimeout(context.Background(), runLimit)
	defer cancel()
	res, err = csB.CallTool(ctx, &mcp.CallToolParams{Name: "Exec", Arguments: map[string]string{"code": writesThenConfirm},
		InputResponses: answers, RequestState: res.RequestState, Meta: mcp.Meta{"progressToken": "replicas"}})
	if err != nil || !res.NeedsInput() || len(res.InputRequests) != 1 || res.RequestState == "" {
		t.Fatalf("the retry on B: %v %+v, want the ledger's own question next (stderr A: %s\nB: %s)", err, res, a.stderr, b.stderr)
	}
	confirm := ids(res)[0]
	if p, ok := res.InputRequests[confirm].(*mcp.ElicitParams); !ok || !strings.Contains(p.Message, testservers.ConfirmMessage) {
		t.Errorf("the next question: %+v, want the ledger's", res.InputRequests[confirm])
	}
	// The SDK's client hands notifications to their handler on a goroutine
	// of their own, so the result can come before the progress sent ahead
	// of it is heard.
	waitFor(t, "B's client to hear A's live summary with the writes", func() bool {
		mu.Lock()
		defer mu.Unlock()
		return strings.Contains(strings.Join(progressB, "\n"), "mcp__ledger__write")
	})

	res, err = callExec(t, csB, writesThenConfirm, mcp.InputResponseMap{confirm: &mcp.ElicitResult{Action: "accept", Content: map[string]any{"sure": true}}}, res.RequestState)
	if err != nil || res.IsError || res.NeedsInput() {
		t.Fatalf("the second retry on B: %v %+v", err, res)
	}
	text := contentText(res)
	if strings.Count(text, "wrote ") != 2 || strings.Count(text, "refused ") != 1 || !strings.Contains(text, `\"sure\":true`) {
		t.Errorf("the script's result:\n%s\nwant two writes, one caught refusal and the confirmation", text)
	}
	if ran := readLedger(t, csA); len(ran.Write) != 2 || ran.Read != 1 || ran.Confirm != 1 {
		t.Errorf("A's ledger ran %+v, want two writes, one read and one confirm (nothing repeated)", ran)
	}
	if ran := readLedger(t, csB); len(ran.Write) != 0 || ran.Read != 0 || ran.Confirm != 0 {
		t.Errorf("B's ledger ran %+v, want nothing: the run lives on A", ran)
	}
}

// A retry that names a replica that is gone (A killed while its run was
// parked) fails on B saying the run was lost with its replica, and runs
// nothing.
func TestGatewayReplicaGoneLosesItsParkedRuns(t *testing.T) {
	a, b := startReplicas(t)
	csA, csB := a.client(t, nil), b.client(t, nil)
	const write = `return await tools.mcp__ledger__write({key: "lost"})`
	res, err := callExec(t, csA, write, nil, "")
	if err != nil || !res.NeedsInput() || len(res.InputRequests) != 1 {
		t.Fatalf("the first call, on A: %v %+v", err, res)
	}
	if err := a.cmd.Process.Signal(syscall.SIGKILL); err != nil {
		t.Fatal(err)
	}
	_ = a.cmd.Wait()
	res, err = callExec(t, csB, write, mcp.InputResponseMap{ids(res)[0]: answer("allow once")}, res.RequestState)
	if err != nil || !res.IsError {
		t.Fatalf("the retry on B: %v %+v, want a failure", err, res)
	}
	text := contentText(res)
	if !strings.Contains(text, "Run lost") || !strings.Contains(text, a.address) || !strings.Contains(text, "gone") || strings.Contains(text, "Unknown run") {
		t.Errorf("the retry on B: %q, want it to say the run was lost with replica %s", text, a.address)
	}
	if ran := readLedger(t, csB); len(ran.Write) != 0 {
		t.Errorf("B's ledger ran %+v, want nothing", ran)
	}
}
