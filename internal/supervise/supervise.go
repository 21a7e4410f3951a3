// Package supervise is the supervision every mcpexec actor runs under: a
// strategy that answers the asker whose message made an actor fail before
// it restarts or stops the actor, so no caller waits for a reply that cannot
// come.
package supervise

import (
	"fmt"
	"time"

	"github.com/asynkron/protoactor-go/actor"
	"github.com/rs/zerolog"

	"github.com/mcpexec/mcpexec/internal/ask"
)

// Restart limits: an actor that fails more often than this is in a crash
// loop; it is stopped, and later requests fail with ask.ErrStopped.
const (
	MaxRestarts   = 10
	RestartWindow = time.Minute
)

// Strategy returns the strategy for the actor called name: it logs the
// failure, answers the failed message's asker with ask.Crashed, then applies
// directive (actor.RestartDirective, at most MaxRestarts per RestartWindow;
// or actor.StopDirective).
func Strategy(name string, directive actor.Directive, logger zerolog.Logger) actor.SupervisorStrategy {
	decide := func(any) actor.Directive { return directive }
	var inner actor.SupervisorStrategy
	if directive == actor.RestartDirective {
		inner = actor.NewOneForOneStrategy(MaxRestarts, RestartWindow, decide)
	} else {
		inner = actor.NewOneForOneStrategy(0, 0, decide)
	}
	return &supervisor{name: name, inner: inner, logger: logger}
}

// Spawn spawns a top-level actor under strategy.
func Spawn(system *actor.ActorSystem, props *actor.Props, strategy actor.SupervisorStrategy) *actor.PID {
	return actor.NewRootContext(system, nil).WithGuardian(strategy).Spawn(props)
}

// supervisor applies a directive and first answers the failed message's
// asker.
type supervisor struct {
	name   string
	inner  actor.SupervisorStrategy
	logger zerolog.Logger
}

func (s *supervisor) HandleFailure(system *actor.ActorSystem, sup actor.Supervisor, child *actor.PID, stats *actor.RestartStatistics, reason any, message any) {
	s.logger.Error().Str("actor", s.name).Interface("panic", reason).Str("message", TypeName(message)).
		Msg("actor failed")
	if env, ok := message.(*actor.MessageEnvelope); ok && env.Sender != nil {
		system.Root.Send(env.Sender, &ask.Crashed{Reason: reason})
	}
	s.inner.HandleFailure(system, sup, child, stats, reason, message)
}

// TypeName names a message's type for logs, looking inside an envelope.
func TypeName(message any) string {
	if env, ok := message.(*actor.MessageEnvelope); ok {
		message = env.Message
	}
	return fmt.Sprintf("%T", message)
}
