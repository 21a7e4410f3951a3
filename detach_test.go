package mcpexec_test

import (
	"context"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/mcpexec/mcpexec"
)

const allowLedger = `{"permissions": {"allow": ["mcp__l__*"]}}`

// A run still going when its call stops waiting goes on; waiting again
// reaches its end, and nothing in it ran twice.
func TestDetachedRunIsWaitedOnNotRunAgain(t *testing.T) {
	sys, _ := parkSystem(t, allowLedger, mcpexec.Options{})
	ctx := context.Background()
	// The pause keeps the run going well past the wait.
	res := sys.StartDetached(ctx, mcpexec.DeclareOptions{}, codeArgs(`
		await tools.mcp__l__write({key: "a"});
		await new Promise(r => setTimeout(r, 300));
		await tools.mcp__l__write({key: "b"});
		return "done";`), mcpexec.DetachOptions{Wait: time.Millisecond}, nil)
	if res.Running == "" || res.OK || res.Text != "" {
		t.Fatalf("the run was not left running: %+v", res)
	}
	if !strings.HasPrefix(string(res.Running), "run_") {
		t.Errorf("run id %q", res.Running)
	}
	res, err := sys.WaitRun(ctx, res.Running, 0, nil)
	if err != nil {
		t.Fatal(err)
	}
	if !res.OK || res.Text != `"done"` && res.Text != "done" {
		t.Fatalf("the run's end: ok=%v %q", res.OK, res.Text)
	}
	again, err := sys.WaitRun(ctx, mcpexec.RunID(strings.Clone(string(res.Running))), 0, nil)
	if err == nil && again.Running != "" {
		t.Errorf("an ended run reported running: %+v", again)
	}
	if ran := ranOnLedger(t, sys); !slices.Equal(ran.Write, []string{"a", "b"}) {
		t.Errorf("writes %v, want each once", ran.Write)
	}
}

// A detached run is cancelled by its id; its calls made stay made, the
// ones it had not reached never run.
func TestDetachedRunIsCancelled(t *testing.T) {
	sys, _ := parkSystem(t, allowLedger, mcpexec.Options{})
	ctx := context.Background()
	res := sys.StartDetached(ctx, mcpexec.DeclareOptions{}, codeArgs(`
		await tools.mcp__l__write({key: "a"});
		await new Promise(r => setTimeout(r, 60000));
		await tools.mcp__l__write({key: "never"});`), mcpexec.DetachOptions{Wait: time.Millisecond}, nil)
	if res.Running == "" {
		t.Fatalf("the run was not left running: %+v", res)
	}
	for len(ranOnLedger(t, sys).Write) == 0 {
		time.Sleep(10 * time.Millisecond) // the first write is under way
	}
	if !sys.CancelRun(res.Running) {
		t.Fatal("CancelRun found no run going")
	}
	end, err := sys.WaitRun(ctx, res.Running, 0, nil)
	if err != nil {
		t.Fatal(err)
	}
	status, err := sys.RunStatus(ctx, res.Running)
	if err != nil {
		t.Fatal(err)
	}
	if end.OK || status.State != mcpexec.RunCancelled {
		t.Errorf("after CancelRun: ok=%v state %s, want cancelled", end.OK, status.State)
	}
	if ran := ranOnLedger(t, sys); !slices.Equal(ran.Write, []string{"a"}) {
		t.Errorf("writes %v, want only the one made before the cancel", ran.Write)
	}
}

// A detached run that parks: its question comes while nobody waits on it,
// so it parks on its own (input_required), and answering resumes it.
func TestDetachedRunParksWhileNobodyWaits(t *testing.T) {
	sys, _ := parkSystem(t, `{"permissions": {"ask": ["mcp__l__write"], "allow": ["mcp__l__ran"]}}`, mcpexec.Options{})
	ctx := context.Background()
	res := sys.StartDetached(ctx, mcpexec.DeclareOptions{}, codeArgs(`
		await new Promise(r => setTimeout(r, 300));
		await tools.mcp__l__write({key: "a"});
		return "written";`), mcpexec.DetachOptions{Wait: time.Millisecond, Park: true}, nil)
	if res.Running == "" {
		t.Fatalf("the run was not left running: %+v", res)
	}
	status := waitForState(t, sys, res.Running, mcpexec.RunInputRequired)
	if len(status.Questions) != 1 || status.Questions[0].Permission == nil || status.Questions[0].Permission.Tool != "mcp__l__write" {
		t.Fatalf("questions %+v", status.Questions)
	}
	end, err := sys.ResumeRun(ctx, res.Running, allowAllOnce(&mcpexec.Pending{Run: res.Running, Questions: status.Questions}), nil)
	if err != nil {
		t.Fatal(err)
	}
	if !end.OK || !strings.Contains(end.Text, "written") {
		t.Errorf("after the answer: ok=%v %q", end.OK, end.Text)
	}
	if ran := ranOnLedger(t, sys); !slices.Equal(ran.Write, []string{"a"}) {
		t.Errorf("writes %v", ran.Write)
	}
}
