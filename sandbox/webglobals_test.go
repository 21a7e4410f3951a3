package sandbox

import (
	"context"
	"encoding/json"
	"strconv"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
)

// webGlobalNames are every global the sandbox adds beside tools and
// console.
var webGlobalNames = []string{
	"setTimeout", "setInterval", "clearTimeout", "clearInterval", "queueMicrotask",
	"atob", "btoa", "TextEncoder", "TextDecoder", "URL", "URLSearchParams", "structuredClone",
	"crypto", "performance",
}

// TestISO4_WebGlobalsBelongToTheSandboxRealm walks every function reachable
// from the web globals (the globals, their methods and accessors, and the
// instances they make): each must be a function of the run's realm, whose
// constructor is one of the realm's locked constructors (of functions, of
// generators, of async functions), which throw EvalError.
// Proves ISO-4.
func TestISO4_WebGlobalsBelongToTheSandboxRealm(t *testing.T) {
	names, _ := json.Marshal(webGlobalNames)
	res := run(newFakeHost(), `
		const names = `+string(names)+`;
		const seen = new Set(), foreign = [], blocked = [];
		const locked = [Function, Object.getPrototypeOf(function* () {}).constructor, Object.getPrototypeOf(async function () {}).constructor];
		const visit = (v, path) => {
			if (v === null || (typeof v !== "object" && typeof v !== "function") || seen.has(v)) return;
			seen.add(v);
			if (typeof v === "function") {
				if (!locked.includes(v.constructor)) foreign.push(path);
				try { v.constructor("return 1")(); } catch (e) { if (e instanceof EvalError) blocked.push(path); }
			}
			for (const key of Object.getOwnPropertyNames(v)) {
				if (key === "caller" || key === "arguments") continue;
				const d = Object.getOwnPropertyDescriptor(v, key);
				for (const part of [d.value, d.get, d.set]) visit(part, path + "." + key);
			}
			const proto = Object.getPrototypeOf(v);
			if (proto !== Object.prototype && proto !== Function.prototype && proto !== null) visit(proto, path + ".__proto__");
		};
		for (const name of names) visit(globalThis[name], name);
		const u = new URL("https://example.com/?a=1");
		visit(u, "url"); visit(u.searchParams, "params");
		visit(new TextEncoder(), "encoder"); visit(new TextDecoder(), "decoder");
		const functions = [...seen].filter((v) => typeof v === "function").length;
		return { types: names.map((n) => typeof globalThis[n]), foreign, allBlocked: blocked.length === functions, functions: functions > 40 };`)
	wantValue(t, res, `{"types":["function","function","function","function","function","function","function",
		"function","function","function","function","function","object","object"],
		"foreign":[],"allBlocked":true,"functions":true}`)
}

// TestWebGlobalsAreMadeInEachRun checks that no web global is shared between
// runs: a script that changes one cannot reach the next run.
func TestWebGlobalsAreMadeInEachRun(t *testing.T) {
	h := newFakeHost()
	res := run(h, `URL.prototype.evil = 1; crypto.randomUUID = () => "fixed"; setTimeout.mark = 1; URL = null; return typeof URL;`)
	wantValue(t, res, `"object"`)
	res = run(h, `return [typeof URL.prototype.evil, crypto.randomUUID() === "fixed", typeof setTimeout.mark, typeof URL];`)
	wantValue(t, res, `["undefined",false,"undefined","function"]`)
}

// TestTimersRunOnTheLoop covers the backoff idiom, intervals, clearing,
// arguments and ordering.
func TestTimersRunOnTheLoop(t *testing.T) {
	checkNoGoroutineLeak(t)
	res := run(newFakeHost(), `
		const order: string[] = [];
		await new Promise((r) => setTimeout(r, 5));
		order.push("slept");
		const cleared = setTimeout(() => order.push("never"), 1);
		clearTimeout(cleared);
		setTimeout((a: string, b: string) => order.push(a + b), 2, "ar", "gs");
		let ticks = 0;
		await new Promise<void>((resolve) => {
			const id = setInterval(() => { if (++ticks === 3) { clearInterval(id); resolve(); } }, 1);
		});
		await new Promise((r) => setTimeout(r, 10));
		queueMicrotask(() => order.push("micro"));
		order.push("sync");
		await null;
		return { order, ticks, id: typeof setTimeout(() => {}, 1) };`)
	wantValue(t, res, `{"order":["slept","args","sync","micro"],"ticks":3,"id":"number"}`)
}

