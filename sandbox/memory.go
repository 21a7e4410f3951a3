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

// residentReader reads a process's resident set from /proc/<pid>/statm
// (its second field, in pages), keeping the file open: a check is one
// pread and no allocation, cheap enough to run every few milliseconds.
type residentReader struct {
	file *os.File
	buf  [128]byte
}

func openResident(pid int) (*residentReader, error) {
	f, err := os.Open("/proc/" + strconv.Itoa(pid) + "/statm")
	if err != nil {
		return nil, err
	}
	return &residentReader{file: f}, nil
}

// bytes returns the resident set; ok is false once it cannot be read (the
// process is gone).
func (r *residentReader) bytes() (n int64, ok bool) {
	read, err := r.file.ReadAt(r.buf[:], 0)
	if read == 0 && err != nil {
		return 0, false
	}
	field, pages := 0, int64(0)
	for _, c := range r.buf[:read] {
		switch {
		case c == ' ':
			if field == 1 {
				return pages * pageSize, true
			}
			field++
		case field == 1 && c >= '0' && c <= '9':
			pages = pages*10 + int64(c-'0')
		}
	}
	return 0, false
}

func (r *residentReader) close() { _ = r.file.Close() }

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
