// Package ask is the one way mcpexec asks an actor something and waits for
// the answer: a typed request and reply, bounded by the caller's context.
//
// The reply address is not an actor and not a protoactor future: it is a
// one-slot mailbox in the process registry, removed when the request is
// over. A reply that arrives after the asker gave up finds the slot free or
// is dropped, so nothing races (a future stopped while its reply arrives is
// a data race inside the actor library), and a request costs no actor spawn
// and no goroutine.
package ask

import (
	"context"
	"errors"
	"fmt"

	"github.com/asynkron/protoactor-go/actor"
)

// ErrStopped is returned when the actor asked is gone (its reply came from
// the dead-letter office).
var ErrStopped = errors.New("the actor has stopped")

// Crashed is the reply a supervisor sends to the asker whose message made
// an actor fail: the asker learns at once that no answer will come.
type Crashed struct {
	// Reason is the panic value, for logs.
	Reason any
}

// CrashError is the error Request returns for a Crashed reply.
type CrashError struct{ Reason any }

func (e *CrashError) Error() string { return fmt.Sprintf("the actor failed: %v", e.Reason) }

// Request sends msg to pid and waits for its reply, which must be an R. It
// returns ctx's error when ctx ends first (the actor still gets the message
// and may still answer; the answer is dropped), ErrStopped when pid is gone
// and a *CrashError when handling msg made the actor fail.
func Request[R any](ctx context.Context, system *actor.ActorSystem, pid *actor.PID, msg any) (R, error) {
	var zero R
	box := make(slot, 1)
	self, _ := system.ProcessRegistry.Add(box, "ask"+system.ProcessRegistry.NextId())
	defer system.ProcessRegistry.Remove(self)
	system.Root.RequestWithCustomSender(pid, msg, self)
	select {
	case m := <-box:
		switch reply := m.(type) {
		case R:
			return reply, nil
		case *actor.DeadLetterResponse:
			return zero, ErrStopped
		case *Crashed:
			return zero, &CrashError{Reason: reply.Reason}
		default:
			return zero, fmt.Errorf("ask: %T answered %T with %T", msg, zero, m)
		}
	case <-ctx.Done():
		return zero, ctx.Err()
	}
}

// slot is a reply address that holds one message and never blocks.
type slot chan any

func (s slot) SendUserMessage(_ *actor.PID, message any) {
	if env, ok := message.(*actor.MessageEnvelope); ok {
		message = env.Message
	}
	select {
	case s <- message:
	default:
	}
}

func (s slot) SendSystemMessage(*actor.PID, any) {}

func (s slot) Stop(*actor.PID) {}
