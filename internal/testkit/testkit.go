// Package testkit holds the small helpers several packages' tests share.
package testkit

import (
	"bytes"
	"sync"
	"testing"

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
