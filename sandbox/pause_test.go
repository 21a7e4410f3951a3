package sandbox

import (
	"context"
	"encoding/json"
	"strconv"
	"testing"
	"time"

	"github.com/mcpexec/mcpexec/pause"
)

// askPerson is a tool whose call waits for a person for wait (with the
// budget clock stopped, as the permission gate and the elicitation handler
// do), then answers "answered".
func askPerson(wait time.Duration) func(context.Context, json.RawMessage) (CallResult, error) {
	return func(ctx context.Context, _ json.RawMessage) (CallResult, error) {
		defer pause.ForPerson(ctx)()
		select {
		case <-time.After(wait):
			return CallResult{Value: json.RawMessage(`"answered"`)}, nil
		case <-ctx.Done():
			return CallResult{}, ctx.Err()
		}
	}
}

// Time a nested call spends waiting for a person does not count against the
// budget: the person answers after three budgets, and the script finishes.
// A script that spins while the person is being asked is still ended by
// the budget: its clock stops only while it is idle.
//
// Proves BUDGET-1, BUDGET-3.
func TestBUDGET1_WaitingForAPersonDoesNotSpendTheBudget(t *testing.T) {
	const budget = 400 * time.Millisecond
	limits := Limits{Timeout: budget}
	for _, inProcess := range []bool{false, true} {
		t.Run("inProcess="+strconv.FormatBool(inProcess), func(t *testing.T) {
			p := newTestWorkers(t, WorkerOptions{InProcess: inProcess, Warm: 1})
			h := newFakeHost().
				tool("mcp__s__ask", askPerson(3*budget)).
				tool("mcp__s__ask_forever", askPerson(time.Hour))
			res := workerRun(p, h, `const a = await tools.mcp__s__ask({}); const b = await tools.mcp__s__ask({}); return a + " " + b;`, limits)
			wantValue(t, res, `"answered answered"`)

			// Spinning while a person is asked: the budget ends it.
			res = workerRun(p, h, `tools.mcp__s__ask_forever({}); while (true) {}`, limits)
			wantFailure(t, res, msgOverBudget)

			// Spinning after the person answered counts again.
			res = workerRun(p, h, `await tools.mcp__s__ask({}); while (true) {}`, limits)
			wantFailure(t, res, msgOverBudget)
		})
	}
}

func TestBudgetClockStopsOnlyWhileAPersonWaitMeetsAnIdleScript(t *testing.T) {
	var changes []bool
	c := newBudgetClock(time.Hour, func(stopped bool) { changes = append(changes, stopped) })
	defer c.finish()
	resume := c.Pause() // a person wait, but the script is busy: runs
	c.setIdle(true)     // now it waits for the answer: stops
	c.setIdle(false)    // an answer arrived: runs
	c.setIdle(true)
	resume() // the person answered: runs
	resume() // twice is harmless
	c.setIdle(false)
	want := []bool{true, false, true, false}
	if len(changes) != len(want) {
		t.Fatalf("changes = %v, want %v", changes, want)
	}
	for i := range want {
		if changes[i] != want[i] {
			t.Fatalf("changes = %v, want %v", changes, want)
		}
	}
}
