package actors_test

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"runtime"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/asynkron/protoactor-go/actor"
	"github.com/rs/zerolog"

	"github.com/mcpexec/mcpexec/actors"
	"github.com/mcpexec/mcpexec/internal/actorlog"
	"github.com/mcpexec/mcpexec/internal/testkit"
	"github.com/mcpexec/mcpexec/sandbox"
)

// toolHost answers nested calls from Go functions.
type toolHost map[string]func(ctx context.Context, args json.RawMessage) (sandbox.CallResult, error)

func (h toolHost) CallTool(ctx context.Context, name string, args json.RawMessage) (sandbox.CallResult, error) {
	if fn, ok := h[name]; ok {
		return fn(ctx, args)
	}
	return sandbox.CallResult{}, fmt.Errorf("no tool %s", name)
}

func (toolHost) Search(context.Context, json.RawMessage) (json.RawMessage, error) {
	return json.RawMessage(`[]`), nil
}

func (h toolHost) names() []string {
	var names []string
	for n := range h {
		names = append(names, n)
	}
	return names
}

var answerOK = func(context.Context, json.RawMessage) (sandbox.CallResult, error) {
	return sandbox.CallResult{Value: json.RawMessage(`"ok"`)}, nil
}

type execFixture struct {
	system  *actor.ActorSystem
	workers *sandbox.Workers
	execs   *actors.Execs
}

// newExecFixture starts an actor system and a worker pool, and at cleanup
// checks that stopping them leaves no goroutine behind.
func newExecFixture(t *testing.T, source func(*sandbox.Workers) actors.WorkerSource) *execFixture {
	t.Helper()
	before := runtime.NumGoroutine()
	workers, err := sandbox.NewWorkers(sandbox.WorkerOptions{Warm: 2})
	if err != nil {
		t.Fatal(err)
	}
	system := actorlog.NewSystem(zerolog.Nop())
	var src actors.WorkerSource = workers
	if source != nil {
		src = source(workers)
	}
	f := &execFixture{system: system, workers: workers, execs: actors.NewExecs(system, src, zerolog.Nop())}
	t.Cleanup(func() {
		_ = workers.Close()
		system.Shutdown()
		deadline := time.Now().Add(10 * time.Second)
		for runtime.NumGoroutine() > before && time.Now().Before(deadline) {
			time.Sleep(20 * time.Millisecond)
		}
		if n := runtime.NumGoroutine(); n > before {
			buf := make([]byte, 1<<20)
			t.Errorf("goroutines: %d before, %d after\n%s", before, n, buf[:runtime.Stack(buf, true)])
		}
	})
	return f
}

func (f *execFixture) run(ctx context.Context, h toolHost, code string, limits sandbox.Limits) sandbox.Result {
	return f.execs.Run(ctx, actors.ExecRequest{Script: sandbox.Request{Code: code, Host: h, Tools: sandbox.NewToolSet(h.names()), Limits: limits}})
}

// Proves BUDGET-9.
func TestBUDGET9_EveryEndOfAnExecIsAResult(t *testing.T) {
	f := newExecFixture(t, nil)
	h := toolHost{"mcp__s__t": answerOK, "mcp__s__hang": func(ctx context.Context, _ json.RawMessage) (sandbox.CallResult, error) {
		<-ctx.Done()
		return sandbox.CallResult{}, ctx.Err()
	}}
	// Only the runs that never end on their own get a short budget. The
	// others run under the default one, which they never reach: a short
	// budget would race their work (a worker's start, the transform, the
	// realm, four thousand frames of recursion) and, on a loaded machine,
	// turn a slow run into a budget failure.
	short := sandbox.Limits{Timeout: 300 * time.Millisecond}
	cases := []struct {
		name, code, want string
		ok               bool
		limits           sandbox.Limits
	}{
		{"success", `return await tools.mcp__s__t({})`, "ok", true, sandbox.Limits{}},
		{"throw", `throw new Error("boom")`, "Error: boom", false, sandbox.Limits{}},
		{"syntax", `return (`, "SyntaxError", false, sandbox.Limits{}},
		{"timeout", `for (;;) {}`, "budget", false, short},
		{"hanging call", `await tools.mcp__s__hang({})`, "budget", false, short},
		{"out of memory", `"x".repeat(2 ** 40)`, "memory", false, sandbox.Limits{}},
		{"deep recursion", `function f() { return [f()] } f()`, "call stack", false, sandbox.Limits{}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			res := f.run(context.Background(), h, c.code, c.limits)
			if res.OK != c.ok || !strings.Contains(res.Text, c.want) {
				t.Errorf("ok=%v text=%q; want ok=%v and %q", res.OK, res.Text, c.ok, c.want)
			}
		})
	}
}

