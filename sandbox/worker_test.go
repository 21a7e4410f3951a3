package sandbox

import (
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"
)

// newTestWorkers starts a pool and stops it at cleanup, checking that no
// worker process outlives it.
func newTestWorkers(t *testing.T, opts WorkerOptions) *Workers {
	t.Helper()
	checkNoGoroutineLeak(t)
	before := childProcesses(t)
	p, err := NewWorkers(opts)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		if err := p.Close(); err != nil {
			t.Error(err)
		}
		if after := childProcesses(t); len(after) > len(before) {
			t.Errorf("worker processes survived Close: %v (before: %v)", after, before)
		}
	})
	return p
}

// childProcesses lists the live (not zombie) children of this process.
func childProcesses(t *testing.T) []int {
	t.Helper()
	entries, err := os.ReadDir("/proc")
	if err != nil {
		t.Fatal(err)
	}
	self := os.Getpid()
	var kids []int
	for _, e := range entries {
		pid, err := strconv.Atoi(e.Name())
		if err != nil {
			continue
		}
		stat, err := os.ReadFile(filepath.Join("/proc", e.Name(), "stat"))
		if err != nil {
			continue
		}
		// Fields after the command, which is in parentheses: state, ppid.
		rest := string(stat[strings.LastIndexByte(string(stat), ')')+2:])
		fields := strings.Fields(rest)
		if len(fields) < 2 || fields[0] == "Z" {
			continue
		}
		if ppid, _ := strconv.Atoi(fields[1]); ppid == self {
			kids = append(kids, pid)
		}
	}
	return kids
}

func openFDs(t *testing.T) int {
	t.Helper()
	entries, err := os.ReadDir("/proc/self/fd")
	if err != nil {
		t.Fatal(err)
	}
	return len(entries)
}

func workerRun(p *Workers, h *fakeHost, code string, limits Limits) Result {
	return p.Run(context.Background(), Request{Code: code, Host: h, Tools: NewToolSet(h.names()), Limits: limits})
}

func TestWorkerRunsOverBothTransports(t *testing.T) {
	for _, inProcess := range []bool{false, true} {
		t.Run("inProcess="+strconv.FormatBool(inProcess), func(t *testing.T) {
			p := newTestWorkers(t, WorkerOptions{InProcess: inProcess, Warm: 1})
			png := Image{MIMEType: "image/png", Data: []byte("png-bytes")}
			h := newFakeHost().
				value("mcp__srv__fetch", `{"id":1,"title":"first"}`).
				tool("mcp__srv__store", func(_ context.Context, args json.RawMessage) (CallResult, error) {
					return CallResult{Value: args, Images: []Image{png}}, nil
				})
			h.search = func(json.RawMessage) (json.RawMessage, error) {
				return json.RawMessage(`[{"name":"mcp__srv__fetch"}]`), nil
			}
			var live []string
			var mu sync.Mutex
			res := p.Run(context.Background(), Request{
				Host: h, Tools: NewToolSet(h.names()),
				OnCall: func(name string) { mu.Lock(); live = append(live, name); mu.Unlock() },
				Code: `
					const found = await tools["$codemode"].search({ query: "fetch" });
					const a = await tools[found[0].name]({ id: 1 });
					console.log("fetched", a.title);
					return await tools.mcp__srv__store({ value: a });`,
			})
			wantValue(t, res, `{"value":{"id":1,"title":"first"}}`)
			if res.Logs != "fetched first" {
				t.Errorf("logs %q", res.Logs)
			}
			if len(res.Images) != 1 || string(res.Images[0].Data) != "png-bytes" {
				t.Errorf("images %+v", res.Images)
			}
			want := []string{SearchCallName, "mcp__srv__fetch", "mcp__srv__store"}
			if strings.Join(res.Calls, ",") != strings.Join(want, ",") || strings.Join(live, ",") != strings.Join(want, ",") {
				t.Errorf("calls %v, live %v", res.Calls, live)
			}
			// The same worker serves the next run with a fresh runtime.
			res = workerRun(p, h, `return typeof globalThis.leftover === "undefined" ? (globalThis.leftover = 1, "fresh") : "reused";`, Limits{})
			wantValue(t, res, `"fresh"`)
			res = workerRun(p, h, `return typeof globalThis.leftover === "undefined" ? "fresh" : "reused";`, Limits{})
			wantValue(t, res, `"fresh"`)
		})
	}
}

