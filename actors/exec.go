package actors

import (
	"context"
	"encoding/json"
	"fmt"
	"slices"
	"sync"
	"time"

	"github.com/asynkron/protoactor-go/actor"
	"github.com/rs/zerolog"

	"github.com/mcpexec/mcpexec/exectool"
	"github.com/mcpexec/mcpexec/internal/telemetry"
	"github.com/mcpexec/mcpexec/pool"
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
	// spawner spawns exec actors under their supervisor: a crashed exec
	// actor is stopped, and answers its call as it stops.
	spawner *actor.RootContext
	// placement, when set, puts every run's sandbox actor on a sandbox
	// node instead of on a worker of this machine.
	placement Placement
	// runs finds the runs that park (Start) by id.
	runs *runRegistry
}

// NewExecs returns an Exec runner on system, borrowing workers from workers.
func NewExecs(system *actor.ActorSystem, workers WorkerSource, logger zerolog.Logger) *Execs {
	strategy := newSupervisor("exec", actor.StopDirective, logger)
	return &Execs{system: system, workers: workers, logger: logger,
		spawner: actor.NewRootContext(system, nil).WithGuardian(strategy), runs: newRunRegistry()}
}

// PlaceOn makes e run every script on the sandbox nodes p places it on.
// Call it before the first Run.
func (e *Execs) PlaceOn(p Placement) { e.placement = p }

// ExecRequest is one Exec call.
type ExecRequest struct {
	// Script is the run: code, reachable tools, the host that executes
	// nested calls (the funnel), and limits. Nested calls reach Host
	// through the exec actor.
	Script sandbox.Request
	// OnProgress, if set, receives the live summary after every change
	// (a nested call made, a task's new status message), on the exec
	// actor's goroutine. A panic in it fails the call.
	OnProgress func(summary string)
	// Telemetry traces the run and its nested calls (children of the span
	// in Run's ctx) and measures them; nil: none.
	Telemetry *telemetry.Telemetry
	// Audit, if set, collects the nested calls for the call audit.
	Audit *exectool.AuditLog
	// Whole, if set, is where the run's return value goes when too long
	// for the text (its Script.Reference); the run's end keeps it.
	Whole *wholeValue
}

// Run executes one Exec call and returns its Result as soon as the exec
// actor answers: by then the run is over and its worker released, and the
// call's actors stop after, off the caller's path (their stop takes several
// goroutine hand-offs). Cancelling ctx aborts the
// run (BUDGET-8). It never panics and never fails with a Go error: a crash
// anywhere in the call is a failure Result (BUDGET-9).
func (e *Execs) Run(ctx context.Context, req ExecRequest) sandbox.Result {
	var remote *remoteRun
	if e.placement != nil {
		if res, ok := sandbox.Precheck(ctx, req.Script); !ok {
			return res
		}
		node, done, err := e.placement.Place(ctx)
		if err != nil {
			e.logger.Error().Err(err).Msg("exec: no sandbox node for the run")
			return sandbox.NoMachineResult(ctx.Err() != nil)
		}
		remote = &remoteRun{node: node, done: done}
	}
	reply := make(chan sandbox.Result, 1)
	props := actor.PropsFromProducer(func() actor.Actor {
		return &execActor{ctx: ctx, req: req, workers: e.workers, remote: remote, reply: reply, logger: e.logger}
	}, actor.WithSupervisor(runOnce))
	pid := e.spawner.Spawn(props)
	res := <-reply
	e.system.Root.Stop(pid)
	return res
}

// runOnce is the exec actor's strategy for its sandbox actor: a failed
// sandbox actor is stopped, never restarted, because running a script again
// would repeat the side effects of the nested calls it already made.
var runOnce = actor.NewOneForOneStrategy(0, 0, func(reason any) actor.Directive {
	return actor.StopDirective
})

// execActor is one Exec run. It owns the run: the nested calls made so far
// (for the live summary), the calls themselves on their way to the funnel,
// and the answer. A run that parks (Execs.Start) also has its questions and
// callers here, in park; a plain run (Execs.Run) answers its one call on
// reply.
type execActor struct {
	ctx     context.Context
	req     ExecRequest
	workers WorkerSource
	reply   chan<- sandbox.Result
	logger  zerolog.Logger
	// remote is set when the run's sandbox actor is on a sandbox node.
	remote *remoteRun
	// park is set for a run that parks; such an actor stops itself (self,
	// in system) when the run ends.
	park   *parkedRun
	self   *actor.PID
	system *actor.ActorSystem

	route *execRoute
	// calls are the nested calls made so far; with live, the run's live
	// summary.
	calls    []string
	live     liveSummary
	answered bool
}

