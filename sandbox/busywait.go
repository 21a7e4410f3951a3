package sandbox

import (
	"runtime"
	"sync/atomic"
	"time"
)

// Busy-waiting for the other side of a worker connection.
//
// A nested call crosses the process boundary twice, and each crossing wakes
// a sleeping thread in the other process: on a virtual machine that is an
// interrupt to a halted virtual CPU, most of a quick call's time. So a side
// that expects a frame soon polls its pipe for a short while before it
// sleeps: a worker that has calls in flight, and the host's reader while a
// run goes on. Whoever answers within the window finds the other side
// awake.
//
// The window adapts to the waits it sees, by the rule Linux's haltpoll
// governor uses for idle virtual CPUs: a wait that ended inside the window
// keeps it; one that ended soon after it grows it (doubled, up to
// busyWaitMax); one longer than busyWaitMax shrinks it (halved, down to
// nothing). A script waiting on real MCP servers (milliseconds a call) thus
// stops busy-waiting after a few calls, and one calling quick tools in a
// loop keeps both processes awake for each other.
//
// Busy-waiting takes a CPU, so the host allows it only while the runs in
// flight in this process leave a CPU for each side that may poll (at most
// half of GOMAXPROCS runs, and one run on a machine of one or two CPUs; a
// batch of concurrent runs sleeps as before). The worker polls only when
// the host's last start or result frame allowed it.
//
// On a machine whose CPUs other work wants, polling loses the priority the
// scheduler gives a thread that wakes from sleep. So a busy-wait that finds
// itself descheduled between two looks for busyWaitGap or more, by another
// task of the machine (its thread's involuntary context switches grew),
// sleeps at once, and no busy-wait of the process polls for
// busyWaitBackoff. A gap the hypervisor made (the count did not grow: the
// virtual CPU itself was away) is no reason to sleep: waking a halted
// virtual CPU on a busy host is slower still. It never yields
// between looks: sched_yield hands the CPU to a busy neighbour for a whole
// time slice, which measured several times slower than sleeping on a
// machine with two CPU-bound processes beside a run.
const (
	busyWaitFirst   = 50 * time.Microsecond
	busyWaitMax     = 200 * time.Microsecond
	busyWaitGap     = 200 * time.Microsecond
	busyWaitBackoff = 100 * time.Millisecond
)

// busyWindow is one side's adaptive busy-wait window, in nanoseconds.
type busyWindow struct{ ns atomic.Int64 }

// limit is how long the next wait polls before it sleeps.
func (b *busyWindow) limit() time.Duration { return time.Duration(b.ns.Load()) }

// adapt sets the window from a wait that took waited.
func (b *busyWindow) adapt(waited time.Duration) {
	window := b.limit()
	switch {
	case waited <= window:
	case waited <= busyWaitMax:
		b.ns.Store(int64(min(max(2*window, busyWaitFirst), busyWaitMax)))
	default:
		b.ns.Store(int64(window / 2))
	}
}

// runsInFlight counts the worker runs going on in this process (host side);
// busyWaitRuns is how many of them may busy-wait at once, each having two
// sides that may poll (half of GOMAXPROCS, read when a run begins: asking
// the runtime takes a lock).
var runsInFlight, busyWaitRuns atomic.Int64

// beginRun counts a run in flight until end is called.
func beginRun() (end func()) {
	busyWaitRuns.Store(int64(max(1, runtime.GOMAXPROCS(0)/2)))
	runsInFlight.Add(1)
	sampleMachineLoad()
	return func() { runsInFlight.Add(-1) }
}

// busyWaitAllowed reports whether the runs in flight now leave room for a
// busy-wait, the machine has a CPU to spare (machineload.go), and this
// process has not found its CPU wanted lately.
func busyWaitAllowed() bool {
	return runsLeaveACPU() && !machineLoad.busy.Load() && !cpuWanted()
}

// runsLeaveACPU reports whether the runs in flight leave a CPU for each
// side of each that may poll.
func runsLeaveACPU() bool { return runsInFlight.Load() <= busyWaitRuns.Load() }

// descheduledUntil: a busy-wait of this process found itself descheduled
// for longer than busyWaitGap, so other work wants the CPU: none polls
// until then (Unix nanoseconds).
var descheduledUntil atomic.Int64

// descheduled records a busy-wait that lost its CPU.
func descheduled() {
	descheduledUntil.Store(time.Now().Add(busyWaitBackoff).UnixNano())
}

// cpuWanted reports whether a busy-wait lost its CPU lately.
func cpuWanted() bool { return time.Now().UnixNano() < descheduledUntil.Load() }
