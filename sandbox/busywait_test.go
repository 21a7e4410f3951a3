package sandbox

import (
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"runtime"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"
)

// TestBusyWindowFollowsTheWaits walks the window through the haltpoll rule:
// a wait inside the window keeps it, one soon after it grows it, one past
// the longest window shrinks it down to nothing, and short waits bring it
// back.
func TestBusyWindowFollowsTheWaits(t *testing.T) {
	var b busyWindow
	steps := []struct {
		waited time.Duration
		want   time.Duration
	}{
		{waited: 10 * time.Microsecond, want: busyWaitFirst}, // slept, but not for long
		{waited: 20 * time.Microsecond, want: busyWaitFirst}, // caught inside
		{waited: 2 * busyWaitFirst, want: 2 * busyWaitFirst}, // just missed
		{waited: busyWaitMax, want: min(4*busyWaitFirst, busyWaitMax)},
		{waited: busyWaitMax, want: busyWaitMax},
		{waited: busyWaitMax, want: busyWaitMax},              // caught at the limit
		{waited: 5 * time.Millisecond, want: busyWaitMax / 2}, // a real server's call
		{waited: 5 * time.Millisecond, want: busyWaitMax / 4},
	}
	for i, s := range steps {
		b.adapt(s.waited)
		if got := b.limit(); got != s.want {
			t.Fatalf("step %d (waited %v): window %v, want %v", i, s.waited, got, s.want)
		}
	}
	for range 64 {
		b.adapt(time.Second)
	}
	if got := b.limit(); got != 0 {
		t.Fatalf("after long waits the window is %v, want none", got)
	}
	b.adapt(30 * time.Microsecond)
	if got := b.limit(); got != busyWaitFirst {
		t.Fatalf("a short wait after none brings back %v, want %v", got, busyWaitFirst)
	}
}

// TestBusyWaitOnlyWhileTheRunsLeaveACPU: runs in flight beyond half of
// GOMAXPROCS take busy-waiting away from all of them.
func TestBusyWaitOnlyWhileTheRunsLeaveACPU(t *testing.T) {
	defer runtime.GOMAXPROCS(runtime.GOMAXPROCS(4))
	var ends []func()
	for i, want := range []bool{true, true, false, false} {
		ends = append(ends, beginRun())
		if got := runsLeaveACPU(); got != want {
			t.Fatalf("with %d runs in flight on 4 CPUs busy-waiting allowed = %v, want %v", i+1, got, want)
		}
	}
	for _, end := range ends[1:] {
		end()
	}
	if !runsLeaveACPU() {
		t.Fatal("one run left in flight may not busy-wait")
	}
	ends[0]()
	runtime.GOMAXPROCS(1)
	end := beginRun()
	defer end()
	if !runsLeaveACPU() {
		t.Fatal("a lone run on one CPU may not busy-wait")
	}
}

