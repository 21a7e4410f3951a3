package actors

import (
	"github.com/asynkron/protoactor-go/actor"
	"github.com/rs/zerolog"

	"github.com/mcpexec/mcpexec/internal/supervise"
)

// Supervision. Every actor here states what a crash (a panic in its Receive)
// means for it:
//
//   - the pool and gate actors are restarted: their producer builds a fresh
//     actor around the state that outlives a crash (the pool Manager and
//     its subscribers; the person's unsaved "allow always" answers), and the
//     old one answers everything it was holding on *actor.Restarting;
//   - the catalog broadcaster is restarted with an empty cache: its views
//     are derived data;
//   - an exec actor is stopped: it answers its Exec call with a failure on
//     *actor.Stopping, and its sandbox actor goes with it;
//   - a sandbox actor is stopped by its exec actor, never restarted, because
//     running a script again would repeat its nested calls.
//
// In every case the asker whose message made the actor fail is answered at
// once (ask.Crashed), so no caller waits for a reply that cannot come; an
// actor that fails more than supervise.MaxRestarts times a minute is
// stopped. The config actor, in package hotreload, runs under the same
// supervision: it is restarted from the last good configuration it
// published.

// newSupervisor is the strategy of the actor called name.
func newSupervisor(name string, directive actor.Directive, logger zerolog.Logger) actor.SupervisorStrategy {
	return supervise.Strategy(name, directive, logger)
}

// spawnSupervised spawns a top-level actor under strategy.
func spawnSupervised(system *actor.ActorSystem, props *actor.Props, strategy actor.SupervisorStrategy) *actor.PID {
	return supervise.Spawn(system, props, strategy)
}

// typeName names a message's type for logs.
func typeName(message any) string { return supervise.TypeName(message) }
