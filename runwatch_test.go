package mcpexec_test

import (
	"context"
	"errors"
	"runtime"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/mcpexec/mcpexec"
	"github.com/mcpexec/mcpexec/exectool"
	"github.com/mcpexec/mcpexec/internal/testkit"
)

// A run's live summary is the run's: a caller that attaches to it later
// (WaitRun) hears the status line of the task tool it runs, as the caller
// that started it would; RunStatus shows the same line, and so does the
// summary of a wait that gives up before the end (the gateway's "Still
// running").
func TestALaterCallerSeesTheRunsTaskStatusLine(t *testing.T) {
	before := runtime.NumGoroutine()
	t.Cleanup(func() { testkit.CheckGoroutines(t, before) })
	sys := startServers(t, mcpexec.Options{}, everything(t))
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	res := sys.StartDetached(ctx, mcpexec.DeclareOptions{}, codeArgs(`const r = await `+research+`({topic: "tide pools"}); return r.split("\n")[0];`),
		mcpexec.DetachOptions{Wait: time.Nanosecond}, nil)
	if res.Running == "" {
		t.Fatalf("the run was not left running: %+v", res)
	}
	const taskLine = "\nmcp__everything__simulate-research-query: "
	var mu sync.Mutex
	var heard []string
	lineHeard := make(chan struct{})
	var once sync.Once
	// RunStatus is asked off the run's goroutine, once the caller heard a
	// task's line: the task runs for seconds after each status message.
	statusSeen := make(chan mcpexec.RunStatus, 1)
	yielded := make(chan mcpexec.ExecResult, 1)
	go func() {
		select {
		case <-lineHeard:
		case <-ctx.Done():
			return
		}
		st, err := sys.RunStatus(ctx, res.Running)
		if err != nil {
			t.Error(err)
		}
		statusSeen <- st
		still, err := sys.WaitRun(ctx, res.Running, time.Nanosecond, nil)
		if err != nil {
			t.Error(err)
		}
		yielded <- still
	}()
	end, err := sys.WaitRun(ctx, res.Running, 0, func(summary string) {
		mu.Lock()
		heard = append(heard, summary)
		mu.Unlock()
		if strings.Contains(summary, taskLine) {
			once.Do(func() { close(lineHeard) })
		}
	})
	if err != nil {
		t.Fatal(err)
	}
	if !end.OK || end.Text != "# Research Report: tide pools" {
		t.Fatalf("the run's end: ok=%v %q", end.OK, end.Text)
	}
	mu.Lock()
	defer mu.Unlock()
	select {
	case <-lineHeard:
	default:
		t.Fatalf("the caller that attached later heard %q: no task status line", heard)
	}
	st := <-statusSeen
	prefix := "1 tool call\nmcp__everything__simulate-research-query" + taskLine
	if st.State != mcpexec.RunWorking || !strings.HasPrefix(st.Summary, prefix) || len(st.Summary) == len(prefix) {
		t.Errorf("RunStatus while the task ran: %s %q, want its status line under the call", st.State, st.Summary)
	}
	if still := <-yielded; still.Running != res.Running || !strings.HasPrefix(still.Summary, prefix) {
		t.Errorf("a wait that gave up while the task ran: running %q, summary %q, want its status line", still.Running, still.Summary)
	}
}

// watchStatuses runs WatchRun on run in the background: the statuses come
// on the returned channel, WatchRun's error on the other once it returned.
func watchStatuses(ctx context.Context, sys *mcpexec.System, run mcpexec.RunID) (<-chan mcpexec.RunStatus, <-chan error) {
	statuses := make(chan mcpexec.RunStatus, 64)
	returned := make(chan error, 1)
	go func() {
		returned <- sys.WatchRun(ctx, run, func(st mcpexec.RunStatus) { statuses <- st })
	}()
	return statuses, returned
}

func nextStatus(t *testing.T, ctx context.Context, statuses <-chan mcpexec.RunStatus) mcpexec.RunStatus {
	t.Helper()
	select {
	case st := <-statuses:
		return st
	case <-ctx.Done():
		t.Fatal("no status came")
		return mcpexec.RunStatus{}
	}
}

// runOf is the run a detached start left going.
func runOf(t *testing.T, res mcpexec.ExecResult) mcpexec.RunID {
	t.Helper()
	switch {
	case res.Running != "":
		return res.Running
	case res.Pending != nil:
		return res.Pending.Run
	}
	t.Fatalf("the run was not left going: %+v", res)
	return ""
}

