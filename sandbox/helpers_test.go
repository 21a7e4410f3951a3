package sandbox

import (
	"encoding/json"
	"runtime"
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
)

func wantOK(t *testing.T, res Result) {
	t.Helper()
	if !res.OK {
		t.Fatalf("run failed: %s", res.Text)
	}
}

func wantFailure(t *testing.T, res Result, fragments ...string) {
	t.Helper()
	if res.OK {
		t.Fatalf("run succeeded, want a failure; text:\n%s", res.Text)
	}
	for _, f := range fragments {
		if !strings.Contains(res.Text, f) {
			t.Errorf("failure text lacks %q:\n%s", f, res.Text)
		}
	}
}

// wantValue checks the return value as JSON, compared structurally.
func wantValue(t *testing.T, res Result, wantJSON string) {
	t.Helper()
	wantOK(t, res)
	var got, want any
	if err := json.Unmarshal(res.Value, &got); err != nil {
		t.Fatalf("value %q is not JSON: %v (text %q)", res.Value, err, res.Text)
	}
	if err := json.Unmarshal([]byte(wantJSON), &want); err != nil {
		t.Fatalf("bad want: %v", err)
	}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("return value mismatch (-want +got):\n%s", diff)
	}
}

// checkNoGoroutineLeak records the goroutine count and, at cleanup, waits for
// it to come back down. The wait is a failure guard, not a timing assertion.
func checkNoGoroutineLeak(t *testing.T) {
	t.Helper()
	before := runtime.NumGoroutine()
	t.Cleanup(func() {
		deadline := time.Now().Add(10 * time.Second)
		for runtime.NumGoroutine() > before {
			if time.Now().After(deadline) {
				buf := make([]byte, 1<<20)
				n := runtime.Stack(buf, true)
				t.Errorf("goroutines leaked: %d before, %d after\n%s", before, runtime.NumGoroutine(), buf[:n])
				return
			}
			time.Sleep(10 * time.Millisecond)
		}
	})
}
