package actors

import (
	"fmt"
	"time"

	"github.com/asynkron/protoactor-go/actor"
	"github.com/rs/zerolog"

	"github.com/mcpexec/mcpexec/internal/ask"
)

// Supervision. Every actor here states what a crash (a panic in its Receive)
// means for it:
//
//   - the pool and gate actors are restarted: their producer builds a fresh
//     actor around the state that outlives a crash (the pool Manager and
//     its subscribers; the person's unsaved "allow always" answers), and the
//     old one answers everything it was holding on *actor.Restarting;
//   - an exec actor is stopped: it answers its Exec call with a failure on
//     *actor.Stopping, and its sandbox actor goes with it;
//   - a sandbox actor is stopped by its exec actor, never restarted, because
//     running a script again would repeat its nested calls.
//
// In every case the asker whose message made the actor fail is answered at
// once (ask.Crashed), so no caller waits for a reply that cannot come. (The
// config actor, in package hotreload, contains a panic in its Receive
// itself: it answers the message with the error and keeps the last good
// configuration.)

// Restart limits: an actor that fails more often than this is in a crash
// loop; it is stopped, and later requests fail with ask.ErrStopped.
const (
	maxRestarts   = 10
	restartWindow = time.Minute
)

// supervisor applies a directive and first answers the failed message's
// asker.
type supervisor struct {
	name   string
	inner  actor.SupervisorStrategy
	logger zerolog.Logger
}

func newSupervisor(name string, directive actor.Directive, logger zerolog.Logger) *supervisor {
	decide := func(any) actor.Directive { return directive }
	var inner actor.SupervisorStrategy
	if directive == actor.RestartDirective {
		inner = actor.NewOneForOneStrategy(maxRestarts, restartWindow, decide)
	} else {
		inner = actor.NewOneForOneStrategy(0, 0, decide)
	}
	return &supervisor{name: name, inner: inner, logger: logger}
}

func (s *supervisor) HandleFailure(system *actor.ActorSystem, sup actor.Supervisor, child *actor.PID, stats *actor.RestartStatistics, reason any, message any) {
	s.logger.Error().Str("actor", s.name).Interface("panic", reason).Str("message", typeName(message)).
		Msg("actor failed")
	if env, ok := message.(*actor.MessageEnvelope); ok && env.Sender != nil {
		system.Root.Send(env.Sender, &ask.Crashed{Reason: reason})
	}
	s.inner.HandleFailure(system, sup, child, stats, reason, message)
}

// spawnSupervised spawns a top-level actor under strategy.
func spawnSupervised(system *actor.ActorSystem, props *actor.Props, strategy actor.SupervisorStrategy) *actor.PID {
	return actor.NewRootContext(system, nil).WithGuardian(strategy).Spawn(props)
}

func typeName(message any) string {
	if env, ok := message.(*actor.MessageEnvelope); ok {
		message = env.Message
	}
	return fmt.Sprintf("%T", message)
}
