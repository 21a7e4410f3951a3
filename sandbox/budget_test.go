package sandbox

import (
	"context"
	"encoding/json"
	"strconv"
	"strings"
	"sync/atomic"
	"testing"
	"time"
)

// shortBudget keeps budget tests quick; no test asserts how long a run took.
var shortBudget = Limits{Timeout: 150 * time.Millisecond}

// budgetMessage is what every over-budget failure must convey.
var budgetMessage = []string{"Terminated", "budget", "already completed stay in effect"}

// Proves BUDGET-1.
func TestBUDGET1_SynchronousSpinIsTerminated(t *testing.T) {
	checkNoGoroutineLeak(t)
	// A budget that leaves the run time to reach the log on a busy machine:
	// the spin that follows is what must be ended.
	res := run(newFakeHost(), `console.log("before"); for (;;) {}`, Limits{Timeout: time.Second})
	wantFailure(t, res, budgetMessage...)
	if res.Logs != "before" {
		t.Errorf("logs before the timeout were lost: %q", res.Logs)
	}
}

// Proves BUDGET-2.
func TestBUDGET2_SpinAfterAnAwaitIsTerminated(t *testing.T) {
	checkNoGoroutineLeak(t)
	h := newFakeHost().value("mcp__s__t", `1`)
	res := run(h, `await tools.mcp__s__t({}); while (true) {}`, shortBudget)
	wantFailure(t, res, budgetMessage...)
	if len(h.recorded()) != 1 {
		t.Errorf("the completed call was not made: %v", h.recorded())
	}
}

// Proves BUDGET-3.
func TestBUDGET3_NeverSettlingAwaitIsTerminated(t *testing.T) {
	checkNoGoroutineLeak(t)
	// Awaiting a host call that never answers: the budget ends it, and the
	// call's context is cancelled.
	var cancelled atomic.Bool
	h := newFakeHost().tool("mcp__s__hang", func(ctx context.Context, _ json.RawMessage) (CallResult, error) {
		<-ctx.Done()
		cancelled.Store(true)
		return CallResult{}, ctx.Err()
	})
	res := run(h, `await tools.mcp__s__hang({});`, shortBudget)
	wantFailure(t, res, budgetMessage...)
	if !cancelled.Load() {
		t.Error("the pending host call was not cancelled")
	}
	// Awaiting a promise nothing can settle: no JavaScript runs and no call
	// is pending, so the run ends at once instead of idling to the deadline.
	res = run(h, `await new Promise(() => {});`, Limits{Timeout: time.Hour})
	wantFailure(t, res, "Terminated", "nothing can settle", "already completed stay in effect")
}

// Proves BUDGET-3.
func TestBUDGET3_PromiseJobFloodIsTerminated(t *testing.T) {
	checkNoGoroutineLeak(t)
	for _, code := range []string{
		`for (;;) { await null; }`,
		`const loop = () => Promise.resolve().then(loop); loop(); await new Promise(() => {});`,
		`async function f() { await f(); } await f();`,
	} {
		res := run(newFakeHost(), code, shortBudget)
		if res.OK {
			t.Errorf("%s: succeeded", code)
		}
	}
}

// Proves BUDGET-3.
func TestBUDGET3_BacktrackingRegexpCannotOutliveTheBudget(t *testing.T) {
	checkNoGoroutineLeak(t)
	// A backreference sends the pattern to the backtracking engine, which
	// ignores interrupts; its match timeout and the deadline end the run.
	res := run(newFakeHost(), `return /^(a+)+\1b$/.test("a".repeat(5000));`, shortBudget)
	wantFailure(t, res, budgetMessage...)
}

// Proves BUDGET-3: unbounded recursion ends on the call-depth bound, as a
// failure.
//
// The run has the default budget, which the recursion never reaches (it
// ends within milliseconds): with a short one the test raced the depth
// bound against the clock, and the run's fixed costs (transform, realm)
// alone could spend it on a loaded machine. Were the bound lost, the run
// would end on that budget, and the test would fail.
func TestBUDGET3_UnboundedRecursionFails(t *testing.T) {
	res := run(newFakeHost(), `function f(n) { return f(n + 1) + 1; } return f(0);`, Limits{})
	wantFailure(t, res, "call stack")
}

