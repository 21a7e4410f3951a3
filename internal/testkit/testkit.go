// Package testkit holds the small helpers several packages' tests share.
package testkit

import (
	"bytes"
	"os"
	"runtime"
	"sync"
	"testing"
	"time"

	"github.com/asynkron/protoactor-go/actor"
	"github.com/rs/zerolog"

	"github.com/mcpexec/mcpexec/internal/actorlog"
)

// ActorSystem is an actor system whose own logger is silent, shut down when
// the test ends.
func ActorSystem(tb testing.TB) *actor.ActorSystem {
	tb.Helper()
	system := actorlog.NewSystem(zerolog.Nop())
	tb.Cleanup(system.Shutdown)
	return system
}

// SyncBuffer is a log sink safe for concurrent writers.
type SyncBuffer struct {
	mu  sync.Mutex
	buf bytes.Buffer
}

func (b *SyncBuffer) Write(p []byte) (int, error) {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.buf.Write(p)
}

func (b *SyncBuffer) String() string {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.buf.String()
}

// CheckGoroutines fails the test if more goroutines run than before once
// whatever was stopping has had a moment to finish, and prints them.
func CheckGoroutines(tb testing.TB, before int) {
	tb.Helper()
	deadline := time.Now().Add(10 * time.Second)
	for runtime.NumGoroutine() > before && time.Now().Before(deadline) {
		time.Sleep(20 * time.Millisecond)
	}
	if n := runtime.NumGoroutine(); n > before {
		buf := make([]byte, 1<<20)
		tb.Errorf("goroutines left behind: %d before, %d after\n%s", before, n, buf[:runtime.Stack(buf, true)])
	}
}

// ReplaceFile writes data to path the way editors save: a new file renamed
// over the old one.
func ReplaceFile(tb testing.TB, path string, data []byte) {
	tb.Helper()
	tmp := path + ".tmp"
	if err := os.WriteFile(tmp, data, 0o600); err != nil {
		tb.Fatal(err)
	}
	if err := os.Rename(tmp, path); err != nil {
		tb.Fatal(err)
	}
}