// Proves BUDGET-1, BUDGET-2, BUDGET-3.
func TestBUDGET1_BUDGET2_BUDGET3_TerminatedInWorkers(t *testing.T) {
	p := newTestWorkers(t, WorkerOptions{Warm: 1})
	h := newFakeHost().value("mcp__s__t", `1`).tool("mcp__s__hang", func(ctx context.Context, _ json.RawMessage) (CallResult, error) {
		<-ctx.Done()
		return CallResult{}, ctx.Err()
	})
	for name, code := range map[string]string{
		"BUDGET-1 synchronous spin":   `console.log("spinning"); for (;;) {}`,
		"BUDGET-2 spin after await":   `console.log("spinning"); await tools.mcp__s__t({}); for (;;) {}`,
		"BUDGET-3 never-settling":     `console.log("spinning"); await tools.mcp__s__hang({});`,
		"promise job flood":           `console.log("spinning"); for (;;) await null;`,
		"backtracking regexp":         `console.log("spinning"); /^(a+)+\1b$/.test("a".repeat(5000));`,
		"native built-in beyond time": `console.log("spinning"); [1].fill(0, 0, 2 ** 31); const s = "ab".repeat(1 << 27); s.split(""); for (;;) {}`,
	} {
		t.Run(name, func(t *testing.T) {
			res := workerRun(p, h, code, Limits{Timeout: 200 * time.Millisecond})
			if res.OK {
				t.Fatalf("succeeded: %s", res.Text)
			}
			if !strings.HasPrefix(res.Text, "spinning\n\n") {
				t.Errorf("logs before the end were lost: %q", res.Text)
			}
			if !strings.Contains(res.Text, "stay in effect") {
				t.Errorf("failure does not say completed calls stay in effect: %q", res.Text)
			}
		})
	}
}

// Proves BUDGET-8.
func TestBUDGET8_AbortKillsTheWorker(t *testing.T) {
	p := newTestWorkers(t, WorkerOptions{Warm: 1})
	h := newFakeHost().value("mcp__s__t", `1`)
	ctx, cancel := context.WithCancel(context.Background())
	var once sync.Once
	res := p.Run(ctx, Request{Code: `await tools.mcp__s__t({}); console.log("called"); for (;;) {}`, Host: h, Tools: NewToolSet(h.names()),
		OnLog: func(string) { once.Do(cancel) }, Limits: Limits{Timeout: time.Hour}})
	wantFailure(t, res, "Aborted", "stay in effect")
	if res.Logs != "called" || len(res.Calls) != 1 {
		t.Errorf("what happened before the abort was lost: logs %q calls %v", res.Logs, res.Calls)
	}
	// The pool goes on serving.
	wantValue(t, workerRun(p, h, `return 1 + 1`, Limits{}), `2`)
	// Cancelled before the start: nothing runs.
	res = p.Run(ctx, Request{Code: `await tools.mcp__s__t({})`, Host: h, Tools: NewToolSet(h.names())})
	wantFailure(t, res, "Aborted")
}

// hostileScripts each kill or wedge a Go process that runs goja directly.
var hostileScripts = map[string]string{
	"huge repeat":          `"x".repeat(2 ** 40);`,
	"huge ArrayBuffer":     `new ArrayBuffer(2 ** 40);`,
	"huge padStart":        `"x".padStart(2 ** 40);`,
	"deep JSON.parse":      `JSON.parse("[".repeat(1e6) + "]".repeat(1e6));`,
	"runaway push":         `const a = []; for (;;) a.push({ i: a.length, pad: "xxxxxxxxxxxxxxxx" });`,
	"string doubling":      `let s = "x"; for (;;) s = s + s;`,
	"unbounded recursion":  `function f() { return [f()]; } f();`,
	"backtracking regexp":  `/^(a+)+\1b$/.test("a".repeat(100000));`,
	"then chain flood":     `const loop = () => Promise.resolve().then(loop); loop(); await new Promise(() => {});`,
	"await flood":          `for (;;) await null;`,
	"console megabytes":    `for (;;) console.log("y".repeat(1 << 20));`,
	"huge array fill":      `new Array(2 ** 32 - 1).fill(1);`,
	"sparse export":        `const a = []; a[2 ** 32 - 2] = 1; return a;`,
	"deep structure":       `let o = {}; for (let i = 0; i < 1e6; i++) o = { o }; return o;`,
	"BigInt explosion":     `let n = 7n; for (;;) n = n ** 7n;`,
	"stringify deep array": `let a = []; for (let i = 0; i < 1e6; i++) a = [a]; JSON.stringify(a);`,
}