// Proves BUDGET-4.
func TestBUDGET4_CallCapRejectsOnlyTheOverLimitCall(t *testing.T) {
	h := newFakeHost().value("mcp__s__t", `"ok"`)
	res := run(h, `
		const outcomes = [];
		for (let i = 0; i < 5; i++) {
			try { outcomes.push(await tools.mcp__s__t({ i })); }
			catch (e) { outcomes.push(e.message.startsWith("Call limit reached") ? "capped" : e.message); }
		}
		return outcomes;`, Limits{MaxCalls: 3})
	wantValue(t, res, `["ok","ok","ok","capped","capped"]`)
	if n := len(h.recorded()); n != 3 {
		t.Errorf("host saw %d calls, want 3", n)
	}
	if n := len(res.Calls); n != 5 {
		t.Errorf("result lists %d calls, want all 5 attempts", n)
	}
}

// Proves BUDGET-5.
func TestBUDGET5_ConsoleOutputIsCapped(t *testing.T) {
	res := run(newFakeHost(), `for (let i = 0; i < 10000; i++) console.log("line " + i); return "done";`,
		Limits{MaxLogChars: 100})
	wantOK(t, res)
	if n := len([]rune(res.Logs)); n > 100 {
		t.Errorf("kept %d characters of logs, cap is 100", n)
	}
	total := 0
	for i := 0; i < 10000; i++ {
		total += len("line \n") + len(strconv.Itoa(i))
	}
	if !strings.Contains(res.Text, msgLogTruncated(total)) {
		t.Errorf("text lacks the truncation note with the total %d:\n%s", total, res.Text)
	}
	if !strings.HasSuffix(res.Text, "done") {
		t.Errorf("return value lost behind the logs:\n%s", res.Text)
	}
}

// Proves BUDGET-5.
func TestBUDGET5_HugeSingleLogLineIsCapped(t *testing.T) {
	res := run(newFakeHost(), `console.log({ big: "y".repeat(1 << 20) }); return 1;`, Limits{MaxLogChars: 50})
	wantOK(t, res)
	if n := len([]rune(res.Logs)); n > 50 {
		t.Errorf("kept %d characters, cap is 50", n)
	}
}

// Proves BUDGET-6.
func TestBUDGET6_ReturnValueIsTruncatedWithItsTotal(t *testing.T) {
	res := run(newFakeHost(), `return "x".repeat(1000);`, Limits{MaxResultChars: 100})
	wantOK(t, res)
	want := strings.Repeat("x", 100) + "\n" + msgResultTruncated(1000)
	if res.Text != want {
		t.Errorf("text = %q, want %q", res.Text, want)
	}
	if res.Value != nil {
		t.Errorf("a truncated value must not be offered whole: %q", res.Value)
	}
	res = run(newFakeHost(), `return { list: Array.from({ length: 100 }, (_, i) => i) };`, Limits{MaxResultChars: 20})
	wantOK(t, res)
	full := `{"list":[` + joinInts(100) + `]}`
	if !strings.HasPrefix(res.Text, full[:20]+"\n") || !strings.Contains(res.Text, msgResultTruncated(len(full))) {
		t.Errorf("object truncation wrong:\n%s", res.Text)
	}
}

// Proves BUDGET-6.
func TestBUDGET6_SharedReferenceBombIsBounded(t *testing.T) {
	checkNoGoroutineLeak(t)
	// Forty levels of [a, a] describe 2^40 leaves: the walk must stop at the
	// budget instead of running for days.
	res := run(newFakeHost(), `let a = [1]; for (let i = 0; i < 40; i++) a = [a, a]; return a;`, shortBudget)
	wantFailure(t, res, budgetMessage...)
}

