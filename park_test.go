package mcpexec_test

import (
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"runtime"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/mcpexec/mcpexec"
	"github.com/mcpexec/mcpexec/elicit"
	"github.com/mcpexec/mcpexec/internal/testkit"
	"github.com/mcpexec/mcpexec/internal/testservers"
	"github.com/mcpexec/mcpexec/permissions"
	"github.com/mcpexec/mcpexec/pool"
	"github.com/mcpexec/mcpexec/sandbox"
)

// ledgerRules ask before every write and allow the rest of the ledger.
const ledgerRules = `{"permissions": {"ask": ["mcp__l__write"], "allow": ["mcp__l__read", "mcp__l__ran", "mcp__l__confirm"]}}`

// parkSystem starts a System over the in-memory ledger server with
// settings, whose blocking Prompter fails the test if it is ever asked: a
// run that parks must not ask it.
func parkSystem(t *testing.T, settings string, opts mcpexec.Options) (*mcpexec.System, string) {
	t.Helper()
	before := runtime.NumGoroutine()
	path := filepath.Join(t.TempDir(), "settings.json")
	if err := os.WriteFile(path, []byte(settings), 0o600); err != nil {
		t.Fatal(err)
	}
	opts.Servers = []pool.ServerConfig{{Name: "l", Dial: testservers.DialInMemory(testservers.Ledger())}}
	opts.SettingsPath = path
	opts.Prompter = permissions.PrompterFunc(func(context.Context, permissions.Question) (permissions.Answer, error) {
		t.Error("the blocking Prompter was asked about a call of a run that parks")
		return permissions.Answer{}, nil
	})
	if opts.Limits.Timeout == 0 {
		opts.Limits.Timeout = 10 * time.Second
	}
	if opts.Workers.Warm == 0 {
		opts.Workers.Warm = 1
	}
	sys, err := mcpexec.Start(context.Background(), opts)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		if err := sys.Close(); err != nil {
			t.Error(err)
		}
		testkit.CheckGoroutines(t, before)
	})
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	if err := sys.WaitReady(ctx); err != nil {
		t.Fatal(err)
	}
	return sys, path
}

func codeArgs(code string) json.RawMessage {
	args, _ := json.Marshal(map[string]string{"code": code})
	return args
}

// ledgerRan is what the ledger says ran, read through a plain Exec.
type ledgerRan struct {
	Write   []string `json:"write"`
	Read    int      `json:"read"`
	Confirm int      `json:"confirm"`
}

func ranOnLedger(t *testing.T, sys *mcpexec.System) ledgerRan {
	t.Helper()
	res := sys.Exec(context.Background(), codeArgs(`return await tools.mcp__l__ran({})`), nil)
	if !res.OK {
		t.Fatalf("ran: %s", res.Text)
	}
	var text string
	if err := json.Unmarshal([]byte(res.Text), &text); err != nil {
		text = res.Text
	}
	var ran ledgerRan
	if err := json.Unmarshal([]byte(text), &ran); err != nil {
		t.Fatalf("ran: %v in %s", err, res.Text)
	}
	return ran
}

func pending(t *testing.T, res mcpexec.ExecResult) *mcpexec.Pending {
	t.Helper()
	if res.Pending == nil {
		t.Fatalf("the run did not park: ok=%v %s", res.OK, res.Text)
	}
	return res.Pending
}

func allowAllOnce(p *mcpexec.Pending) map[string]mcpexec.Answer {
	answers := map[string]mcpexec.Answer{}
	for _, q := range p.Questions {
		answers[q.ID] = mcpexec.Answer{Permission: permissions.Answer{Kind: permissions.AllowOnce}}
	}
	return answers
}

