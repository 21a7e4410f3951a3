package tests

import (
	"bufio"
	"os"
	"os/exec"
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
	mark := newRunMark(t)
	script := writeFile(t, "hang.js", `await tools.mcp__text__echo({ text: "started" });
await tools.mcp__text__hang({});`)
	cmd := exec.Command(demoBin, "exec", "--timeout", "10m", "--script", script)
	cmd.Env = append(os.Environ(), mark)
	stdout, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	out := bufio.NewScanner(stdout)
	for out.Scan() && !strings.Contains(out.Text(), "mcp__text__hang") {
	}
	if live := processesMarked(t, mark); len(live) < 4 {
		t.Fatalf("found %d processes of the run, want the demo, its 3 servers and a worker at least:\n%s",
			len(live), strings.Join(live, "\n"))
	}
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