// TestBUDGET9_HostileScriptsEndAsFailuresWhileOthersRun runs every hostile
// script in worker processes, each beside a benign script that must succeed
// at the same time; every hostile one must come back as a failure Result.
// Proves BUDGET-9.
func TestBUDGET9_HostileScriptsEndAsFailuresWhileOthersRun(t *testing.T) {
	p := newTestWorkers(t, WorkerOptions{Warm: 2, MemoryLimit: 256 << 20})
	h := newFakeHost().value("mcp__s__t", `{"ok":true}`)
	for name, code := range hostileScripts {
		t.Run(name, func(t *testing.T) {
			var benign Result
			done := make(chan struct{})
			go func() {
				defer close(done)
				benign = workerRun(p, h, `const r = []; for (let i = 0; i < 5; i++) r.push((await tools.mcp__s__t({ i })).ok); return r;`, Limits{})
			}()
			start := time.Now()
			res := workerRun(p, h, `console.log("started");`+code, Limits{Timeout: time.Second})
			t.Logf("ended after %v: %.160s", time.Since(start).Round(time.Millisecond), strings.ReplaceAll(res.Text, "\n", " | "))
			if res.OK {
				t.Errorf("hostile script succeeded: %.200s", res.Text)
			}
			if !strings.HasPrefix(res.Text, "started") {
				t.Errorf("logs before the failure were lost: %.200q", res.Text)
			}
			<-done
			wantValue(t, benign, `[true,true,true,true,true]`)
		})
	}
}

// hostileSources each kill or wedge the transform, which parses untrusted
// TypeScript in Go: deep nesting overflows its stack (a fatal error no
// recover catches), and many errors take it quadratic time.
var hostileSources = map[string]string{
	"deep parentheses":      "const x: number = " + strings.Repeat("(", 400_000) + "1" + strings.Repeat(")", 400_000) + ";",
	"deep generic argument": "let x: " + strings.Repeat("A<", 300_000) + "B" + strings.Repeat(">", 300_000) + ";",
	"forty thousand errors": strings.Repeat("let a;", 40_000),
}

// TestBUDGET9_HostileSourcesEndAsFailuresWhileOthersRun gives the transform
// sources that crash or wedge it, in worker processes, each beside a benign
// script that must succeed at the same time.
// Proves BUDGET-9.
func TestBUDGET9_HostileSourcesEndAsFailuresWhileOthersRun(t *testing.T) {
	p := newTestWorkers(t, WorkerOptions{Warm: 2, MemoryLimit: 256 << 20})
	h := newFakeHost().value("mcp__s__t", `{"ok":true}`)
	for name, code := range hostileSources {
		t.Run(name, func(t *testing.T) {
			if len(code) > maxScriptBytes {
				t.Fatalf("the source is refused by size before the transform sees it")
			}
			var benign Result
			done := make(chan struct{})
			go func() {
				defer close(done)
				benign = workerRun(p, h, `const r: boolean[] = []; for (let i = 0; i < 5; i++) r.push((await tools.mcp__s__t({ i })).ok); return r;`, Limits{})
			}()
			start := time.Now()
			res := workerRun(p, h, code, Limits{Timeout: time.Second})
			t.Logf("ended after %v: %.160s", time.Since(start).Round(time.Millisecond), res.Text)
			if res.OK {
				t.Errorf("hostile source succeeded: %.200s", res.Text)
			}
			<-done
			wantValue(t, benign, `[true,true,true,true,true]`)
		})
	}
}