// A script that reads, then writes three keys at once under an ask rule,
// parks once with the three questions, each showing the tool's hints;
// answered, the same run resumes: the read is not made again and each
// write runs once.
func TestParkedRunAsksABatchOnceAndReplaysNothing(t *testing.T) {
	sys, _ := parkSystem(t, ledgerRules, mcpexec.Options{})
	ctx := context.Background()
	res := sys.StartRun(ctx, mcpexec.DeclareOptions{}, codeArgs(`
		const seen = await tools.mcp__l__read({key: "a"});
		const done = await Promise.all(["a", "b", "c"].map(key => tools.mcp__l__write({key})));
		return {seen, done};`), nil)
	p := pending(t, res)
	if len(p.Questions) != 3 {
		t.Fatalf("questions = %+v, want the three writes in one round trip", p.Questions)
	}
	var keys []string
	for _, q := range p.Questions {
		if q.Permission == nil || q.Permission.Tool != "mcp__l__write" {
			t.Fatalf("question %+v is not the write's permission question", q)
		}
		if h := q.Permission.Hints; h.Destructive == nil || !*h.Destructive || h.Title != "Write a key" {
			t.Errorf("question hints = %+v, want the write tool's destructive hint and title", h)
		}
		var args struct{ Key string }
		_ = json.Unmarshal(q.Permission.Args, &args)
		keys = append(keys, args.Key)
	}
	slices.Sort(keys)
	if !slices.Equal(keys, []string{"a", "b", "c"}) {
		t.Errorf("the questions are about %v, want a, b and c", keys)
	}
	if ran := ranOnLedger(t, sys); ran.Read != 1 || len(ran.Write) != 0 {
		t.Fatalf("while parked the ledger ran %+v, want one read and no write", ran)
	}
	if st, err := sys.RunStatus(ctx, p.Run); err != nil || st.State != mcpexec.RunInputRequired {
		t.Errorf("RunStatus = %v, %v; want input_required", st.State, err)
	}
	out, err := sys.ResumeRun(ctx, p.Run, allowAllOnce(p), nil)
	if err != nil {
		t.Fatal(err)
	}
	if !out.OK || out.Pending != nil {
		t.Fatalf("resumed run: ok=%v pending=%v %s", out.OK, out.Pending, out.Text)
	}
	if !strings.Contains(out.Text, "wrote a") || !strings.Contains(out.Text, "wrote c") {
		t.Errorf("result = %s, want the writes' replies", out.Text)
	}
	ran := ranOnLedger(t, sys)
	slices.Sort(ran.Write)
	if ran.Read != 1 || !slices.Equal(ran.Write, []string{"a", "b", "c"}) {
		t.Errorf("the ledger ran %+v, want the read once and each write once", ran)
	}
	if len(out.Audit.Calls) != 4 {
		t.Errorf("audit = %+v, want the whole run's four calls", out.Audit)
	}
	// A late caller learns how the run ended.
	again, err := sys.ResumeRun(ctx, p.Run, nil, nil)
	if err != nil || !again.OK || again.Text != out.Text {
		t.Errorf("resuming an ended run = %+v, %v; want its result again", again, err)
	}
}

