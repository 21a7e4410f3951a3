package gateway

import "testing"

// A task's watcher may apply a report older than the status tasks/get or
// tasks/cancel set: once the task ended, nothing takes it back to working.
func TestAnEndedTasksStatusIsFinal(t *testing.T) {
	for _, end := range []string{"completed", "failed", "cancelled"} {
		task := &execTask{status: "working"}
		task.set("input_required", "1 tool call")
		task.set("working", "1 tool call")
		if got := task.info().Status; got != "working" {
			t.Fatalf("status = %q after input_required then working, want working", got)
		}
		task.set(end, "2 tool calls: mcp__a__x, mcp__a__y")
		task.set("working", "1 tool call")
		task.set("input_required", "1 tool call")
		if info := task.info(); info.Status != end || info.StatusMessage != "2 tool calls: mcp__a__x, mcp__a__y" {
			t.Errorf("a %s task became %q (%q) on older reports", end, info.Status, info.StatusMessage)
		}
	}
}