// TestWorkersLeakNothing runs a thousand scripts, a tenth of which crash,
// time out or are aborted, and checks that goroutines, child processes and
// file descriptors come back to their baseline.
func TestWorkersLeakNothing(t *testing.T) {
	if testing.Short() {
		t.Skip("a thousand runs")
	}
	fdsBefore := openFDs(t)
	p := newTestWorkers(t, WorkerOptions{Warm: 2, MaxRuns: 50})
	h := newFakeHost().value("mcp__s__t", `1`)
	var wg sync.WaitGroup
	jobs := make(chan int)
	for range 4 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := range jobs {
				switch i % 10 {
				case 3:
					res := workerRun(p, h, `"x".repeat(2 ** 40)`, Limits{})
					if res.OK {
						t.Error("crash script succeeded")
					}
				case 6:
					res := workerRun(p, h, `for (;;) {}`, Limits{Timeout: 20 * time.Millisecond})
					if res.OK {
						t.Error("spin succeeded")
					}
				case 9:
					ctx, cancel := context.WithCancel(context.Background())
					res := p.Run(ctx, Request{Code: `await tools.mcp__s__t({}); for (;;) {}`, Host: h, Tools: NewToolSet(h.names()),
						OnCall: func(string) { cancel() }})
					cancel()
					if res.OK {
						t.Error("aborted run succeeded")
					}
				default:
					if res := workerRun(p, h, `return await tools.mcp__s__t({ n: 1 }) + 1`, Limits{}); res.Text != "2" {
						t.Errorf("benign run: %s", res.Text)
					}
				}
			}
		}()
	}
	for i := range 1000 {
		jobs <- i
	}
	close(jobs)
	wg.Wait()
	if err := p.Close(); err != nil {
		t.Fatal(err)
	}
	if kids := childProcesses(t); len(kids) != 0 {
		t.Errorf("child processes left: %v", kids)
	}
	deadline := time.Now().Add(10 * time.Second)
	for openFDs(t) > fdsBefore && time.Now().Before(deadline) {
		time.Sleep(10 * time.Millisecond)
	}
	if after := openFDs(t); after > fdsBefore {
		t.Errorf("file descriptors leaked: %d before, %d after", fdsBefore, after)
	}
}

// TestWorkersQueueBeyondMaxWorkers runs more scripts at once than the pool
// may have workers: the extra ones must wait for a worker to come back, not
// hang.
func TestWorkersQueueBeyondMaxWorkers(t *testing.T) {
	p := newTestWorkers(t, WorkerOptions{Warm: 1, MaxWorkers: 2})
	h := newFakeHost().value("mcp__s__t", `1`)
	var wg sync.WaitGroup
	for i := range 10 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			res := workerRun(p, h, `return (await tools.mcp__s__t({})) + `+strconv.Itoa(i), Limits{})
			if res.Text != strconv.Itoa(1+i) {
				t.Errorf("run %d: %q", i, res.Text)
			}
		}()
	}
	wg.Wait()
	if kids := childProcesses(t); len(kids) > 2 {
		t.Errorf("%d workers alive, the pool may have 2", len(kids))
	}
}

func TestWorkerMemoryLimitTooSmallIsAClearError(t *testing.T) {
	_, err := NewWorkers(WorkerOptions{MemoryLimit: 64 << 20})
	if err == nil || !strings.Contains(err.Error(), "too small") {
		t.Errorf("err = %v", err)
	}
}

// Proves CONV-7, BUDGET-4 on the host side: a worker that breaks out of its
// sandbox still cannot reach a tool outside the run's set or exceed the cap.
func TestHostDoesNotTrustTheWorker(t *testing.T) {
	h := newFakeHost().value("mcp__s__t", `1`).value("mcp__s__secret", `"leaked"`)
	side := &hostSide{req: Request{Host: h, Tools: NewToolSet([]string{"mcp__s__t"})}, limits: Limits{MaxCalls: 2}.withDefaults()}
	if msg := side.admit(frame{Kind: callKindTool, Name: "mcp__s__secret"}); !strings.Contains(msg, "Unknown tool") {
		t.Errorf("a tool outside the set was admitted: %q", msg)
	}
	if msg := side.admit(frame{Kind: callKindTool, Name: "mcp__s__t"}); msg != "" {
		t.Errorf("a reachable tool was refused: %q", msg)
	}
	if msg := side.admit(frame{Kind: callKindTool, Name: "mcp__s__t"}); msg != msgCallLimit {
		t.Errorf("the call over the cap was admitted: %q", msg)
	}
}