// Each question of a batch is answered on its own: a refusal is a
// rejection the script can catch, an unanswered question keeps the run
// parked, and "allow always" saves its rule.
func TestParkedRunAnswersEachQuestionOnItsOwn(t *testing.T) {
	sys, settings := parkSystem(t, `{"permissions": {"allow": ["mcp__l__ran"]}}`, mcpexec.Options{})
	ctx := context.Background()
	res := sys.StartRun(ctx, mcpexec.DeclareOptions{}, codeArgs(`
		const outcome = key => tools.mcp__l__write({key}).then(r => r, e => "refused: " + e.message);
		return await Promise.all(["a", "b", "c"].map(outcome));`), nil)
	p := pending(t, res)
	if len(p.Questions) != 3 {
		t.Fatalf("questions = %+v, want three", p.Questions)
	}
	byKey := map[string]string{}
	for _, q := range p.Questions {
		var args struct{ Key string }
		_ = json.Unmarshal(q.Permission.Args, &args)
		byKey[args.Key] = q.ID
	}
	out, err := sys.ResumeRun(ctx, p.Run, map[string]mcpexec.Answer{
		byKey["a"]: {Permission: permissions.Answer{Kind: permissions.Reject, Reason: "not a"}},
	}, nil)
	if err != nil {
		t.Fatal(err)
	}
	left := pending(t, out)
	if len(left.Questions) != 2 {
		t.Fatalf("after one answer the run waits on %+v, want the other two", left.Questions)
	}
	out, err = sys.ResumeRun(ctx, p.Run, map[string]mcpexec.Answer{
		byKey["b"]: {Permission: permissions.Answer{Kind: permissions.AllowOnce}},
		byKey["c"]: {Permission: permissions.Answer{Kind: permissions.AllowAlways}},
	}, nil)
	if err != nil || !out.OK {
		t.Fatalf("resumed: %+v, %v", out, err)
	}
	if !strings.Contains(out.Text, "refused: ") || !strings.Contains(out.Text, "not a") {
		t.Errorf("result = %s, want the caught refusal with the reason", out.Text)
	}
	ran := ranOnLedger(t, sys)
	slices.Sort(ran.Write)
	if !slices.Equal(ran.Write, []string{"b", "c"}) {
		t.Errorf("writes = %v, want b and c only: a refused call never runs", ran.Write)
	}
	// The rule is saved off the run's path.
	deadline := time.Now().Add(30 * time.Second)
	for {
		saved, err := os.ReadFile(settings)
		if err == nil && strings.Contains(string(saved), `"mcp__l__write"`) {
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("settings after allow always = %s, %v; want the write tool allowed", saved, err)
		}
		time.Sleep(10 * time.Millisecond)
	}
}

// A server's question parks the run too: it reaches the caller with its
// schema as the server wrote it, and the answer reaches the server.
func TestParkedRunCarriesAServersQuestion(t *testing.T) {
	sys, _ := parkSystem(t, ledgerRules, mcpexec.Options{})
	ctx := context.Background()
	res := sys.StartRun(ctx, mcpexec.DeclareOptions{}, codeArgs(`return await tools.mcp__l__confirm({what: "x"})`), nil)
	p := pending(t, res)
	if len(p.Questions) != 1 || p.Questions[0].Elicitation == nil {
		t.Fatalf("questions = %+v, want the server's question", p.Questions)
	}
	q := p.Questions[0].Elicitation
	if q.Message != testservers.ConfirmMessage || q.Server != "l" {
		t.Errorf("question = %+v", q)
	}
	fields, err := elicit.Fields(q.Schema)
	if err != nil || len(fields) != 2 || fields[0].Name != "note" && fields[0].Name != "sure" {
		t.Errorf("the form's fields = %+v, %v; want the server's sure and note", fields, err)
	}
	out, err := sys.ResumeRun(ctx, p.Run, map[string]mcpexec.Answer{p.Questions[0].ID: {
		Elicitation: elicit.Response{Action: elicit.Accept, Content: map[string]any{"sure": true}},
	}}, nil)
	if err != nil || !out.OK {
		t.Fatalf("resumed: %+v, %v", out, err)
	}
	if !strings.Contains(out.Text, `"sure":true`) || !strings.Contains(out.Text, `"note":"none"`) {
		t.Errorf("result = %s, want the answer with the form's default filled in", out.Text)
	}
	if ran := ranOnLedger(t, sys); ran.Confirm != 1 {
		t.Errorf("confirm ran %d times, want once", ran.Confirm)
	}
}

// A parked run's budget clock is stopped: it resumes after waiting longer
// than its budget.
func TestParkedRunWaitsOutsideItsBudget(t *testing.T) {
	budget := 300 * time.Millisecond
	sys, _ := parkSystem(t, ledgerRules, mcpexec.Options{Limits: sandbox.Limits{Timeout: budget}})
	ctx := context.Background()
	p := pending(t, sys.StartRun(ctx, mcpexec.DeclareOptions{}, codeArgs(`return await tools.mcp__l__write({key: "k"})`), nil))
	time.Sleep(3 * budget)
	out, err := sys.ResumeRun(ctx, p.Run, allowAllOnce(p), nil)
	if err != nil || !out.OK {
		t.Fatalf("resumed after waiting past the budget: %+v, %v", out, err)
	}
}

