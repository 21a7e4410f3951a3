package tests

import (
	"errors"
	"io"
	"os"
	"os/exec"
	"strings"
	"testing"
)

// BUDGET-1: --timeout stops a synchronous infinite loop with a failure.
func TestBUDGET1_TimeoutFlagStopsASpinningScript(t *testing.T) {
	res, _ := execJSON(t, `while (true) {}`, "", "--timeout", "1s")
	if res.OK || res.Summary != "failed" || !strings.Contains(res.Text, "budget") {
		t.Errorf("spinning script: %+v, want a failure that names the budget", res)
	}
}

// BUDGET-3: an await that never settles (a tool that never answers) ends
// at the deadline.
func TestBUDGET3_HangingToolIsCutOffAtTheDeadline(t *testing.T) {
	res, _ := execJSON(t, `return await tools.mcp__text__hang({});`, "", "--timeout", "1s")
	if res.OK || len(res.Calls) != 1 || res.Calls[0] != "mcp__text__hang" {
		t.Errorf("hanging call: %+v, want a failure after the one call", res)
	}
}

// BUDGET-4, SUM-7: --max-calls rejects only the call over the cap; the
// script catches it and finishes, and the rejected call is counted.
func TestBUDGET4_MaxCallsRejectsOnlyTheCallOverTheCap(t *testing.T) {
	script := `const seen = [];
for (const text of ["a", "b", "c"]) {
  try { seen.push(await tools.mcp__text__echo({ text })); } catch (e) { seen.push("rejected"); }
}
return seen;`
	res, _ := execJSON(t, script, "", "--max-calls", "2")
	if !res.OK || res.Text != `["a","b","rejected"]` {
		t.Errorf("got %+v, want the third call rejected and the script finished", res)
	}
	if len(res.Calls) != 3 {
		t.Errorf("calls = %q, want the rejected call counted too (SUM-7)", res.Calls)
	}
}

// --memory-mb caps the worker: a script that exhausts it fails, naming
// memory, and the demo goes on to exit cleanly.
func TestMemoryFlagCapsTheWorker(t *testing.T) {
	script := `const hog = []; while (true) hog.push(new Array(1 << 20).fill(7));`
	res, _ := execJSON(t, script, "", "--memory-mb", "256", "--timeout", "1m")
	if res.OK || !strings.Contains(res.Text, "memory") {
		t.Errorf("memory hog: %+v, want a failure naming memory", res)
	}
}

// An interrupt in the middle of a run (BUDGET-8) ends it, and closing the
// session stops every server and worker process the demo started.
func TestBUDGET8_InterruptEndsTheRunAndLeavesNoProcessBehind(t *testing.T) {
	cmd, stdout, terminal, mark := startHangingDemo(t)
	defer func() { _ = cmd.Process.Kill() }() // only if a check below fails first

	// The live line lists hang once the call is under way.
	waitShown(t, terminal, "2 tool calls: mcp__text__echo, mcp__text__hang")
	requireRunProcesses(t, mark)

	if err := cmd.Process.Signal(os.Interrupt); err != nil {
		t.Fatal(err)
	}
	go func() { _, _ = io.Copy(io.Discard, terminal) }() // the rest it shows
	rest, _ := io.ReadAll(stdout)
	err := cmd.Wait()
	var exitErr *exec.ExitError
	if !errors.As(err, &exitErr) || exitErr.ExitCode() != 130 {
		t.Errorf("after an interrupt: %v, want exit status 130", err)
	}
	if !strings.Contains(string(rest), "✗ Exec\n  failed\n") {
		t.Errorf("output after the interrupt %q, want the run reported as failed", rest)
	}
	checkNoSurvivors(t, mark)
}