// Proves BUDGET-7.
func TestBUDGET7_ImagesAreCapped(t *testing.T) {
	png := Image{MIMEType: "image/png", Data: []byte{0x89, 'P', 'N', 'G'}}
	h := newFakeHost().tool("mcp__s__shot", func(context.Context, json.RawMessage) (CallResult, error) {
		return CallResult{Images: []Image{png, png}}, nil
	})
	res := run(h, `for (let i = 0; i < 3; i++) await tools.mcp__s__shot({}); return "shots taken";`, Limits{MaxImages: 2})
	wantOK(t, res)
	if len(res.Images) != 2 {
		t.Errorf("kept %d images, want 2", len(res.Images))
	}
	if !strings.Contains(res.Text, msgImagesDropped(4)) {
		t.Errorf("text does not say images were dropped:\n%s", res.Text)
	}
}

// Proves BUDGET-8.
func TestBUDGET8_CancellationEndsTheRun(t *testing.T) {
	checkNoGoroutineLeak(t)
	started := make(chan struct{})
	h := newFakeHost().tool("mcp__s__hang", func(ctx context.Context, _ json.RawMessage) (CallResult, error) {
		close(started)
		<-ctx.Done()
		return CallResult{}, ctx.Err()
	})
	ctx, cancel := context.WithCancel(context.Background())
	go func() { <-started; cancel() }()
	res := Run(ctx, Request{Code: `console.log("waiting"); await tools.mcp__s__hang({}); return "not reached";`,
		Host: h, Tools: NewToolSet(h.names()), Limits: Limits{Timeout: time.Hour}})
	wantFailure(t, res, "Aborted", "already completed stay in effect")
	if res.Logs != "waiting" {
		t.Errorf("logs lost on abort: %q", res.Logs)
	}

	// A spinning script is interrupted too.
	ctx, cancel = context.WithCancel(context.Background())
	time.AfterFunc(20*time.Millisecond, cancel)
	res = Run(ctx, Request{Code: `for (;;) {}`, Host: h, Tools: NewToolSet(nil), Limits: Limits{Timeout: time.Hour}})
	wantFailure(t, res, "Aborted")
}

// Proves BUDGET-8.
func TestBUDGET8_AlreadyCancelledNeverStarts(t *testing.T) {
	h := newFakeHost().value("mcp__s__t", `1`)
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	res := Run(ctx, Request{Code: `await tools.mcp__s__t({}); return 1;`, Host: h, Tools: NewToolSet(h.names())})
	wantFailure(t, res, "Aborted")
	if len(h.recorded()) != 0 {
		t.Errorf("a cancelled run made calls: %v", h.recorded())
	}
}

// Proves BUDGET-9.
func TestBUDGET9_CrashesBecomeFailureResults(t *testing.T) {
	checkNoGoroutineLeak(t)
	h := newFakeHost().value("mcp__s__t", `1`)
	// A panic on the runtime's goroutine (here from the host's OnCall hook).
	res := Run(context.Background(), Request{Code: `await tools.mcp__s__t({});`, Host: h, Tools: NewToolSet(h.names()),
		OnCall: func(string) { panic("observer exploded") }})
	wantFailure(t, res, msgCrashed)
	if strings.Contains(res.Text, "exploded") {
		t.Errorf("panic value leaked to the model: %s", res.Text)
	}
	// A panic inside a host call fails that call only.
	h = newFakeHost().tool("mcp__s__boom", func(context.Context, json.RawMessage) (CallResult, error) {
		panic("host bug")
	})
	res = run(h, `try { await tools.mcp__s__boom({}); } catch (e) { return e.message; }`)
	wantOK(t, res)
	if res.Text != msgHostCallCrashed {
		t.Errorf("text = %q", res.Text)
	}
}

func joinInts(n int) string {
	parts := make([]string, n)
	for i := range parts {
		parts[i] = strconv.Itoa(i)
	}
	return strings.Join(parts, ",")
}