func (a *execActor) Receive(c actor.Context) {
	if a.remote != nil && a.receiveRemote(c, c.Message()) {
		return
	}
	if a.park != nil && a.park.receive(a, c, c.Message()) {
		return
	}
	switch m := c.Message().(type) {
	case *actor.Started:
		a.self, a.system = c.Self(), c.ActorSystem()
		// The run's nested calls report their tasks' statuses to the
		// run, whose summary every caller and watcher shares.
		root, self := c.ActorSystem().Root, c.Self()
		a.ctx = pool.WithTaskStatus(a.ctx, func(st pool.TaskStatus) { root.Send(self, &taskStatusChanged{status: st}) })
		script := a.req.Script
		a.route = &execRoute{system: c.ActorSystem(), exec: c.Self(), funnel: script.Host, pending: map[*sandbox.Call]struct{}{},
			telemetry: a.req.Telemetry, audit: a.req.Audit, parks: a.park != nil}
		script.Host = a.route
		if a.remote != nil {
			onCall := script.OnCall
			script.OnCall = func(name string) {
				if onCall != nil {
					onCall(name)
				}
				root.Send(self, &callMade{name: name})
			}
			a.req.Script = script
			a.startRemote(c)
			return
		}
		c.Spawn(actor.PropsFromProducer(func() actor.Actor {
			return &sandboxActor{ctx: a.ctx, req: script, workers: a.workers, telemetry: a.req.Telemetry}
		}))
	case *callMade:
		a.calls = append(a.calls, m.name)
		a.progressed()
	case *taskStatusChanged:
		if a.live.taskStatus(m.status) {
			a.progressed()
		}
	case *sandbox.Call:
		if a.park != nil {
			a.park.callStarted(a, c)
		}
		a.start(m)
	case *scriptFinished:
		a.answer(m.result)
	case *actor.Terminated:
		// The sandbox actor stopped before it reported: its supervisor
		// stopped it after a failure.
		if !a.answered {
			a.logger.Error().Msg("exec: sandbox actor stopped without a result")
			a.answer(sandbox.CrashResult(a.callsSoFar()))
		}
	case *actor.Stopping:
		// Stopped before the run ended: this actor failed (its strategy
		// stops it). The call still gets its answer.
		if a.remote != nil {
			a.answerRemote(c, sandbox.CrashResult(a.callsSoFar()))
		} else if !a.answered {
			a.answer(sandbox.CrashResult(a.callsSoFar()))
		}
	}
}

// progressed tells the run's callers and watchers of its live summary,
// which just changed. Nothing is told once the run has answered.
func (a *execActor) progressed() {
	switch {
	case a.answered:
	case a.park != nil:
		a.park.progress(a)
	case a.req.OnProgress != nil:
		a.req.OnProgress(a.summary())
	}
}

// summary is the run's live summary as it stands.
func (a *execActor) summary() string { return a.live.text(a.calls) }

// callsSoFar are the nested calls made so far, sharing a.calls: the actor
// only ever appends to it, and the slice handed out is clipped, so an
// append by its holder copies rather than writes where the actor will.
func (a *execActor) callsSoFar() []string { return slices.Clip(a.calls) }

// start runs one nested call through the funnel on a goroutine of its own,
// so a slow tool never holds up the mailbox. A panic on the call's path is
// that call's failure; the script goes on.
func (a *execActor) start(call *sandbox.Call) {
	go a.route.run(call, a.logger)
}

var (
	errNestedCallPanicked = plainError("The tool call failed inside the host.")
	errNoFunnel           = plainError("The sandbox failed while running the script: no host is attached to this run.")
)

type plainError string

func (e plainError) Error() string { return string(e) }

func (a *execActor) answer(res sandbox.Result) {
	if a.answered {
		return
	}
	a.answered = true
	if a.req.Whole != nil {
		res = a.req.Whole.finish(res, a.req.Audit, a.req.Telemetry, telemetry.Logger(a.ctx, a.logger))
	}
	if !res.OK {
		// Every failure is logged (NFR-10); the model gets it as the result.
		// A failing script is ordinary, so not a warning.
		a.logger.Info().Ctx(a.ctx).Str("reason", res.Error).Int("calls", len(res.Calls)).Msg("exec: run failed")
	}
	if a.park != nil {
		a.park.finish(a, res)
		a.system.Root.Stop(a.self)
		return
	}
	a.reply <- res
}

// execRoute is the Host a run's worker sees: every nested call goes to the
// exec actor's mailbox, which starts it on the funnel. The run's context
// bounds the calls: when the run ends, a call not answered yet (the exec
// actor failed and dropped its mailbox, or the tool is slow) is answered
// with the context's error, so the worker's host side never waits for an
// answer that cannot come.
type execRoute struct {
	system *actor.ActorSystem
	exec   *actor.PID
	funnel sandbox.Host

	telemetry *telemetry.Telemetry
	audit     *exectool.AuditLog
	// parks is set for a run that parks: each call's context is marked as
	// its own (a question it raises holds it up), and the exec actor hears
	// when it ends.
	parks bool

	mu      sync.Mutex
	runCtx  context.Context // whose end fails the pending calls
	pending map[*sandbox.Call]struct{}
}