// TestTimersFireInDueOrder makes three timers due while the script is still
// busy: they must all fire, by due time, then in the order they were
// scheduled. The timers are scheduled in an order whose due times the clock
// alone decides (a later call never has an earlier due time here), so the
// expected order holds however long the machine takes between the calls;
// TestDueTimersOrder covers a later call with an earlier due time.
func TestTimersFireInDueOrder(t *testing.T) {
	res := run(newFakeHost(), `
		const order: string[] = [];
		setTimeout(() => order.push("sooner"), 1);
		setTimeout(() => order.push("sooner, second"), 1);
		setTimeout(() => order.push("later"), 5);
		const until = Date.now() + 20;
		while (Date.now() < until) {}
		await new Promise((r) => setTimeout(r, 10));
		return order;`)
	wantValue(t, res, `["sooner","sooner, second","later"]`)
}

// TestDueTimersOrder checks the firing order with due times set exactly:
// earliest due first, whatever the order of scheduling, and scheduling order
// between timers due at the same instant.
func TestDueTimersOrder(t *testing.T) {
	start := time.Now()
	ts := timers{live: map[int64]*timer{}}
	for _, tm := range []*timer{
		{id: 1, due: start.Add(5 * time.Millisecond)},
		{id: 2, due: start.Add(1 * time.Millisecond)},
		{id: 3, due: start.Add(1 * time.Millisecond)},
		{id: 4, due: start.Add(3 * time.Millisecond)},
		{id: 5, due: start.Add(time.Hour)},
	} {
		ts.live[tm.id] = tm
	}
	var got []int64
	for _, tm := range ts.dueAt(start.Add(5 * time.Millisecond)) {
		got = append(got, tm.id)
	}
	if diff := cmp.Diff([]int64{2, 3, 4, 1}, got); diff != "" {
		t.Errorf("firing order (-want +got):\n%s", diff)
	}
}

// TestRetryWithBackoffAgainstAFlakyTool is the idiom the timers are for.
func TestRetryWithBackoffAgainstAFlakyTool(t *testing.T) {
	calls := 0
	h := newFakeHost().tool("mcp__srv__flaky", func(context.Context, json.RawMessage) (CallResult, error) {
		calls++
		if calls < 3 {
			return CallResult{}, plainError("temporarily unavailable")
		}
		return CallResult{Value: json.RawMessage(`{"ok":true}`)}, nil
	})
	res := run(h, `
		async function withRetry<T>(fn: () => Promise<T>, attempts = 5): Promise<T> {
			for (let i = 0; ; i++) {
				try { return await fn(); }
				catch (e) { if (i + 1 >= attempts) throw e; await new Promise((r) => setTimeout(r, 2 ** i)); }
			}
		}
		return await withRetry(() => tools.mcp__srv__flaky({}));`)
	wantValue(t, res, `{"ok":true}`)
}

// Proves BUDGET-3.
func TestBUDGET3_TimersAreWorkButTheBudgetStillEnds(t *testing.T) {
	checkNoGoroutineLeak(t)
	// A pending timer is not "nothing can settle": the run waits for it.
	res := run(newFakeHost(), `await new Promise((r) => setTimeout(r, 20)); return "woke";`, Limits{Timeout: time.Hour})
	wantValue(t, res, `"woke"`)
	// A timer beyond the budget, and an interval that never stops, end with
	// the budget.
	for _, code := range []string{
		`await new Promise((r) => setTimeout(r, 3600000));`,
		`setInterval(() => {}, 1); await new Promise(() => {});`,
		`const again = () => setTimeout(again, 0); again(); await new Promise(() => {});`,
	} {
		res := run(newFakeHost(), code, shortBudget)
		wantFailure(t, res, budgetMessage...)
	}
	// A cleared timer is no longer work.
	res = run(newFakeHost(), `const id = setTimeout(() => {}, 3600000); clearTimeout(id); await new Promise(() => {});`, Limits{Timeout: time.Hour})
	wantFailure(t, res, "nothing can settle")
}

