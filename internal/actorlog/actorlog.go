// Package actorlog routes the actor system's own log records into zerolog,
// so that nothing prints to stderr unless the embedder's logger does.
package actorlog

import (
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