// TestWorkerRunsTypeScriptWithTimersAndWebGlobals runs what this sandbox adds
// to goja in a worker process, where the transform and the timers run, and
// checks that a run's Value means the same over both transports: nil when
// the script returned nothing, JSON null when it returned null.
func TestWorkerRunsTypeScriptWithTimersAndWebGlobals(t *testing.T) {
	for _, inProcess := range []bool{false, true} {
		t.Run("inProcess="+strconv.FormatBool(inProcess), func(t *testing.T) {
			p := newTestWorkers(t, WorkerOptions{InProcess: inProcess, Warm: 1})
			h := newFakeHost().value("mcp__srv__fetch", `{"id":1}`)
			res := workerRun(p, h, `
				interface Rec { id: number }
				async function* twice(): AsyncGenerator<Rec> { for (let i = 0; i < 2; i++) yield await tools.mcp__srv__fetch({}); }
				const ids: number[] = [];
				for await (const r of twice()) { ids.push(r.id); await new Promise((ok) => setTimeout(ok, 1)); }
				return { ids, url: new URL("?q=" + ids.join(","), "https://x.test/p").href, b64: btoa("ok") };`, Limits{})
			wantValue(t, res, `{"ids":[1,1],"url":"https://x.test/p?q=1,1","b64":"b2s="}`)
			res = workerRun(p, h, "const x: number = 1;\nthrow new Error(`bad ${x}`);", Limits{})
			wantFailure(t, res, "Error: bad 1 (at line 2:")
			if res = workerRun(p, h, `console.log("no value")`, Limits{}); res.Value != nil {
				t.Errorf("no return value: Value %q, want nil", res.Value)
			}
			if res = workerRun(p, h, `return null`, Limits{}); string(res.Value) != "null" {
				t.Errorf("null return value: Value %q, want null", res.Value)
			}
		})
	}
}

// Proves BUDGET-8: when an abort cancels a nested call, the call's rejection
// and the abort race to end the run; the result says Aborted either way, never
// the cancelled call's own error.
func TestBUDGET8_AbortBeatsTheCancelledCallsRejection(t *testing.T) {
	p := newTestWorkers(t, WorkerOptions{Warm: 1})
	runners := map[string]func(ctx context.Context, req Request) Result{
		"in process": Run,
		"worker":     p.Run,
	}
	for name, run := range runners {
		t.Run(name, func(t *testing.T) {
			for i := 0; i < 20; i++ {
				ctx, cancel := context.WithCancel(context.Background())
				h := newFakeHost().tool("mcp__s__abort", func(context.Context, json.RawMessage) (CallResult, error) {
					cancel()
					return CallResult{}, context.Canceled
				})
				res := run(ctx, Request{Code: `await tools.mcp__s__abort({}); return 1;`, Host: h,
					Tools: NewToolSet(h.names()), Limits: Limits{Timeout: time.Hour}})
				wantFailure(t, res, "Aborted", "stay in effect")
				cancel()
			}
		})
	}
}

// TestWorkerKeepsTheReachableSetBetweenRuns: a run whose reachable set is the
// previous run's does not send it again, and the worker still sees exactly
// the run's set, also when it changes and changes back.
func TestWorkerKeepsTheReachableSetBetweenRuns(t *testing.T) {
	p := newTestWorkers(t, WorkerOptions{Warm: 1, MaxWorkers: 1})
	first, second := NewToolSet([]string{"mcp__a__x", "mcp__a__y"}), NewToolSet([]string{"mcp__b__z"})
	h := newFakeHost().value("mcp__a__x", `1`).value("mcp__b__z", `2`)
	sameAsBefore := []bool{}
	for _, tools := range []*ToolSet{first, first, second, first, NewToolSet(nil)} {
		w, err := p.Acquire(context.Background())
		if err != nil {
			t.Fatal(err)
		}
		sameAsBefore = append(sameAsBefore, w.hasTools(tools.Names()))
		p.Release(w)
		res := p.Run(context.Background(), Request{Host: h, Tools: tools, Code: `return Object.keys(tools).join(",")`})
		wantValue(t, res, strconv.Quote(strings.Join(tools.Names(), ",")))
	}
	if want := []bool{false, true, false, false, false}; !slices.Equal(sameAsBefore, want) {
		t.Errorf("sent again: %v, want %v", sameAsBefore, want)
	}
}

