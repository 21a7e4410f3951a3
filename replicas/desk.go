package replicas

import (
	"context"
	"errors"

	"github.com/asynkron/protoactor-go/actor"
	"github.com/rs/zerolog"

	"github.com/mcpexec/mcpexec/replicas/replicapb"
)

// errGaveUp is the outcome a relay records when its caller stopped
// waiting; the caller, gone, never reads it.
var errGaveUp = errors.New("replicas: the caller stopped waiting")

// desk serves the requests peers forward to this replica: one child actor
// per request, by the relay that sent it.
type desk struct {
	serve  Handler
	logger zerolog.Logger
	// served maps a relay (its PID as a string) to the child serving its
	// request.
	served map[string]*actor.PID
}

func (d *desk) Receive(ctx actor.Context) {
	switch msg := ctx.Message().(type) {
	case *replicapb.Forward:
		relay := ctx.Sender()
		if relay == nil {
			return // no one to answer
		}
		s := &servedRequest{relay: relay, payload: msg.Payload, serve: d.serve, logger: d.logger}
		d.served[relay.String()] = ctx.Spawn(actor.PropsFromProducer(func() actor.Actor { return s }))
	case *replicapb.Abandon:
		if relay := ctx.Sender(); relay != nil {
			if child, ok := d.served[relay.String()]; ok {
				ctx.Send(child, abandoned{})
			}
		}
	case *actor.Terminated:
		for relay, child := range d.served {
			if child.Equal(msg.Who) {
				delete(d.served, relay)
			}
		}
	}
}

// servedRequest serves one forwarded request on a goroutine of its own, so
// that a request that waits for minutes holds up nothing else, and cancels
// it when its relay gives up or goes away.
type servedRequest struct {
	relay   *actor.PID
	payload []byte
	serve   Handler
	logger  zerolog.Logger
	cancel  context.CancelFunc
}

// abandoned and finished are a servedRequest's own messages: its relay
// gave the request up; the handler returned.
type (
	abandoned struct{}
	finished  struct{}
)

func (s *servedRequest) Receive(ctx actor.Context) {
	switch msg := ctx.Message().(type) {
	case *actor.Started:
		ctx.Watch(s.relay)
		var reqCtx context.Context
		reqCtx, s.cancel = context.WithCancel(context.Background())
		root, self, relay := ctx.ActorSystem().Root, ctx.Self(), s.relay
		go func() {
			// Progress and the reply leave from this one goroutine, so
			// the relay gets them in order.
			out := s.serveSafely(reqCtx, func(summary string) {
				root.Send(relay, &replicapb.Progress{Summary: summary})
			})
			root.Send(relay, &replicapb.Reply{Payload: out})
			root.Send(self, finished{})
		}()
	case *actor.Terminated:
		if msg.Who.Equal(s.relay) {
			s.logger.Info().Str("relay", s.relay.String()).Msg("replicas: the replica that forwarded a request is gone; cancelling it")
			s.cancel()
		}
	case abandoned:
		s.cancel()
	case finished:
		ctx.Unwatch(s.relay)
		ctx.Stop(ctx.Self())
	case *actor.Stopping:
		if s.cancel != nil {
			s.cancel()
		}
	}
}

// serveSafely runs the handler; a panic in it is this request's failure
// (an empty answer, which the caller reads as a failure), not the
// process's.
func (s *servedRequest) serveSafely(ctx context.Context, onProgress func(string)) (out []byte) {
	defer func() {
		if p := recover(); p != nil {
			s.logger.Error().Interface("panic", p).Msg("replicas: serving a forwarded request panicked")
			out = nil
		}
	}()
	return s.serve(ctx, s.payload, onProgress)
}