// TestBusyWaitingStopsWhenNothingComesSoon: after quick calls have taught
// both sides to busy-wait, a run whose tool takes milliseconds a call, and
// then an idle worker, cost the worker and the host next to no CPU time.
func TestBusyWaitingStopsWhenNothingComesSoon(t *testing.T) {
	if runtime.GOOS != "linux" {
		t.Skip("busy-waiting is on Linux only")
	}
	p := newTestWorkers(t, WorkerOptions{Warm: 1})
	h := newFakeHost().
		value("mcp__srv__quick", `1`).
		tool("mcp__srv__slow", func(context.Context, json.RawMessage) (CallResult, error) {
			time.Sleep(5 * time.Millisecond)
			return CallResult{Value: json.RawMessage(`1`)}, nil
		})
	res := workerRun(p, h, `let n = 0; for (let i = 0; i < 2000; i++) n += await tools.mcp__srv__quick({}); return n;`, Limits{MaxCalls: 2000})
	wantValue(t, res, `2000`)
	kids := childProcesses(t)
	if len(kids) != 1 {
		t.Fatalf("worker processes %v, want one", kids)
	}
	worker := kids[0]

	began, workerBefore, hostBefore := time.Now(), processCPU(t, worker), selfCPU(t)
	res = workerRun(p, h, `let n = 0; for (let i = 0; i < 20; i++) n += await tools.mcp__srv__slow({}); return n;`, Limits{})
	wantValue(t, res, `20`)
	wall := time.Since(began)
	workerSpent, hostSpent := processCPU(t, worker)-workerBefore, selfCPU(t)-hostBefore
	// Busy-waiting through the slow calls would take a CPU each for the
	// whole run; a window is a fraction of one call.
	if workerSpent > wall/3 || hostSpent > wall/3 {
		t.Errorf("over %v of slow calls the worker spent %v and the host %v on a CPU", wall, workerSpent, hostSpent)
	}

	workerBefore, hostBefore = processCPU(t, worker), selfCPU(t)
	time.Sleep(300 * time.Millisecond)
	if spent := processCPU(t, worker) - workerBefore; spent > 50*time.Millisecond {
		t.Errorf("an idle worker spent %v on a CPU in 300ms", spent)
	}
	if spent := selfCPU(t) - hostBefore; spent > 50*time.Millisecond {
		t.Errorf("an idle host spent %v on a CPU in 300ms", spent)
	}
}

// processCPU is the CPU time of every thread of process pid, from
// /proc/PID/task/*/schedstat (nanoseconds on a CPU first).
func processCPU(t *testing.T, pid int) time.Duration {
	t.Helper()
	tasks, err := filepath.Glob(filepath.Join("/proc", strconv.Itoa(pid), "task", "*", "schedstat"))
	if err != nil || len(tasks) == 0 {
		t.Fatalf("no threads of process %d: %v", pid, err)
	}
	var total time.Duration
	for _, task := range tasks {
		stat, err := os.ReadFile(task)
		if err != nil {
			continue // a thread that ended
		}
		ns, _ := strconv.ParseInt(strings.Fields(string(stat))[0], 10, 64)
		total += time.Duration(ns)
	}
	return total
}

func selfCPU(t *testing.T) time.Duration {
	t.Helper()
	var u syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &u); err != nil {
		t.Fatal(err)
	}
	return time.Duration(u.Utime.Nano() + u.Stime.Nano())
}

// TestDescheduledBusyWaitBacksOff: once a busy-wait found its CPU taken,
// the process polls no more until the back-off has passed.
func TestDescheduledBusyWaitBacksOff(t *testing.T) {
	descheduledUntil.Store(0) // a busy-wait of an earlier test may have lost its CPU
	defer descheduledUntil.Store(0)
	if cpuWanted() {
		t.Fatal("the CPU counts as wanted with no busy-wait descheduled")
	}
	descheduled()
	if !cpuWanted() {
		t.Fatal("busy-waiting still allowed right after a busy-wait was descheduled")
	}
	time.Sleep(busyWaitBackoff + busyWaitBackoff/2)
	if cpuWanted() {
		t.Fatal("busy-waiting still refused after the back-off")
	}
}

// TestRunnableTasksOfLoadavg reads the runnable count the way the kernel
// writes it, and refuses what is not that.
func TestRunnableTasksOfLoadavg(t *testing.T) {
	for text, want := range map[string]int{
		"0.52 0.58 0.59 3/512 12345\n": 3,
		"12.00 8.10 4.33 17/1024 99":   17,
	} {
		if got, ok := runnableTasks([]byte(text)); !ok || got != want {
			t.Errorf("runnableTasks(%q) = %d, %v; want %d", text, got, ok, want)
		}
	}
	for _, text := range []string{"", "0.52 0.58 0.59", "0.52 0.58 0.59 x/512 1", "0.52 0.58 0.59 3 1"} {
		if _, ok := runnableTasks([]byte(text)); ok {
			t.Errorf("runnableTasks(%q) read a count", text)
		}
	}
}
