//go:build linux

package sandbox

import (
	"context"
	"os"
	"strconv"
	"strings"
	"sync/atomic"
	"testing"
	"time"
)

// memoryHogs grow without bound in the ways that reached past the cap
// before the host watched resident memory: one string split into a
// character array, then copies of it kept, and plain array growth.
var memoryHogs = map[string]string{
	"split then growth": `const s = "x".repeat(2 ** 24); const a = s.split(""); const kept = []; for (;;) kept.push(a.slice());`,
	"split doubling":    `let a = "xy".repeat(2 ** 22).split(""); for (;;) a = a.concat(a);`,
	"push hog":          `const hog = []; for (;;) hog.push(new Array(1 << 20).fill(7));`,
}

// watchPeakResident samples a worker process's peak resident memory (its
// VmHWM) every millisecond until it exits, and returns the last sample.
//
// The kernel's own record at exit (rusage ru_maxrss) cannot serve: the
// worker is started with vfork and exec, and exec carries the high-water
// mark of the memory it replaces, which is this test process's, into the
// worker's. Once the test process has grown past the cap (a race-detector
// build running the whole package does), every worker would seem to have.
func watchPeakResident(t *testing.T, w *Worker) (peak func() int64) {
	t.Helper()
	var last atomic.Int64
	done := make(chan struct{})
	go func() {
		defer close(done)
		for {
			if kb := statusKiB(w.pid, "VmHWM:"); kb > 0 {
				last.Store(int64(kb) << 10)
			}
			select {
			case <-w.exited:
				return
			case <-time.After(time.Millisecond):
			}
		}
	}()
	return func() int64 {
		<-done
		return last.Load()
	}
}

// TestWorkerMemoryCapHoldsForResidentMemory runs scripts that grow without
// bound in a worker capped at 256 MiB and checks the kernel's record of the
// worker's peak resident memory: it must stay within the cap plus what one
// check interval of growth and the binary's own pages can add (a quarter of
// the cap), and the run must fail naming memory. The peak is sampled while
// the worker lives, so the last millisecond before its kill may be missed.
func TestWorkerMemoryCapHoldsForResidentMemory(t *testing.T) {
	const limit = 256 << 20
	opts, err := WorkerOptions{MemoryLimit: limit}.withDefaults()
	if err != nil {
		t.Fatal(err)
	}
	for name, code := range memoryHogs {
		t.Run(name, func(t *testing.T) {
			w, err := startWorker(opts)
			if err != nil {
				t.Fatal(err)
			}
			defer w.stop()
			peakResident := watchPeakResident(t, w)
			res := w.Run(context.Background(), Request{Code: code, Tools: NewToolSet(nil), Limits: Limits{Timeout: time.Minute}})
			w.stop()
			peak := peakResident()
			t.Logf("peak resident %d MiB under a %d MiB cap: %s", peak>>20, limit>>20, res.Error)
			if res.OK || !strings.Contains(res.Text, "more memory than it may") {
				t.Errorf("ok=%v text=%q, want a failure naming memory", res.OK, res.Text)
			}
			if peak > limit+limit/4 {
				t.Errorf("peak resident memory %d MiB, over the %d MiB cap", peak>>20, limit>>20)
			}
		})
	}
}

// TestMemoryDeathsAreReportedAsMemory checks how a worker's death is told,
// with the first lines the Go runtime and the race detector print when a
// worker dies under its cap.
func TestMemoryDeathsAreReportedAsMemory(t *testing.T) {
	cases := []struct {
		output     string
		overMemory bool
		want       string
	}{
		{"fatal error: runtime: out of memory", false, msgWorkerOutOfMemory},
		{"fatal error: out of memory allocating heap arena metadata", false, msgWorkerOutOfMemory},
		{"fatal error: runtime: cannot allocate memory", false, msgWorkerOutOfMemory},
		{"SIGSEGV: segmentation violation\nPC=0x4a2f3c m=3 sigcode=1 addr=0x0", false, msgWorkerOutOfMemory},
		{"runtime/cgo: pthread_create failed: Resource temporarily unavailable", false, msgWorkerOutOfMemory},
		{"runtime: failed to create new OS thread (have 9 already; errno=11)", false, msgWorkerOutOfMemory},
		{"==24075==ERROR: ThreadSanitizer failed to allocate 0x100000000 (4294967296) bytes", false, msgWorkerOutOfMemory},
		{"", true, msgWorkerOutOfMemory},
		{"runtime: goroutine stack exceeds 268435456-byte limit\nfatal error: stack overflow", false, msgWorkerStackOverflow},
		{"panic: something else\n\ngoroutine 1 [running]:", false, msgWorkerCrashed},
		{"", false, msgWorkerCrashed},
	}
	for _, c := range cases {
		if got := crashCause(c.output, c.overMemory); got != c.want {
			t.Errorf("crashCause(%q, %v) = %q, want %q", c.output, c.overMemory, got, c.want)
		}
	}
}

// The resident-set reader reads what the kernel reports for the process.
func TestResidentReaderReadsStatm(t *testing.T) {
	r, err := openResident(os.Getpid())
	if err != nil {
		t.Fatal(err)
	}
	defer r.close()
	got, ok := r.bytes()
	data, err := os.ReadFile("/proc/self/statm")
	if err != nil || !ok {
		t.Fatalf("read: %v, ok=%v", err, ok)
	}
	pages, _ := strconv.ParseInt(strings.Fields(string(data))[1], 10, 64)
	// The two reads are moments apart; the resident set moves a little.
	if diff := got - pages*pageSize; diff < -(8<<20) || diff > 8<<20 {
		t.Errorf("resident %d bytes, statm says %d pages", got, pages)
	}
}