// Proves BUDGET-8.
func TestBUDGET8_ExecAbort(t *testing.T) {
	f := newExecFixture(t, nil)
	started := make(chan struct{})
	h := toolHost{"mcp__s__hang": func(ctx context.Context, _ json.RawMessage) (sandbox.CallResult, error) {
		close(started)
		<-ctx.Done()
		return sandbox.CallResult{}, ctx.Err()
	}}
	ctx, cancel := context.WithCancel(context.Background())
	go func() { <-started; cancel() }()
	res := f.run(ctx, h, `await tools.mcp__s__hang({})`, sandbox.Limits{Timeout: time.Hour})
	if res.OK || !strings.Contains(res.Text, "Aborted") || len(res.Calls) != 1 {
		t.Errorf("abort mid-run: ok=%v calls=%v text=%q", res.OK, res.Calls, res.Text)
	}
	res = f.run(ctx, h, `await tools.mcp__s__hang({})`, sandbox.Limits{})
	if res.OK || !strings.Contains(res.Text, "Aborted") || len(res.Calls) != 0 {
		t.Errorf("abort before start: ok=%v calls=%v text=%q", res.OK, res.Calls, res.Text)
	}
}

// panickySource fails inside the sandbox actor's run, the way a bug would.
type panickySource struct{}

func (panickySource) Acquire(context.Context) (*sandbox.Worker, error) { panic("worker source bug") }
func (panickySource) Release(*sandbox.Worker)                          {}

// Proves BUDGET-9.
func TestBUDGET9_SupervisorStopsAFailedSandboxActor(t *testing.T) {
	f := newExecFixture(t, func(*sandbox.Workers) actors.WorkerSource { return panickySource{} })
	res := f.run(context.Background(), toolHost{}, `return 1`, sandbox.Limits{})
	if res.OK || !strings.Contains(res.Text, "sandbox failed") {
		t.Errorf("ok=%v text=%q", res.OK, res.Text)
	}
	if strings.Contains(res.Text, "bug") {
		t.Errorf("panic value leaked to the model: %q", res.Text)
	}
}

// failingSource cannot start workers.
type failingSource struct{}

func (failingSource) Acquire(context.Context) (*sandbox.Worker, error) {
	return nil, errors.New("no workers")
}
func (failingSource) Release(*sandbox.Worker) {}

func TestExecWithoutWorkersFailsClearly(t *testing.T) {
	f := newExecFixture(t, func(*sandbox.Workers) actors.WorkerSource { return failingSource{} })
	res := f.run(context.Background(), toolHost{}, `return 1`, sandbox.Limits{})
	if res.OK || !strings.Contains(res.Text, "could not be started") {
		t.Errorf("ok=%v text=%q", res.OK, res.Text)
	}
}

