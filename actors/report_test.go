package actors

import (
	"slices"
	"testing"
)

// A run's reports share its calls rather than copy them, as a slow
// watcher queues one report per change; what a holder appends to a
// report's calls never shows in the run's.
func TestReportsShareTheRunsCallsSafely(t *testing.T) {
	a := &execActor{calls: append(make([]string, 0, 8), "mcp__a__x", "mcp__a__y")}
	p := &parkedRun{}
	first := p.report(a, nil)
	a.calls = append(a.calls, "mcp__a__z")
	second := p.report(a, nil)
	if &first.Calls[0] != &second.Calls[0] {
		t.Error("each report copied the run's calls")
	}
	held := append(first.Calls, "mcp__b__held")
	third := p.report(a, nil)
	if want := []string{"mcp__a__x", "mcp__a__y", "mcp__a__z"}; !slices.Equal(third.Calls, want) {
		t.Errorf("calls = %q after a holder appended %q, want %q", third.Calls, held, want)
	}
}