// WatchRun hears every change of a run, in order, however quick: three
// writes made within a millisecond are three statuses, where a poll would
// see at most the last. It does not keep the run from parking when nobody
// waits on it, a caller attaching hears the summary at once, and the watch
// ends with the run's end.
func TestWatchRunHearsEveryChangeInOrder(t *testing.T) {
	sys, _ := parkSystem(t, `{"permissions": {"ask": ["mcp__l__read"], "allow": ["mcp__l__write", "mcp__l__ran"]}}`, mcpexec.Options{})
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	run := runOf(t, sys.StartDetached(ctx, mcpexec.DeclareOptions{}, codeArgs(`
		await tools.mcp__l__read({key: "x"});
		for (const key of ["a", "b", "c"]) await tools.mcp__l__write({key});
		await tools.mcp__l__read({key: "y"});
		return "done";`), mcpexec.DetachOptions{Wait: time.Nanosecond, Park: true}, nil))
	statuses, returned := watchStatuses(ctx, sys, run)

	// The watch may begin before the first call: it hears the run working
	// until the run parks on its first question.
	st := nextStatus(t, ctx, statuses)
	for st.State == mcpexec.RunWorking {
		st = nextStatus(t, ctx, statuses)
	}
	calls := []string{"mcp__l__read", "mcp__l__write", "mcp__l__write", "mcp__l__write", "mcp__l__read"}
	type seen struct {
		state   mcpexec.RunState
		summary string
	}
	got := []seen{{st.State, st.Summary}}
	var heard []string
	answer := func(st mcpexec.RunStatus) {
		res, err := sys.ResumeDetached(ctx, run, allowAllOnce(&mcpexec.Pending{Run: run, Questions: st.Questions}), time.Nanosecond,
			func(summary string) { heard = append(heard, summary) })
		if err != nil {
			t.Fatal(err)
		}
		runOf(t, res)
	}
	answer(st)
	for st.State != mcpexec.RunCompleted {
		st = nextStatus(t, ctx, statuses)
		got = append(got, seen{st.State, st.Summary})
		if st.State == mcpexec.RunInputRequired {
			answer(st)
		}
	}
	summary := func(n int) string { return exectool.Summary(calls[:n], false) }
	want := []seen{
		{mcpexec.RunInputRequired, summary(1)},
		{mcpexec.RunWorking, summary(1)},
		{mcpexec.RunWorking, summary(2)},
		{mcpexec.RunWorking, summary(3)},
		{mcpexec.RunWorking, summary(4)},
		{mcpexec.RunWorking, summary(5)},
		{mcpexec.RunInputRequired, summary(5)},
		{mcpexec.RunWorking, summary(5)},
		{mcpexec.RunCompleted, summary(5)},
	}
	if len(got) != len(want) {
		t.Fatalf("the watch heard %q,\nwant %q", got, want)
	}
	for i := range want {
		if got[i] != want[i] {
			t.Errorf("status %d: %s %q, want %s %q", i, got[i].state, got[i].summary, want[i].state, want[i].summary)
		}
	}
	if !st.Result.OK {
		t.Errorf("the final status has no result: %+v", st.Result)
	}
	if len(heard) == 0 || heard[0] != summary(1) {
		t.Errorf("the caller that answered first heard %q, want the summary at once", heard)
	}
	select {
	case err := <-returned:
		if err != nil {
			t.Errorf("WatchRun returned %v after the end", err)
		}
	case <-ctx.Done():
		t.Fatal("WatchRun did not return after the run's end")
	}
	if len(statuses) != 0 {
		t.Errorf("%d statuses after the end", len(statuses))
	}
	// An ended run's watch hears its end alone.
	var after []mcpexec.RunState
	if err := sys.WatchRun(ctx, run, func(st mcpexec.RunStatus) { after = append(after, st.State) }); err != nil || len(after) != 1 || after[0] != mcpexec.RunCompleted {
		t.Errorf("watching the ended run: %v, heard %v", err, after)
	}
}

// A run that waits for an answer with only watchers on it is parked as if
// nobody watched: its park timeout runs, and it expires. A watch whose
// context ends returns at once, leaving the run alone.
func TestAWatchedRunNobodyWaitsOnExpires(t *testing.T) {
	sys, _ := parkSystem(t, ledgerRules, mcpexec.Options{ParkTimeout: 300 * time.Millisecond})
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	run := runOf(t, sys.StartDetached(ctx, mcpexec.DeclareOptions{}, codeArgs(`return await tools.mcp__l__write({key: "late"})`),
		mcpexec.DetachOptions{Wait: time.Nanosecond, Park: true}, nil))
	statuses, returned := watchStatuses(ctx, sys, run)
	leaving, leave := context.WithCancel(ctx)
	left, leftReturned := watchStatuses(leaving, sys, run)
	nextStatus(t, ctx, left)
	leave()
	if err := <-leftReturned; !errors.Is(err, context.Canceled) {
		t.Errorf("a watch whose context ended returned %v", err)
	}
	st := nextStatus(t, ctx, statuses)
	for !st.State.Ended() {
		st = nextStatus(t, ctx, statuses)
	}
	if st.State != mcpexec.RunFailed || !strings.Contains(st.Result.Text, "Expired:") {
		t.Errorf("the watched run ended %s: %+v, want expired", st.State, st.Result)
	}
	if err := <-returned; err != nil {
		t.Errorf("WatchRun returned %v after the end", err)
	}
	if ran := ranOnLedger(t, sys); len(ran.Write) != 0 {
		t.Errorf("writes = %v, want none", ran.Write)
	}
}
