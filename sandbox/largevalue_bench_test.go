//go:build linux

package sandbox

import (
	"context"
	"io"
	"testing"
	"time"
)

// BenchmarkLargeReturnValue measures what returning a 64 MiB string costs a
// worker process, beside a script that builds the same string and returns
// only its length: the time, and the worker's peak resident memory
// (peak-MiB, its VmHWM). Returned whole, the value's JSON streams to the
// host as it is written; were it built whole beside the string, the peak
// would grow by the value's size again.
func BenchmarkLargeReturnValue(b *testing.B) {
	for _, tc := range []struct{ name, code string }{
		{"BuildOnly", `const s = "x".repeat(64 << 20); return s.length`},
		{"ReturnedWhole", `return "x".repeat(64 << 20)`},
	} {
		b.Run(tc.name, func(b *testing.B) {
			opts, err := WorkerOptions{}.withDefaults()
			if err != nil {
				b.Fatal(err)
			}
			var peak float64
			for i := 0; i < b.N; i++ {
				b.StopTimer()
				w, err := startWorker(opts) // a fresh process: its peak is this run's
				if err != nil {
					b.Fatal(err)
				}
				b.StartTimer()
				res := w.Run(context.Background(), Request{Code: tc.code, Tools: NewToolSet(nil),
					Limits:    Limits{Timeout: time.Minute, MaxKeptBytes: 65 << 20},
					Reference: &Reference{Sink: io.Discard}})
				b.StopTimer()
				if !res.OK {
					b.Fatalf("run failed: %s", res.Text)
				}
				peak = max(peak, statusKiB(w.pid, "VmHWM:")/1024)
				w.stop()
				b.StartTimer()
			}
			b.ReportMetric(peak, "peak-MiB")
		})
	}
}
