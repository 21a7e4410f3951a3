package sandbox

import (
	"bytes"
	"os"
	"runtime"
	"strconv"
	"sync/atomic"
	"time"
)

// A busy-wait pays only while the machine has a CPU to spare. Beside other
// work that sleeps and wakes often (builds, test suites), a thread that
// polls instead of sleeping loses the priority the scheduler gives a thread
// waking from sleep, and the other side of the pipe waits for a CPU longer
// than a wake-up would have taken. So while runs are in flight the host
// looks, every loadSamplePeriod, at how many tasks of the machine are ready
// to run (the fourth field of /proc/loadavg, "runnable/total"), and allows
// no busy-wait while more are ready than there are CPUs and two: the two
// sides of a run that poll, and the look itself, are among them. Where the
// count cannot be read, the machine counts as idle, and the busy-waits' own
// back-off (busywait.go) is the only guard. In a container the count is the
// whole machine's, against the container's CPUs: on a busy node the gate
// stays shut, which costs speed, never the neighbours' CPU.
const loadSamplePeriod = 10 * time.Millisecond

var machineLoad struct {
	sampling atomic.Bool
	busy     atomic.Bool
}

// sampleMachineLoad makes sure the sampler runs; it stops on its own once
// no run is in flight.
func sampleMachineLoad() {
	if !machineLoad.sampling.Load() && machineLoad.sampling.CompareAndSwap(false, true) {
		go loadSampler()
	}
}

func loadSampler() {
	f, err := os.Open("/proc/loadavg")
	if err != nil {
		machineLoad.sampling.Store(false)
		return
	}
	defer f.Close()
	buf := make([]byte, 128)
	cpus := runtime.NumCPU()
	for {
		if n, _ := f.ReadAt(buf, 0); n > 0 {
			if running, ok := runnableTasks(buf[:n]); ok {
				machineLoad.busy.Store(running > cpus+2)
			}
		}
		time.Sleep(loadSamplePeriod)
		if runsInFlight.Load() > 0 {
			continue
		}
		machineLoad.busy.Store(false)
		machineLoad.sampling.Store(false)
		// A run may have begun just before the flag went down, and
		// seen it up: look once more.
		if runsInFlight.Load() == 0 || !machineLoad.sampling.CompareAndSwap(false, true) {
			return
		}
	}
}

// runnableTasks reads the runnable count of /proc/loadavg's text:
// "0.52 0.58 0.59 3/512 12345".
func runnableTasks(text []byte) (int, bool) {
	fields := bytes.Fields(text)
	if len(fields) < 4 {
		return 0, false
	}
	running, _, found := bytes.Cut(fields[3], []byte("/"))
	if !found {
		return 0, false
	}
	n, err := strconv.Atoi(string(running))
	return n, err == nil
}
