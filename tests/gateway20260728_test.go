package tests

import (
	"cmp"
	"context"
	"encoding/json"
	"os"
	"os/exec"
	"slices"
	"strings"
	"sync/atomic"
	"syscall"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/mcpexec/mcpexec/internal/testservers"
)

// The gateway at protocol 2026-07-28: a run whose nested calls need the
// person's approval parks, the Exec call returns input_required with the
// questions, and the retry that answers them resumes the same run. The
// ledger server counts what ran, so the tests see that nothing repeats.

// ledgerSettings ask before every ledger write; the rest of the ledger is
// allowed.
const ledgerSettings = `{"permissions": {"ask": ["mcp__ledger__write"], "allow": ["mcp__ledger__read", "mcp__ledger__ran", "mcp__ledger__confirm"]}}`

// threeWrites reads once, then writes three keys at once; each refusal is
// caught and reported.
const threeWrites = `await tools.mcp__ledger__read({key: "before"});
const r = await Promise.all(["a", "b", "c"].map(k =>
	tools.mcp__ledger__write({key: k}).then(() => "wrote " + k, e => "refused " + k + ": " + e.message)));
return r.join("\n");`

// ledgerGateway is `mcpexec serve` over the ledger server, reached over
// HTTP or stdio, and its settings file.
type ledgerGateway struct {
	settings string
	// dial connects client at version ("": the SDK's latest); wire, if
	// set, records what the gateway sends it. Over stdio each client has
	// a gateway process of its own.
	dial func(t *testing.T, client *mcp.Client, version string, wire *wireRecord) *mcp.ClientSession
}

// connect connects a client at version ("": the SDK's latest).
func (g *ledgerGateway) connect(t *testing.T, version string, opts *mcp.ClientOptions) *mcp.ClientSession {
	t.Helper()
	return g.dial(t, mcp.NewClient(&mcp.Implementation{Name: "e2e", Version: "1"}, opts), version, nil)
}

// startLedgerGateway starts serve over the ledger with ledgerSettings and
// flags, on transport "http" or "stdio".
func startLedgerGateway(t *testing.T, transport string, flags ...string) *ledgerGateway {
	t.Helper()
	return startLedgerGatewayWith(t, transport, ledgerSettings, flags...)
}

// startLedgerGatewayWith is startLedgerGateway with settings of its own.
func startLedgerGatewayWith(t *testing.T, transport, settings string, flags ...string) *ledgerGateway {
	t.Helper()
	mark := newRunMark(t)
	t.Cleanup(func() { checkNoSurvivors(t, mark) }) // last, after the gateway stopped
	servers := writeServers(t, map[string]any{"ledger": testServer(testservers.LedgerCommand())})
	g := &ledgerGateway{settings: writeFile(t, "settings.json", settings)}
	args := append([]string{"serve", "--servers", servers, "--settings", g.settings}, flags...)
	switch transport {
	case "http":
		h := startHTTPGatewayArgs(t, mark, nil, args)
		t.Cleanup(func() {
			_ = h.cmd.Process.Signal(syscall.SIGTERM)
			if err := waitExit(h.cmd); err != nil {
				t.Errorf("serve did not stop cleanly: %v (stderr: %s)", err, h.stderr)
			}
		})
		g.dial = func(t *testing.T, client *mcp.Client, version string, wire *wireRecord) *mcp.ClientSession {
			t.Helper()
			cs, err := client.Connect(context.Background(),
				&mcp.StreamableClientTransport{Endpoint: h.url, HTTPClient: wire.httpClient()}, &mcp.ClientSessionOptions{ProtocolVersion: version})
			if err != nil {
				t.Fatalf("connect: %v (stderr: %s)", err, h.stderr)
			}
			t.Cleanup(func() { _ = cs.Close() })
			return cs
		}
	case "stdio":
		g.dial = func(t *testing.T, client *mcp.Client, version string, wire *wireRecord) *mcp.ClientSession {
			t.Helper()
			cmd := exec.Command(mcpexecBin, args...)
			cmd.Env = append(os.Environ(), mark)
			cs, err := client.Connect(context.Background(),
				wire.transport(&mcp.CommandTransport{Command: cmd}), &mcp.ClientSessionOptions{ProtocolVersion: version})
			if err != nil {
				t.Fatalf("connect: %v", err)
			}
			t.Cleanup(func() { _ = cs.Close() })
			return cs
		}
	}
	return g
}

// callExec calls Exec with code (and, on a retry, the answers and state).
func callExec(t *testing.T, cs *mcp.ClientSession, code string, answers mcp.InputResponseMap, state string) (*mcp.CallToolResult, error) {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), runLimit)
	defer cancel()
	return cs.CallTool(ctx, &mcp.CallToolParams{Name: "Exec", Arguments: map[string]string{"code": code},
		InputResponses: answers, RequestState: state})
}

// ledgerRan is what the ledger ran so far, read through Exec.
type ledgerRan struct {
	Write   []string `json:"write"`
	Read    int      `json:"read"`
	Confirm int      `json:"confirm"`
}

