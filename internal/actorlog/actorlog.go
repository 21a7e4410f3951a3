// Package actorlog routes the actor system's own log records into zerolog,
// so that nothing prints to stderr unless the embedder's logger does.
package actorlog

import (
	"context"
	"log/slog"

	"github.com/asynkron/protoactor-go/actor"
	"github.com/rs/zerolog"

	"github.com/mcpexec/mcpexec/internal/slogzero"
)

// Option configures an actor system to log through logger.
func Option(logger zerolog.Logger) actor.ConfigOption {
	return actor.WithLoggerFactory(func(system *actor.ActorSystem) *slog.Logger {
		return slog.New(slogzero.New(logger.With().Str("actor_system", system.ID).Logger()))
	})
}

// NewSystem starts an actor system that logs through logger.
func NewSystem(logger zerolog.Logger) *actor.ActorSystem {
	return actor.NewActorSystem(Option(logger))
}

// NewSystemDemoting is NewSystem logging the records whose message is one
// of routine at debug level: errors the actor runtime reports for what is,
// where the caller uses it, the normal course of things.
func NewSystemDemoting(logger zerolog.Logger, routine ...string) *actor.ActorSystem {
	set := map[string]bool{}
	for _, msg := range routine {
		set[msg] = true
	}
	return actor.NewActorSystem(actor.WithLoggerFactory(func(system *actor.ActorSystem) *slog.Logger {
		h := slogzero.New(logger.With().Str("actor_system", system.ID).Logger())
		return slog.New(demoting{Handler: h, routine: set})
	}))
}

// demoting logs its routine messages at debug level.
type demoting struct {
	slog.Handler
	routine map[string]bool
}

func (d demoting) Handle(ctx context.Context, r slog.Record) error {
	if d.routine[r.Message] {
		if !d.Handler.Enabled(ctx, slog.LevelDebug) {
			return nil
		}
		r.Level = slog.LevelDebug
	}
	return d.Handler.Handle(ctx, r)
}

func (d demoting) WithAttrs(attrs []slog.Attr) slog.Handler {
	return demoting{Handler: d.Handler.WithAttrs(attrs), routine: d.routine}
}

func (d demoting) WithGroup(name string) slog.Handler {
	return demoting{Handler: d.Handler.WithGroup(name), routine: d.routine}
}