// A run that waits past the park timeout is cancelled: the call waiting for
// the answer never runs, and a late answer learns that the run expired.
func TestParkedRunExpires(t *testing.T) {
	sys, _ := parkSystem(t, ledgerRules, mcpexec.Options{ParkTimeout: 200 * time.Millisecond})
	ctx := context.Background()
	p := pending(t, sys.StartRun(ctx, mcpexec.DeclareOptions{}, codeArgs(`return await tools.mcp__l__write({key: "late"})`), nil))
	waitForState(t, sys, p.Run, mcpexec.RunFailed)
	out, err := sys.ResumeRun(ctx, p.Run, allowAllOnce(p), nil)
	if err != nil {
		t.Fatal(err)
	}
	if out.OK || !strings.Contains(out.Text, "Expired:") {
		t.Errorf("a late answer got %+v, want the run's expiry", out)
	}
	if ran := ranOnLedger(t, sys); len(ran.Write) != 0 {
		t.Errorf("writes = %v, want none: the pending call never runs", ran.Write)
	}
}

// A cancelled run ends as cancelled, and its pending call never runs.
func TestParkedRunCancelled(t *testing.T) {
	sys, _ := parkSystem(t, ledgerRules, mcpexec.Options{})
	ctx := context.Background()
	p := pending(t, sys.StartRun(ctx, mcpexec.DeclareOptions{}, codeArgs(`return await tools.mcp__l__write({key: "x"})`), nil))
	if !sys.CancelRun(p.Run) {
		t.Fatal("CancelRun: the run was not going")
	}
	st := waitForState(t, sys, p.Run, mcpexec.RunCancelled)
	if st.Result.OK {
		t.Errorf("a cancelled run's result is OK: %+v", st.Result)
	}
	if ran := ranOnLedger(t, sys); len(ran.Write) != 0 {
		t.Errorf("writes = %v, want none", ran.Write)
	}
	if _, err := sys.ResumeRun(ctx, "run_nosuchrun", nil, nil); err != mcpexec.ErrUnknownRun {
		t.Errorf("resuming an unknown run: %v, want ErrUnknownRun", err)
	}
}

// Parked runs hold their workers: when every worker is held, a new run
// fails at once saying so, and runs again once a parked run is answered.
func TestParkedRunsHoldTheirWorkers(t *testing.T) {
	sys, _ := parkSystem(t, ledgerRules, mcpexec.Options{Workers: sandbox.WorkerOptions{Warm: 1, MaxWorkers: 1}})
	ctx := context.Background()
	p := pending(t, sys.StartRun(ctx, mcpexec.DeclareOptions{}, codeArgs(`return await tools.mcp__l__write({key: "x"})`), nil))
	res := sys.Exec(ctx, codeArgs(`return 1`), nil)
	if res.OK || !strings.Contains(res.Text, "held by a run that waits for the user's answer") {
		t.Fatalf("a run with every worker parked got %+v", res)
	}
	if out, err := sys.ResumeRun(ctx, p.Run, allowAllOnce(p), nil); err != nil || !out.OK {
		t.Fatalf("resumed: %+v, %v", out, err)
	}
	if res := sys.Exec(ctx, codeArgs(`return 1`), nil); !res.OK {
		t.Errorf("after the parked run ended: %+v", res)
	}
}

// waitForState polls the run until it reaches want.
func waitForState(t *testing.T, sys *mcpexec.System, run mcpexec.RunID, want mcpexec.RunState) mcpexec.RunStatus {
	t.Helper()
	deadline := time.Now().Add(30 * time.Second)
	for {
		st, err := sys.RunStatus(context.Background(), run)
		if err != nil {
			t.Fatal(err)
		}
		if st.State == want {
			return st
		}
		if time.Now().After(deadline) {
			t.Fatalf("the run is %s, want %s", st.State, want)
		}
		time.Sleep(10 * time.Millisecond)
	}
}
