package nodes_test

import (
	"bytes"
	"context"
	"encoding/json"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"

	"github.com/mcpexec/mcpexec/actors"
	"github.com/mcpexec/mcpexec/internal/testcerts"
	"github.com/mcpexec/mcpexec/pause"
	"github.com/mcpexec/mcpexec/sandbox"
	"github.com/mcpexec/mcpexec/state"
)

type toolFunc = func(ctx context.Context, args json.RawMessage) (sandbox.CallResult, error)

// Runs on a sandbox node process, from a daemon in this process (one
// daemon per test process: see nodeEnv).
func TestRemoteRuns(t *testing.T) {
	ca := testcerts.NewAuthority(t)
	_, member := startNode(t, ca.Issue("node-a"))
	d := startDaemon(t, ca, member)

	// A script placed on a node runs there, and its nested calls come
	// back to the daemon's funnel: the result, the live summary and the
	// console are what a local run gives.
	t.Run("NestedCallsGoThroughTheDaemon", func(t *testing.T) {
		host := &toolHost{tools: map[string]toolFunc{
			"mcp__calc__add": func(_ context.Context, args json.RawMessage) (sandbox.CallResult, error) {
				var in struct{ A, B int }
				if err := json.Unmarshal(args, &in); err != nil {
					return sandbox.CallResult{}, err
				}
				out, _ := json.Marshal(map[string]int{"sum": in.A + in.B})
				return sandbox.CallResult{Value: out}, nil
			},
		}}
		var progress []string
		res := d.execs.Run(context.Background(), actors.ExecRequest{
			Script: sandbox.Request{
				Code:  `console.log("adding"); const r = await tools.mcp__calc__add({a: 2, b: 3}); const s = await tools.mcp__calc__add({a: r.sum, b: 4}); return s.sum;`,
				Tools: sandbox.NewToolSet(host.names()),
				Host:  host,
			},
			OnProgress: func(summary string) { progress = append(progress, summary) },
		})
		if !res.OK {
			t.Fatalf("run failed: %s", res.Text)
		}
		if got := string(res.Value); got != "9" {
			t.Errorf("value = %s, want 9", got)
		}
		if !strings.Contains(res.Logs, "adding") {
			t.Errorf("logs = %q, want the console line", res.Logs)
		}
		want := []string{"mcp__calc__add", "mcp__calc__add"}
		if diff := cmp.Diff(want, host.made()); diff != "" {
			t.Errorf("calls the daemon made (-want +got):\n%s", diff)
		}
		if diff := cmp.Diff([]string{"1 tool call\nmcp__calc__add", "2 tool calls\nmcp__calc__add\nmcp__calc__add"}, progress); diff != "" {
			t.Errorf("live summary (-want +got):\n%s", diff)
		}
	})

	// A nested call that waits for a person in the daemon stops the run's
	// budget on the node: the script outlives its budget by the wait.
	t.Run("PersonWaitStopsTheBudget", func(t *testing.T) {
		const budget = 300 * time.Millisecond
		host := &toolHost{tools: map[string]toolFunc{
			"mcp__srv__approve": func(ctx context.Context, _ json.RawMessage) (sandbox.CallResult, error) {
				defer pause.ForPerson(ctx)()
				time.Sleep(4 * budget)
				return sandbox.CallResult{Value: json.RawMessage(`"approved"`)}, nil
			},
		}}
		res := d.execs.Run(context.Background(), actors.ExecRequest{Script: sandbox.Request{
			Code:   `return await tools.mcp__srv__approve({});`,
			Tools:  sandbox.NewToolSet(host.names()),
			Host:   host,
			Limits: sandbox.Limits{Timeout: budget},
		}})
		if !res.OK || string(res.Value) != `"approved"` {
			t.Errorf("result %+v, want the call's answer after the person's wait", res)
		}
	})

	// The budget still ends a script that spins on the node.
	t.Run("BudgetEndsASpinningScript", func(t *testing.T) {
		res := d.execs.Run(context.Background(), actors.ExecRequest{Script: sandbox.Request{
			Code: `while (true) {}`, Tools: sandbox.NewToolSet(nil), Limits: sandbox.Limits{Timeout: 200 * time.Millisecond},
		}})
		if res.OK || !strings.Contains(res.Error, "time budget") {
			t.Errorf("result %+v, want the budget failure", res)
		}
	})

	// store and load on a node reach the state the daemon keeps, and a
	// return value too long for the text comes back whole to the daemon.
	t.Run("StateAndWholeValuesStayWithTheDaemon", func(t *testing.T) {
		st := state.NewMemory(state.Limits{MaxBytes: 16 << 20})
		run := func(code string) (sandbox.Result, []byte) {
			var whole bytes.Buffer
			res := d.execs.Run(context.Background(), actors.ExecRequest{Script: sandbox.Request{
				Code: code, Tools: sandbox.NewToolSet(nil), State: st,
				Reference: &sandbox.Reference{ID: "r1", Sink: &whole},
				Limits:    sandbox.Limits{MaxStateBytes: st.Limits().MaxBytes},
			}})
			return res, whole.Bytes()
		}
		res, _ := run(`store("k", {a: [1, 2]}); try { store("big", "x".repeat(17 << 20)) } catch (e) { return e.message }`)
		if !res.OK || !strings.Contains(res.Text, "16 MiB") {
			t.Errorf("store past the bound on a node: %s", res.Text)
		}
		if v, ok, _ := st.Load("k"); !ok || string(v) != `{"a":[1,2]}` {
			t.Errorf("the daemon's state holds %s (%v)", v, ok)
		}
		// Values larger than a gRPC message's default bound cross too.
		res, _ = run(`store("mid", "z".repeat(6 << 20)); return load("mid").length`)
		if !res.OK || res.Text != "6291456" {
			t.Errorf("a 6 MiB value stored and loaded on a node: %s", res.Text)
		}
		res, whole := run(`return load("k").a.length + ":" + "y".repeat(100000)`)
		if !res.OK || res.Whole == nil || !res.Whole.Kept || len(whole) != 100004 || !strings.HasPrefix(string(whole), `"2:yyy`) {
			t.Errorf("whole value on the daemon: %d bytes, result %+v", len(whole), res.Whole)
		}
		if !strings.Contains(res.Text, `load("r1")`) {
			t.Errorf("the text does not name the kept value: %s", res.Text[len(res.Text)-200:])
		}
	})

	// Cancelling the Exec call aborts the run on the node.
	t.Run("AbortReachesTheNode", func(t *testing.T) {
		started := make(chan struct{})
		host := &toolHost{tools: map[string]toolFunc{
			"mcp__srv__started": func(context.Context, json.RawMessage) (sandbox.CallResult, error) {
				close(started)
				return sandbox.CallResult{}, nil
			},
		}}
		ctx, cancel := context.WithCancel(context.Background())
		done := make(chan sandbox.Result, 1)
		go func() {
			done <- d.execs.Run(ctx, actors.ExecRequest{Script: sandbox.Request{
				Code: `await tools.mcp__srv__started({}); while (true) {}`, Tools: sandbox.NewToolSet(host.names()), Host: host,
			}})
		}()
		<-started
		cancel()
		res := <-done
		if res.OK || !strings.HasPrefix(res.Error, "Aborted") {
			t.Errorf("result %+v, want Aborted", res)
		}
	})

	// A run on a node is watched as a local one: its exec actor stays in
	// the daemon, and every call the node reports is a change pushed to
	// the watch, in order, then the end.
	t.Run("AWatchHearsEveryCallOfARunOnANode", func(t *testing.T) {
		ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
		defer cancel()
		release := make(chan struct{})
		host := &toolHost{tools: map[string]toolFunc{
			"mcp__srv__hold": func(ctx context.Context, _ json.RawMessage) (sandbox.CallResult, error) {
				select {
				case <-release:
				case <-ctx.Done():
				}
				return sandbox.CallResult{}, nil
			},
			"mcp__srv__note": func(context.Context, json.RawMessage) (sandbox.CallResult, error) { return sandbox.CallResult{}, nil },
		}}
		report := d.execs.Start(ctx, actors.ExecRequest{Script: sandbox.Request{
			Code:  `await tools.mcp__srv__hold({}); await tools.mcp__srv__note({}); await tools.mcp__srv__note({}); return "ok";`,
			Tools: sandbox.NewToolSet(host.names()), Host: host,
		}}, actors.ParkOptions{}, actors.Watch{YieldAfter: time.Nanosecond})
		if report.State != actors.RunWorking {
			t.Fatalf("the run was not left going: %+v", report)
		}
		var heard []string
		var once sync.Once
		err := d.execs.Watch(ctx, report.ID, func(r actors.RunReport) {
			// The calls go on once the watch is there.
			once.Do(func() { close(release) })
			heard = append(heard, string(r.State)+" "+r.Summary)
		})
		if err != nil {
			t.Fatal(err)
		}
		want := []string{
			"working 1 tool call\nmcp__srv__hold",
			"working 2 tool calls\nmcp__srv__hold\nmcp__srv__note",
			"working ... 3 tool calls\nmcp__srv__note\nmcp__srv__note",
			"completed ... 3 tool calls\nmcp__srv__note\nmcp__srv__note",
		}
		// The watch may begin before the first call.
		if len(heard) > 0 && heard[0] == "working 0 tool calls" {
			heard = heard[1:]
		}
		if diff := cmp.Diff(want, heard); diff != "" {
			t.Errorf("the watch heard (-want +got):\n%s", diff)
		}
	})
}
