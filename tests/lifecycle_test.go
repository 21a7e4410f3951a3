package tests

import (
	"strings"
	"testing"
	"time"
)

// orphanLimit bounds how long the processes of a killed demo may take to
// notice: far above the moment it takes, so only a process that never
// ends reaches it.
const orphanLimit = 30 * time.Second

// A demo killed outright cannot stop anything: its servers and workers must
// end by themselves when their pipes to it close, even with a call in
// flight, instead of living on as orphans.
func TestKilledDemoLeavesNoOrphans(t *testing.T) {
	cmd, _, terminal, mark := startHangingDemo(t)
	waitShown(t, terminal, "mcp__text__hang")
	requireRunProcesses(t, mark)
	if err := cmd.Process.Kill(); err != nil {
		t.Fatal(err)
	}
	_ = cmd.Wait()

	deadline := time.Now().Add(orphanLimit)
	for {
		left := processesMarked(t, mark)
		if len(left) == 0 {
			return
		}
		if time.Now().After(deadline) {
			t.Fatalf("orphans of the killed demo still running:\n%s", strings.Join(left, "\n"))
		}
		time.Sleep(50 * time.Millisecond)
	}
}