// TestSUM4_ProgressFollowsEveryNestedCall checks that the exec actor reports
// each call while the script still runs: the second tool only answers once
// the progress for the first call has been seen.
// Proves SUM-4.
func TestSUM4_ProgressFollowsEveryNestedCall(t *testing.T) {
	f := newExecFixture(t, nil)
	var mu sync.Mutex
	var seen []string
	firstSeen := make(chan struct{})
	h := toolHost{
		"mcp__a__one": answerOK,
		"mcp__b__two": func(ctx context.Context, _ json.RawMessage) (sandbox.CallResult, error) {
			select {
			case <-firstSeen:
				return sandbox.CallResult{Value: json.RawMessage(`"two"`)}, nil
			case <-ctx.Done():
				return sandbox.CallResult{}, errors.New("progress for the first call never came")
			}
		},
	}
	var once sync.Once
	res := f.execs.Run(context.Background(), actors.ExecRequest{
		Script: sandbox.Request{Code: `await tools.mcp__a__one({}); return await tools.mcp__b__two({});`,
			Host: h, Tools: sandbox.NewToolSet(h.names()), Limits: sandbox.Limits{Timeout: 10 * time.Second}},
		OnProgress: func(summary string) {
			mu.Lock()
			seen = append(seen, summary)
			mu.Unlock()
			once.Do(func() { close(firstSeen) })
		},
	})
	if !res.OK || res.Text != "two" {
		t.Fatalf("ok=%v text=%q", res.OK, res.Text)
	}
	mu.Lock()
	defer mu.Unlock()
	if len(seen) != 2 || seen[0] != "1 tool call\nmcp__a__one" || seen[1] != "2 tool calls\nmcp__a__one\nmcp__b__two" {
		t.Errorf("progress = %v", seen)
	}
}

// TestConcurrentExecsSurviveHostileNeighbours runs benign Execs beside
// hostile ones; every benign one must succeed.
func TestConcurrentExecsSurviveHostileNeighbours(t *testing.T) {
	f := newExecFixture(t, nil)
	h := toolHost{"mcp__s__t": answerOK}
	hostile := []string{`"x".repeat(2 ** 40)`, `for (;;) {}`, `new ArrayBuffer(2 ** 40)`, `for (;;) await null`}
	var wg sync.WaitGroup
	for i := range 12 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			if i%3 == 0 {
				res := f.run(context.Background(), h, hostile[i/3%len(hostile)], sandbox.Limits{Timeout: 300 * time.Millisecond})
				if res.OK {
					t.Errorf("hostile script %d succeeded", i)
				}
				return
			}
			res := f.run(context.Background(), h, `let n = 0; for (let i = 0; i < 10; i++) if (await tools.mcp__s__t({ i }) === "ok") n++; return n;`, sandbox.Limits{})
			if res.Text != "10" {
				t.Errorf("benign exec %d: %q", i, res.Text)
			}
		}()
	}
	wg.Wait()
}

// Proves NFR-10: failures come back as results and are logged.
func TestNFR10_FailuresAreLoggedAndReturned(t *testing.T) {
	workers, err := sandbox.NewWorkers(sandbox.WorkerOptions{Warm: 1})
	if err != nil {
		t.Fatal(err)
	}
	defer workers.Close()
	system := actorlog.NewSystem(zerolog.Nop())
	defer system.Shutdown()
	var logs testkit.SyncBuffer
	execs := actors.NewExecs(system, workers, zerolog.New(&logs))
	logger := zerolog.New(&logs)
	for _, code := range []string{`throw new TypeError("bad")`, `"x".repeat(2 ** 40)`} {
		res := execs.Run(context.Background(), actors.ExecRequest{Script: sandbox.Request{Code: code, Tools: sandbox.NewToolSet(nil), Logger: &logger}})
		if res.OK {
			t.Fatalf("%s succeeded", code)
		}
	}
	out := logs.String()
	for _, want := range []string{"exec: run failed", "TypeError: bad", "sandbox: worker stopped during a run"} {
		if !strings.Contains(out, want) {
			t.Errorf("log lacks %q:\n%s", want, out)
		}
	}
}