func readLedger(t *testing.T, cs *mcp.ClientSession) ledgerRan {
	t.Helper()
	res, err := callExec(t, cs, `return await tools.mcp__ledger__ran({})`, nil, "")
	if err != nil || res.IsError {
		t.Fatalf("reading the ledger: %v %+v", err, res)
	}
	var ran ledgerRan
	if err := json.Unmarshal([]byte(contentText(res)), &ran); err != nil {
		t.Fatalf("the ledger says %q: %v", contentText(res), err)
	}
	slices.Sort(ran.Write)
	return ran
}

// answer is an approval form's answer.
func answer(choice string) *mcp.ElicitResult {
	return &mcp.ElicitResult{Action: "accept", Content: map[string]any{"answer": choice}}
}

// noElicitation declares elicitation but fails the test if the client is
// ever asked within a call: at 2026-07-28 questions come as input_required.
func noElicitation(t *testing.T) func(context.Context, *mcp.ElicitRequest) (*mcp.ElicitResult, error) {
	return func(context.Context, *mcp.ElicitRequest) (*mcp.ElicitResult, error) {
		t.Error("the client was asked within the call")
		return &mcp.ElicitResult{Action: "decline"}, nil
	}
}

// A client of 2026-07-28 that handles input_required itself (its SDK's
// multi round-trip middleware off), over HTTP and over stdio: three writes
// made together come back as three questions in one round trip, showing
// the tool's annotations; a tampered requestState is refused and runs
// nothing; the retry resumes the same run (the read made before the
// questions is not repeated), each answer counts on its own (a decline is
// a refusal the script catches), and "allow always" saves its rule.
func TestGatewayServes20260728InputRequiredRoundTrip(t *testing.T) {
	for _, transport := range []string{"http", "stdio"} {
		t.Run(transport, func(t *testing.T) {
			g := startLedgerGateway(t, transport)
			cs := g.connect(t, "", &mcp.ClientOptions{MultiRoundTrip: &mcp.MultiRoundTripOptions{Disabled: true}, ElicitationHandler: noElicitation(t)})
			if v := cs.InitializeResult().ProtocolVersion; v != "2026-07-28" {
				t.Fatalf("negotiated %q, want 2026-07-28", v)
			}
			res, err := callExec(t, cs, threeWrites, nil, "")
			if err != nil {
				t.Fatal(err)
			}
			if !res.NeedsInput() || len(res.InputRequests) != 3 || res.RequestState == "" || len(res.Content) != 0 {
				t.Fatalf("want input_required with three questions and a requestState, got %+v", res)
			}
			var ids []string
			for id, ir := range res.InputRequests {
				ids = append(ids, id)
				q, ok := ir.(*mcp.ElicitParams)
				if !ok || !strings.Contains(q.Message, "mcp__ledger__write") || !strings.Contains(q.Message, "destructive") {
					t.Errorf("question %s: %+v, want the write and its destructive hint", id, ir)
				}
			}
			slices.Sort(ids)

			tampered := []byte(res.RequestState)
			tampered[len(tampered)/2] ^= 1
			all := mcp.InputResponseMap{ids[0]: answer("allow once"), ids[1]: answer("allow once"), ids[2]: answer("allow once")}
			if bad, err := callExec(t, cs, threeWrites, all, string(tampered)); err == nil || !strings.Contains(err.Error(), "requestState does not verify") {
				t.Errorf("a tampered requestState: %v %+v, want it refused", err, bad)
			}
			if ran := readLedger(t, cs); len(ran.Write) != 0 || ran.Read != 1 {
				t.Errorf("after the refused retry the ledger ran %+v, want the one read alone", ran)
			}

			answers := mcp.InputResponseMap{
				ids[0]: answer("allow always"),
				ids[1]: answer("allow once"),
				ids[2]: &mcp.ElicitResult{Action: "decline"},
			}
			res, err = callExec(t, cs, threeWrites, answers, res.RequestState)
			if err != nil || res.NeedsInput() || res.IsError {
				t.Fatalf("the answered retry: %v %+v", err, res)
			}
			text := contentText(res)
			if strings.Count(text, "wrote ") != 2 || strings.Count(text, "refused ") != 1 || !strings.Contains(text, "declined") {
				t.Errorf("the script's result:\n%s\nwant two writes and one caught refusal", text)
			}
			if ran := readLedger(t, cs); len(ran.Write) != 2 || ran.Read != 1 {
				t.Errorf("the ledger ran %+v, want two writes and the one read (nothing repeated)", ran)
			}
			settings, err := os.ReadFile(g.settings)
			if err != nil {
				t.Fatal(err)
			}
			var saved struct {
				Permissions struct {
					Allow []string `json:"allow"`
				} `json:"permissions"`
			}
			if err := json.Unmarshal(settings, &saved); err != nil || !slices.Contains(saved.Permissions.Allow, "mcp__ledger__write") {
				t.Errorf("allow always saved no rule: %s", settings)
			}
		})
	}
}

