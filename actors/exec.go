package actors

import (
	"context"
	"fmt"

	"github.com/asynkron/protoactor-go/actor"
	"github.com/rs/zerolog"

	"github.com/mcpexec/mcpexec/sandbox"
)

// WorkerSource lends sandbox workers; *sandbox.Workers is one.
type WorkerSource interface {
	Acquire(ctx context.Context) (*sandbox.Worker, error)
	Release(w *sandbox.Worker)
}

// Execs runs Exec calls as actors: one exec actor per call, supervising one
// sandbox actor that owns one worker for one run.
type Execs struct {
	system  *actor.ActorSystem
	workers WorkerSource
	logger  zerolog.Logger
}

// NewExecs returns an Exec runner on system, borrowing workers from workers.
func NewExecs(system *actor.ActorSystem, workers WorkerSource, logger zerolog.Logger) *Execs {
	return &Execs{system: system, workers: workers, logger: logger}
}

// ExecRequest is one Exec call.
type ExecRequest struct {
	// Script is the run: code, reachable tools, the host that executes
	// nested calls (the funnel), and limits.
	Script sandbox.Request
	// OnProgress, if set, receives the nested calls made so far after every
	// new one, on the exec actor's goroutine.
	OnProgress func(calls []string)
}

// Run executes one Exec call and returns its Result once every actor of the
// call has stopped. Cancelling ctx aborts the run (BUDGET-8). It never
// panics and never fails with a Go error: a crash anywhere in the call is a
// failure Result (BUDGET-9).
func (e *Execs) Run(ctx context.Context, req ExecRequest) sandbox.Result {
	reply := make(chan sandbox.Result, 1)
	props := actor.PropsFromProducer(func() actor.Actor {
		return &execActor{ctx: ctx, req: req, workers: e.workers, reply: reply, logger: e.logger}
	}, actor.WithSupervisor(runOnce))
	pid := e.system.Root.Spawn(props)
	res := <-reply
	_ = e.system.Root.StopFuture(pid).Wait()
	return res
}

// runOnce is the exec actor's strategy for its sandbox actor: a failed
// sandbox actor is stopped, never restarted, because running a script again
// would repeat the side effects of the nested calls it already made.
var runOnce = actor.NewOneForOneStrategy(0, 0, func(reason any) actor.Directive {
	return actor.StopDirective
})

// execActor is one Exec call. State: the calls made so far and whether the
// call has been answered.
type execActor struct {
	ctx     context.Context
	req     ExecRequest
	workers WorkerSource
	reply   chan<- sandbox.Result
	logger  zerolog.Logger

	calls    []string
	answered bool
}

func (a *execActor) Receive(c actor.Context) {
	switch m := c.Message().(type) {
	case *actor.Started:
		c.Spawn(actor.PropsFromProducer(func() actor.Actor {
			return &sandboxActor{ctx: a.ctx, req: a.req.Script, workers: a.workers}
		}))
	case *CallMade:
		a.calls = append(a.calls, m.Name)
		if a.req.OnProgress != nil {
			a.req.OnProgress(append([]string(nil), a.calls...))
		}
	case *ScriptFinished:
		a.answer(m.Result)
	case *actor.Terminated:
		// The sandbox actor stopped before it reported: its supervisor
		// stopped it after a failure.
		if !a.answered {
			a.logger.Error().Msg("exec: sandbox actor stopped without a result")
			a.answer(sandbox.CrashResult(a.calls))
		}
	}
}

func (a *execActor) answer(res sandbox.Result) {
	if a.answered {
		return
	}
	a.answered = true
	if !res.OK {
		// Every failure is logged (NFR-10); the model gets it as the result.
		// A failing script is ordinary, so not a warning.
		a.logger.Info().Str("reason", res.Error).Int("calls", len(res.Calls)).Msg("exec: run failed")
	}
	a.reply <- res
}

// sandboxActor runs one script on one borrowed worker. The run happens on a
// goroutine of its own so the actor stays responsive; a panic there is
// brought back into Receive and escalated to the supervisor.
type sandboxActor struct {
	ctx     context.Context
	req     sandbox.Request
	workers WorkerSource

	cancel context.CancelFunc
	done   chan struct{}
}

// runPanicked brings a panic of the run goroutine to the actor.
type runPanicked struct{ value any }

func (a *sandboxActor) Receive(c actor.Context) {
	switch m := c.Message().(type) {
	case *actor.Started:
		a.start(c)
	case *runPanicked:
		panic(fmt.Sprintf("sandbox run panicked: %v", m.value))
	case *actor.Stopping:
		// Stopping before the run ended (a failure, or the call being torn
		// down) aborts the run, which kills its worker.
		if a.cancel != nil {
			a.cancel()
			<-a.done
		}
	}
}

func (a *sandboxActor) start(c actor.Context) {
	root, self, parent := c.ActorSystem().Root, c.Self(), c.Parent()
	var runCtx context.Context
	runCtx, a.cancel = context.WithCancel(a.ctx)
	a.done = make(chan struct{})
	req := a.req
	onCall := req.OnCall
	req.OnCall = func(name string) {
		if onCall != nil {
			onCall(name)
		}
		root.Send(parent, &CallMade{Name: name})
	}
	go func() {
		defer close(a.done)
		defer func() {
			if p := recover(); p != nil {
				root.Send(self, &runPanicked{value: p})
			}
		}()
		root.Send(parent, &ScriptFinished{Result: a.run(runCtx, req)})
	}()
}

func (a *sandboxActor) run(ctx context.Context, req sandbox.Request) sandbox.Result {
	w, err := a.workers.Acquire(ctx)
	if err != nil {
		return sandbox.UnavailableResult(ctx)
	}
	defer a.workers.Release(w)
	return w.Run(ctx, req)
}
