package sandbox

import (
	"context"
	"strconv"
	"testing"
)

// TestIntlFormatsInTheWorkerWithTheHostsDefaults runs Intl through a worker
// process and in process: the default locale and time zone are en-US and
// UTC whatever the machine's, and the ones Limits carries when the host
// sets them.
func TestIntlFormatsInTheWorkerWithTheHostsDefaults(t *testing.T) {
	code := `return [
		(1234.5).toLocaleString("en-US", { style: "currency", currency: "USD" }),
		(1234.5).toLocaleString(),
		new Intl.NumberFormat().resolvedOptions().locale,
		["b", "a", "C"].sort(new Intl.Collator().compare).join(""),
		new Date(0).toLocaleString(),
	];`
	for _, inProcess := range []bool{false, true} {
		t.Run("inProcess="+strconv.FormatBool(inProcess), func(t *testing.T) {
			p := newTestWorkers(t, WorkerOptions{InProcess: inProcess, Warm: 1})
			wantValue(t, workerRun(p, newFakeHost(), code, Limits{}), `["$1,234.50","1,234.5","en-US","abC","1/1/1970, 12:00:00 AM"]`)
			wantValue(t, workerRun(p, newFakeHost(), code, Limits{Locale: "de-DE", TimeZone: "Asia/Tokyo"}), `["$1,234.50","1.234,5","de-DE","abC","1.1.1970, 09:00:00"]`)
		})
	}
}

// BenchmarkIntlFirstUse is a whole run whose script formats one number
// and one date: it pays for building Intl in the realm (and, once per
// process, for reading the locale's tables).
func BenchmarkIntlFirstUse(b *testing.B) {
	req := Request{Code: `return [(1234.5).toLocaleString("de-DE"), new Date(0).toLocaleDateString("en-US")];`, Host: instantHost{}, Tools: poolOf(100)}
	ctx := context.Background()
	b.ReportAllocs()
	for b.Loop() {
		if res := Run(ctx, req); !res.OK {
			b.Fatal(res.Text)
		}
	}
}