// Start implements sandbox.AsyncHost.
func (r *execRoute) Start(ctx context.Context, call *sandbox.Call) {
	r.mu.Lock()
	if r.runCtx != ctx {
		r.runCtx = ctx
		context.AfterFunc(ctx, func() { r.failPending(ctx) })
	}
	r.pending[call] = struct{}{}
	r.mu.Unlock()
	r.system.Root.Send(r.exec, call)
}

// run executes call on the funnel and answers it.
func (r *execRoute) run(call *sandbox.Call, logger zerolog.Logger) {
	ctx := r.runContext()
	if r.parks {
		ctx = context.WithValue(ctx, nestedCallKey{}, call)
		defer r.system.Root.Send(r.exec, &nestedCallEnded{})
	}
	res, err := r.observed(ctx, call.Search, call.Name, call.Args, logger)
	r.mu.Lock()
	delete(r.pending, call)
	r.mu.Unlock()
	call.Answer(res, err)
}

// observed runs one nested call on the funnel with its span and its audit
// record, both ended before the call is answered (which may end the script
// and the Exec call with it).
func (r *execRoute) observed(ctx context.Context, search bool, name string, args json.RawMessage, logger zerolog.Logger) (sandbox.CallResult, error) {
	tool := name
	if search {
		tool = exectool.SearchTool
	}
	start := time.Now()
	slot := r.audit.Begin(tool)
	ctx, span := r.telemetry.StartCall(ctx, tool, args)
	res, err := callFunnel(ctx, r.funnel, search, name, args, logger)
	outcome, size := pool.Outcome(err), 0
	if err == nil {
		size = res.Size()
	}
	span.End(outcome, size)
	r.audit.Finish(slot, outcome, time.Since(start), size)
	return res, err
}

// callFunnel runs one nested call on the funnel. A panic there is that
// call's failure.
func callFunnel(ctx context.Context, funnel sandbox.Host, search bool, name string, args json.RawMessage, logger zerolog.Logger) (res sandbox.CallResult, err error) {
	defer func() {
		if p := recover(); p != nil {
			logger.Error().Ctx(ctx).Str("tool", name).Interface("panic", p).Msg("exec: nested call panicked")
			res, err = sandbox.CallResult{}, errNestedCallPanicked
		}
	}()
	switch {
	case funnel == nil:
		err = errNoFunnel
	case search:
		res.Value, err = funnel.Search(ctx, args)
	default:
		res, err = funnel.CallTool(ctx, name, args)
	}
	return res, err
}

func (r *execRoute) runContext() context.Context {
	r.mu.Lock()
	defer r.mu.Unlock()
	return r.runCtx
}

// failPending answers every call still pending when the run ended.
func (r *execRoute) failPending(ctx context.Context) {
	r.mu.Lock()
	pending := r.pending
	r.pending = map[*sandbox.Call]struct{}{}
	r.mu.Unlock()
	for call := range pending {
		call.Answer(sandbox.CallResult{}, ctx.Err())
	}
}

// CallTool and Search are the synchronous Host a run in this process would
// use; an exec run always has a worker, whose calls come through Start.
func (r *execRoute) CallTool(ctx context.Context, name string, args json.RawMessage) (sandbox.CallResult, error) {
	return r.funnel.CallTool(ctx, name, args)
}

func (r *execRoute) Search(ctx context.Context, args json.RawMessage) (json.RawMessage, error) {
	return r.funnel.Search(ctx, args)
}

// sandboxActor runs one script on one borrowed worker. The run happens on a
// goroutine of its own so the actor stays responsive; a panic there is
// brought back into Receive and escalated to the supervisor.
type sandboxActor struct {
	ctx       context.Context
	req       sandbox.Request
	workers   WorkerSource
	telemetry *telemetry.Telemetry

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
		root.Send(parent, &callMade{name: name})
	}
	go func() {
		defer close(a.done)
		defer func() {
			if p := recover(); p != nil {
				root.Send(self, &runPanicked{value: p})
			}
		}()
		root.Send(parent, &scriptFinished{result: a.run(runCtx, req)})
	}()
}

func (a *sandboxActor) run(ctx context.Context, req sandbox.Request) (res sandbox.Result) {
	ctx, span := a.telemetry.StartRun(ctx)
	defer func() { span.End(res.Outcome()) }()
	w, err := a.workers.Acquire(ctx)
	if err != nil {
		return sandbox.UnavailableResultFor(ctx, err)
	}
	defer a.workers.Release(w)
	span.Acquired(w.Runs() > 0)
	return w.Run(ctx, req)
}