// TestSlowCallDoesNotHoldUpTheWorkersOtherFrames: a synchronous host's call
// is served on the connection's reader, so a slow one must hand the reading
// on. Here the slow call can only finish once a second call of the same
// script has been read and served.
func TestSlowCallDoesNotHoldUpTheWorkersOtherFrames(t *testing.T) {
	p := newTestWorkers(t, WorkerOptions{Warm: 1})
	fastServed := make(chan struct{})
	h := newFakeHost().
		tool("mcp__s__slow", func(ctx context.Context, _ json.RawMessage) (CallResult, error) {
			select {
			case <-fastServed:
				return CallResult{Value: json.RawMessage(`1`)}, nil
			case <-ctx.Done():
				return CallResult{}, ctx.Err()
			}
		}).
		tool("mcp__s__fast", func(context.Context, json.RawMessage) (CallResult, error) {
			close(fastServed)
			return CallResult{Value: json.RawMessage(`2`)}, nil
		})
	res := workerRun(p, h, `
		const slow = tools.mcp__s__slow({});
		console.log("both asked");
		const [a, b] = await Promise.all([slow, tools.mcp__s__fast({})]);
		return a + b;`, Limits{Timeout: 10 * time.Second})
	wantValue(t, res, `3`)
	if res.Logs != "both asked" {
		t.Errorf("logs %q", res.Logs)
	}
}

// TestRetiringWorkerHandsOverToAWarmSuccessor: a worker close to the end of
// its runs gets a successor started in the background, so the run after its
// retirement finds a warm worker instead of waiting for a process to start.
func TestRetiringWorkerHandsOverToAWarmSuccessor(t *testing.T) {
	const maxRuns = 8
	p := newTestWorkers(t, WorkerOptions{Warm: 1, MaxRuns: maxRuns})
	h := newFakeHost().value("mcp__s__t", `1`)
	p.mu.Lock()
	first := p.idle[0]
	p.mu.Unlock()
	for i := range maxRuns - maxRuns/replaceAhead {
		wantValue(t, workerRun(p, h, `return `+strconv.Itoa(i), Limits{}), strconv.Itoa(i))
	}
	deadline := time.Now().Add(30 * time.Second)
	for {
		p.mu.Lock()
		idle := slices.Clone(p.idle)
		p.mu.Unlock()
		if len(idle) == 2 {
			if idle[1] != first {
				t.Fatalf("the successor took the place of the worker still serving: %v", idle)
			}
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("no successor started: idle %v", idle)
		}
		time.Sleep(5 * time.Millisecond)
	}
	for range maxRuns / replaceAhead {
		wantValue(t, workerRun(p, h, `return "old"`, Limits{}), `"old"`)
	}
	// The first worker served its runs and retired: the successor serves.
	w, err := p.Acquire(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	defer p.Release(w)
	if w == first || w.runs != 0 {
		t.Errorf("the run after the retirement got worker %p with %d runs, want the fresh successor", w, w.runs)
	}
}

// TestTimerAfterATimerTheLoopTookWakesTheWorker: a script whose first timer
// fired while it computed, then awaits a second one, ends at once (a wake
// the loop took must not swallow the next).
func TestTimerAfterATimerTheLoopTookWakesTheWorker(t *testing.T) {
	p := newTestWorkers(t, WorkerOptions{Warm: 1})
	for range 3 {
		res := workerRun(p, newFakeHost(), `
			setTimeout(() => {}, 1);
			const t0 = Date.now(); while (Date.now() - t0 < 30) {}
			await new Promise((resolve) => setTimeout(resolve, 20));
			return 1;`, Limits{Timeout: 30 * time.Second})
		wantValue(t, res, `1`)
	}
}
