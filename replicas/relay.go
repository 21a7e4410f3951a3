package replicas

import (
	"github.com/asynkron/protoactor-go/actor"

	"github.com/mcpexec/mcpexec/replicas/replicapb"
)

// relay is one forwarded request on the replica the caller reached: it
// sends the request to the peer's desk, watching it, and hands the caller
// what comes back.
type relay struct {
	desk       *actor.PID
	payload    []byte
	onProgress func(string)
	done       chan<- relayOutcome
}

type relayOutcome struct {
	payload []byte
	err     error
}

// giveUp tells the relay its caller stopped waiting.
type giveUp struct{}

func (r *relay) Receive(ctx actor.Context) {
	switch msg := ctx.Message().(type) {
	case *actor.Started:
		// Watching first: a peer that cannot be reached, or that dies
		// while it serves the request, is reported as terminated.
		ctx.Watch(r.desk)
		ctx.Request(r.desk, &replicapb.Forward{Payload: r.payload})
	case *replicapb.Progress:
		if r.onProgress != nil {
			r.onProgress(msg.Summary)
		}
	case *replicapb.Reply:
		r.finish(ctx, relayOutcome{payload: msg.Payload})
	case *actor.Terminated:
		if msg.Who.Equal(r.desk) {
			r.finish(ctx, relayOutcome{err: ErrReplicaGone})
		}
	case giveUp:
		ctx.Request(r.desk, &replicapb.Abandon{})
		r.finish(ctx, relayOutcome{err: errGaveUp})
	}
}

// finish hands the caller the outcome (the first one only: the caller
// reads one) and stops the relay.
func (r *relay) finish(ctx actor.Context, out relayOutcome) {
	select {
	case r.done <- out:
	default:
	}
	ctx.Unwatch(r.desk)
	ctx.Stop(ctx.Self())
}