// With its SDK's multi round-trip middleware on, a client of 2026-07-28
// never sees input_required: its elicitation handler answers the three
// questions and the call returns the run's end, over HTTP and stdio. A
// client of 2025-11-25 over HTTP gets the same questions within the call,
// in its session.
func TestGatewayServes20260728TransparentlyToTheSDKMiddleware(t *testing.T) {
	for _, v := range []struct{ transport, version string }{{"http", ""}, {"stdio", ""}, {"http", "2025-11-25"}} {
		t.Run(v.transport+"/"+cmp.Or(v.version, "latest"), func(t *testing.T) {
			g := startLedgerGateway(t, v.transport)
			var asked atomic.Int32
			cs := g.connect(t, v.version, &mcp.ClientOptions{ElicitationHandler: func(_ context.Context, req *mcp.ElicitRequest) (*mcp.ElicitResult, error) {
				asked.Add(1)
				return answer("allow once"), nil
			}})
			if want := cmp.Or(v.version, "2026-07-28"); cs.InitializeResult().ProtocolVersion != want {
				t.Fatalf("negotiated %q, want %s", cs.InitializeResult().ProtocolVersion, want)
			}
			res, err := callExec(t, cs, threeWrites, nil, "")
			if err != nil || res.IsError || res.NeedsInput() {
				t.Fatalf("Exec: %v %+v", err, res)
			}
			if text := contentText(res); strings.Count(text, "wrote ") != 3 {
				t.Errorf("the script's result:\n%s\nwant three writes", text)
			}
			if n := asked.Load(); n != 3 {
				t.Errorf("the client was asked %d questions, want 3", n)
			}
			if ran := readLedger(t, cs); len(ran.Write) != 3 || ran.Read != 1 {
				t.Errorf("the ledger ran %+v, want three writes and one read", ran)
			}
		})
	}
}

// A parked run that waits longer than --park-timeout is cancelled: the
// answer that comes after gets a failure saying the run expired, and the
// write it waited on never runs.
func TestGatewayExpiredParkFailsClearly(t *testing.T) {
	g := startLedgerGateway(t, "http", "--park-timeout", "50ms")
	cs := g.connect(t, "", &mcp.ClientOptions{MultiRoundTrip: &mcp.MultiRoundTripOptions{Disabled: true}, ElicitationHandler: noElicitation(t)})
	res, err := callExec(t, cs, `return await tools.mcp__ledger__write({key: "late"})`, nil, "")
	if err != nil || !res.NeedsInput() || len(res.InputRequests) != 1 {
		t.Fatalf("want one question: %v %+v", err, res)
	}
	time.Sleep(time.Second) // twenty park timeouts
	answers := mcp.InputResponseMap{}
	for id := range res.InputRequests {
		answers[id] = answer("allow once")
	}
	res, err = callExec(t, cs, `return await tools.mcp__ledger__write({key: "late"})`, answers, res.RequestState)
	if err != nil || !res.IsError || !strings.Contains(contentText(res), "Expired: the run waited longer than it may for the user's answer") {
		t.Fatalf("the late answer: %v %+v, want a failure saying the run expired", err, res)
	}
	if ran := readLedger(t, cs); len(ran.Write) != 0 {
		t.Errorf("the ledger ran %+v, want no write", ran)
	}
}

// A server's own question (the ledger's confirm asks one) reaches a client
// of 2026-07-28 as an input request with its form intact and its message
// under a line naming the server, and the answer goes back to the server
// unchanged but for the form's defaults.
func TestGatewayPassesAServersQuestionAsAnInputRequest(t *testing.T) {
	g := startLedgerGateway(t, "http")
	cs := g.connect(t, "", &mcp.ClientOptions{MultiRoundTrip: &mcp.MultiRoundTripOptions{Disabled: true}, ElicitationHandler: noElicitation(t)})
	const code = `return await tools.mcp__ledger__confirm({what: "entry"})`
	res, err := callExec(t, cs, code, nil, "")
	if err != nil || !res.NeedsInput() || len(res.InputRequests) != 1 {
		t.Fatalf("want one question: %v %+v", err, res)
	}
	answers := mcp.InputResponseMap{}
	for id, ir := range res.InputRequests {
		q, ok := ir.(*mcp.ElicitParams)
		schema, _ := json.Marshal(q.RequestedSchema)
		if !ok || !strings.Contains(q.Message, testservers.ConfirmMessage) || !strings.Contains(q.Message, `"ledger"`) || !strings.Contains(string(schema), `"sure"`) || !strings.Contains(string(schema), `"default":"none"`) {
			t.Errorf("the server's question: %+v (schema %s)", ir, schema)
		}
		answers[id] = &mcp.ElicitResult{Action: "accept", Content: map[string]any{"sure": true}}
	}
	res, err = callExec(t, cs, code, answers, res.RequestState)
	if err != nil || res.IsError || res.NeedsInput() {
		t.Fatalf("the answered retry: %v %+v", err, res)
	}
	if text := contentText(res); !strings.Contains(text, `"action":"accept"`) || !strings.Contains(text, `"sure":true`) || !strings.Contains(text, `"note":"none"`) {
		t.Errorf("the server got %s, want the answer with the form's default", text)
	}
	if ran := readLedger(t, cs); ran.Confirm != 1 {
		t.Errorf("the ledger ran %+v, want one confirm", ran)
	}
}
