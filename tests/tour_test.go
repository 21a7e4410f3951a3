package tests

import (
	"strconv"
	"strings"
	"testing"
)

// tourHeadings are the titles of the tour's steps, in order.
var tourHeadings = []string{
	"Tool declarations",
	"The catalog message",
	"Exec chains calls in one script",
	"What a script receives",
	"Truncation and search with a small budget",
	"A permission prompt",
	"A server connects: the catalog update",
	"The switch flipped in the settings file",
	"Any MCP client gets Exec: the gateway",
	"A hostile script, contained",
}

// The tour, run as `make demo` runs it but with stdout a pipe: it exits 0
// and shows each step, with the evidence of what the step demonstrates:
// truncation (CAT-4), search finding a tool the catalog left out
// (SEARCH-4), the live summary (SUM-4), the permission prompt (PERM-1), the
// namespace-level update after a server connects (BCAST-7), the catalog
// withdrawn when the switch is flipped in the settings file (SWITCH-4,
// BCAST-11), a client served by the gateway with live progress, and the
// hostile scripts contained (ISO-2, BUDGET-1).
func TestTourRunsEveryStepAndExitsZero(t *testing.T) {
	run := runDemo(t, "")
	if run.code != 0 {
		t.Fatalf("tour: exit %d\nstdout:\n%s\nstderr:\n%s", run.code, run.stdout, run.stderr)
	}
	at := 0
	for i, title := range tourHeadings {
		heading := "Step " + strconv.Itoa(i+1) + "/" + strconv.Itoa(len(tourHeadings)) + " · " + title
		next := strings.Index(run.stdout[at:], heading)
		if next < 0 {
			t.Fatalf("heading %q missing or out of order:\n%s", heading, run.stdout)
		}
		at += next
	}
	for _, want := range []string{
		"PARTIAL:",                 // truncation
		"live: 2 tool calls",       // the live summary
		"? Allow mcp__srv__delete", // the permission prompt
		"- mcp__weather (1 tool)",  // the diff after the server connected
		"no longer applies",        // the switch turned off
		"notifications/progress: 1 tool call: mcp__srv__fetch", // the gateway
		`"eval":"EvalError"`, // the hostile script
		"Tour complete",
	} {
		if !strings.Contains(run.stdout, want) {
			t.Errorf("tour output lacks %q", want)
		}
	}
	if strings.Contains(run.stdout, "\x1b[") {
		t.Error("colours in output that is not a terminal")
	}
	// The tour's last line names commands the person can run: the binary
	// that ran it.
	_, next, _ := strings.Cut(run.stdout, "Next: ")
	if cmd, _, _ := strings.Cut(next, " exec --script FILE"); cmd != demoBin {
		t.Errorf("the tour's next steps name %q, not the demo that ran (%s)", cmd, demoBin)
	}
}
