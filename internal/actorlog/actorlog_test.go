package actorlog

import (
	"bytes"
	"context"
	"log/slog"
	"testing"

	"github.com/asynkron/protoactor-go/actor"
	"github.com/rs/zerolog"
)

func TestActorSystemLogsThroughZerolog(t *testing.T) {
	var buf bytes.Buffer
	system := NewSystem(zerolog.New(&buf))
	defer system.Shutdown()
	system.Logger().Info("hello from the actor system")
	if out := buf.String(); !bytes.Contains([]byte(out), []byte(`"message":"hello from the actor system"`)) ||
		!bytes.Contains([]byte(out), []byte(`"actor_system":"`+system.ID+`"`)) {
		t.Errorf("log = %q", out)
	}
}

func TestNopLoggerKeepsTheSystemSilent(t *testing.T) {
	system := actor.NewActorSystem(Option(zerolog.Nop()))
	defer system.Shutdown()
	if system.Logger().Enabled(context.Background(), slog.LevelError) {
		t.Error("a Nop logger enables records")
	}
}