// TestBUDGET1_WebGlobalsStayInsideTheBudget spins in each web global that
// does work: they are JavaScript of the run's realm (or bounded host calls),
// so the budget's interrupt reaches them.
// Proves BUDGET-1.
func TestBUDGET1_WebGlobalsStayInsideTheBudget(t *testing.T) {
	checkNoGoroutineLeak(t)
	for name, body := range map[string]string{
		"URL":             `new URL("https://example.com/a/../b?q=" + i).searchParams.append("k", "v");`,
		"base64":          `atob(btoa("payload " + i));`,
		"text encoding":   `new TextDecoder().decode(new TextEncoder().encode("é😀".repeat(100)));`,
		"structuredClone": `structuredClone({ list: [1, 2, { d: new Date(i) }], m: new Map([[i, i]]) });`,
		"crypto":          `crypto.getRandomValues(new Uint8Array(65536)); crypto.randomUUID();`,
		"long encode":     `new TextEncoder().encode(long);`,
	} {
		t.Run(name, func(t *testing.T) {
			// long is built in a loop of bytecode, never by a native
			// built-in that the interrupt cannot reach.
			res := run(newFakeHost(), `let long = ""; for (let j = 0; j < 1e5; j++) long += "é"; for (let i = 0; ; i++) { `+body+` }`, shortBudget)
			wantFailure(t, res, budgetMessage...)
		})
	}
}

// TestBUDGET1_TimerWorkWhileAPersonIsAskedSpendsTheBudget spins inside a
// timer callback while a nested call waits for a person: the clock stops
// only while the script is idle, and a timer callback is not.
// Proves BUDGET-1.
func TestBUDGET1_TimerWorkWhileAPersonIsAskedSpendsTheBudget(t *testing.T) {
	for _, inProcess := range []bool{false, true} {
		t.Run("inProcess="+strconv.FormatBool(inProcess), func(t *testing.T) {
			p := newTestWorkers(t, WorkerOptions{InProcess: inProcess, Warm: 1})
			h := newFakeHost().tool("mcp__s__ask_forever", askPerson(time.Hour))
			res := workerRun(p, h, `
				const answer = tools.mcp__s__ask_forever({});
				setTimeout(() => { while (true) {} }, 5);
				await answer;`, shortBudget)
			wantFailure(t, res, msgOverBudget)
		})
	}
}

// TestTimersNeverOutliveTheRun returns while timers are still scheduled:
// none may fire later or leave a goroutine behind.
func TestTimersNeverOutliveTheRun(t *testing.T) {
	checkNoGoroutineLeak(t)
	var logs []string
	req := Request{
		Code:  `setTimeout(() => console.log("late"), 30); setInterval(() => console.log("tick"), 5); return "done";`,
		Host:  newFakeHost(),
		OnLog: func(text string) { logs = append(logs, text) },
	}
	res := Run(context.Background(), req)
	wantValue(t, res, `"done"`)
	time.Sleep(60 * time.Millisecond) // a timer that outlived the run would log now
	if len(logs) != 0 {
		t.Errorf("timers fired after the run: %q", logs)
	}
}

func TestTimerMistakesAreClearErrors(t *testing.T) {
	res := run(newFakeHost(), `setTimeout(() => { throw new Error("in a timer"); }, 1); await new Promise((r) => setTimeout(r, 50));`)
	wantFailure(t, res, "Error: in a timer (at line 1:")
	res = run(newFakeHost(), `try { setTimeout("code as a string", 1); } catch (e) { return e.message; }`)
	wantValue(t, res, `"`+msgTimerCallback+`"`)
	res = run(newFakeHost(), `for (let i = 0; ; i++) setTimeout(() => {}, 1000);`)
	wantFailure(t, res, msgTooManyTimers)
}

// TestPerformanceNowFollowsTheRunsClock reads performance.now across a
// timer of the run's loop.
func TestPerformanceNowFollowsTheRunsClock(t *testing.T) {
	res := run(newFakeHost(), `
		const a = performance.now(); await new Promise((r) => setTimeout(r, 5)); const b = performance.now();
		return [typeof a, b > a, a >= 0];`)
	wantValue(t, res, `["number",true,true]`)
}
