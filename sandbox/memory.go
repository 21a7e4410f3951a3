package sandbox

import (
	"os"
	"strconv"
	"strings"
	"time"
)

// How a worker's memory cap holds (WorkerOptions.MemoryLimit), measured on
// Linux with the pinned Go and goja:
//
//   - Inside the worker, RLIMIT_DATA bounds its private writable mappings,
//     where the Go heap lives: an allocation past it fails and the runtime
//     dies. A soft Go memory limit below it makes the collector work hard
//     first. In a normal build a hostile script then peaks well under the
//     cap. Under the race detector the shadow memory counts against the
//     limit too, so it has to be widened, and the cap alone no longer holds
//     (a worker reached 2.4 GB resident under a 512 MiB cap).
//   - So the host watches too: during a run it reads the worker's resident
//     set from /proc every memoryCheckInterval and kills a worker that is
//     over its cap. The kill does not depend on anything the worker does.
//   - A worker that dies of memory does not always say so: a failed mapping
//     can surface as a SIGSEGV in the runtime, or as a thread that cannot be
//     created. A worker runs pure Go under a memory cap, so these deaths are
//     reported as memory too (crashCause).
//
// RLIMIT_AS is not used: the race detector reserves terabytes of address
// space, and the Go runtime's own reservations make a virtual-size cap a
// poor proxy for the memory a script uses.

// memoryCheckInterval is how often the host reads a busy worker's resident
// set.
const memoryCheckInterval = 10 * time.Millisecond

// pageSize converts /proc/<pid>/statm pages to bytes.
var pageSize = int64(os.Getpagesize())

// residentBytes is the resident set of process pid, from /proc/<pid>/statm
// (its second field, in pages). ok is false when it cannot be read (the
// process is gone, or this is not Linux).
func residentBytes(pid int) (bytes int64, ok bool) {
	data, err := os.ReadFile("/proc/" + strconv.Itoa(pid) + "/statm")
	if err != nil {
		return 0, false
	}
	fields := strings.Fields(string(data))
	if len(fields) < 2 {
		return 0, false
	}
	pages, err := strconv.ParseInt(fields[1], 10, 64)
	if err != nil {
		return 0, false
	}
	return pages * pageSize, true
}

// crashCause tells the model, in plain words, why a worker died, from what
// the worker printed and whether the host killed it for its memory.
func crashCause(output string, overMemory bool) string {
	out := strings.ToLower(output)
	switch {
	case overMemory:
		return msgWorkerOutOfMemory
	case strings.Contains(out, "stack exceeds"), strings.Contains(out, "stack overflow"):
		return msgWorkerStackOverflow
	case strings.Contains(out, "out of memory"), strings.Contains(out, "cannot allocate memory"),
		strings.Contains(out, "failed to allocate"),
		// A mapping the runtime needed was refused under the cap, and it
		// faulted on it or could not start a thread.
		strings.Contains(out, "sigsegv"), strings.Contains(out, "pthread_create failed"),
		strings.Contains(out, "failed to create new os thread"):
		return msgWorkerOutOfMemory
	}
	return msgWorkerCrashed
}
