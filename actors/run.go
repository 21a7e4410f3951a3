package actors

import (
	"context"
	"crypto/rand"
	"encoding/base32"
	"errors"
	"strings"
	"time"

	"github.com/asynkron/protoactor-go/actor"

	"github.com/mcpexec/mcpexec/elicit"
	"github.com/mcpexec/mcpexec/exectool"
	"github.com/mcpexec/mcpexec/permissions"
	"github.com/mcpexec/mcpexec/sandbox"
)

// A run is one Exec script's execution as a thing of its own, apart from
// the call that started it: it has an id and a state, its exec actor owns
// it, and it can wait for a person's answers across calls (it parks), be
// answered and resumed, and be cancelled. Execs.Run is the plain form, a
// run that lives and dies inside its one call and blocks on the Prompter;
// Execs.Start makes one that parks.

// RunID names a run. It is unguessable: holding it is what lets a caller
// answer and resume the run, so it travels only to whoever started it.
type RunID string

// newRunID is a fresh RunID: "run_" and 128 random bits.
func newRunID() RunID {
	var b [16]byte
	_, _ = rand.Read(b[:])
	return RunID("run_" + strings.ToLower(base32.StdEncoding.WithPadding(base32.NoPadding).EncodeToString(b[:])))
}

// RunState is where a run stands.
type RunState string

// The states of a run. A run is working until it ends (completed, failed
// or cancelled); while it waits for answers it has reported, it is
// input_required.
const (
	RunWorking       RunState = "working"
	RunInputRequired RunState = "input_required"
	RunCompleted     RunState = "completed"
	RunFailed        RunState = "failed"
	RunCancelled     RunState = "cancelled"
)

// Ended reports whether the state is final.
func (s RunState) Ended() bool {
	return s == RunCompleted || s == RunFailed || s == RunCancelled
}

// Question is one question a run waits on: a nested call's permission
// question, or a question an MCP server asked during a call (elicitation).
// Exactly one of Permission and Elicitation is set.
type Question struct {
	// ID names the question within its run ("q1", "q2", ...); an answer
	// refers to it.
	ID          string
	Permission  *permissions.Question
	Elicitation *elicit.Request
}

// Answer answers one Question: Permission for a permission question,
// Elicitation for a server's question (its Content goes to the server as
// given, after the form's defaults are filled in).
type Answer struct {
	Permission  permissions.Answer
	Elicitation elicit.Response
}

// RunReport is what a caller waiting on a run learns: the run ended (State
// is final and Result is its outcome), or it waits for answers (State is
// RunInputRequired and Questions lists every question open at that moment,
// oldest first).
type RunReport struct {
	ID        RunID
	State     RunState
	Questions []Question
	// Calls are the nested calls made so far, in order. They are shared
	// with the run and every other report of it: read them, never modify
	// them (copy first).
	Calls []string
	// Summary is the run's live summary: its calls and, while it goes, a
	// line per nested call's task still running on its server, with the
	// task's latest status message. The same text reaches every caller
	// attached (Watch.OnProgress); once the run ended, the calls alone.
	Summary string
	// Result is the run's outcome once it ended.
	Result sandbox.Result
	// Audit is the call audit of the whole run once it ended.
	Audit exectool.Audit
	// Stored is the whole return value once the run ended with one too
	// long for the text (see ExecResult.Stored).
	Stored *exectool.Stored
}

// endSummary is the summary of a run that ended after calls.
func endSummary(calls []string) string { return exectool.Summary(calls, false) }

// ParkOptions configure a run that parks.
type ParkOptions struct {
	// AskCaller makes the run ask its questions as a plain run does,
	// through the Prompter and Elicitor of the context it was started
	// under, instead of parking on them: a run that outlives its call for
	// another reason (its caller stopped waiting, Watch.YieldAfter).
	AskCaller bool
	// Timeout bounds how long a parked run waits for an answer with no
	// caller attached; then it is cancelled, the calls waiting for the
	// answer never run, and the run fails as expired. Zero: DefaultParkTimeout.
	Timeout time.Duration
	// Parked, if set, marks the run's worker as held by a run that waits
	// for a person while the run is parked; the returned function unmarks
	// it. Default: the worker source's Park, when it has one
	// (sandbox.Workers does).
	Parked func() (unpark func())
}

// parkingWorkers is a WorkerSource that counts the workers parked runs hold.
type parkingWorkers interface {
	Park() (unpark func())
}

// DefaultParkTimeout is how long a parked run waits by default.
const DefaultParkTimeout = 15 * time.Minute

// Watch is what one caller attached to a run hears while it waits: the
// live summary after each change (and at once when it attaches to a run
// that made calls), and the console output.
type Watch struct {
	OnProgress func(summary string)
	OnLog      func(text string)
	// YieldAfter, when positive, bounds the wait: a run still going after
	// that long is left to go on, and the caller gets its report as it
	// stands (RunWorking); it can wait again with Resume.
	YieldAfter time.Duration
}

// The settle window: a run reports its questions once no new question,
// nested call or answer has come for settleWindow (so the questions of a
// Promise.all over several calls go out together), or at once when every
// nested call in flight waits for an answer and the script is idle;
// settleLongest bounds the wait for a script that keeps working.
const (
	settleWindow  = 200 * time.Millisecond
	settleLongest = 2 * time.Second
)

// ErrUnknownRun is Resume's error for a run id that names no run: it never
// existed here, or it ended long enough ago to be forgotten.
var ErrUnknownRun = errors.New("no such run: it never existed here, or it ended and was forgotten")

// Start runs an Exec call as a run that parks: a question no rule or
// answer settles (a permission question, a server's question) does not
// block on a Prompter or Elicitor but is held by the run, whose budget
// clock stops meanwhile, and Start returns the run's first report: it
// ended, or it waits for answers (RunInputRequired, with every question
// open at that moment). Resume answers them. Cancelling ctx while Start
// waits aborts the run.
func (e *Execs) Start(ctx context.Context, req ExecRequest, park ParkOptions, watch Watch) RunReport {
	if park.Timeout <= 0 {
		park.Timeout = DefaultParkTimeout
	}
	if w, ok := e.workers.(parkingWorkers); ok && park.Parked == nil {
		park.Parked = w.Park
	}
	id := newRunID()
	entry := e.runs.add(id, actor.NewPID(e.system.Address(), string(id)))
	var remote *remoteRun
	if e.placement != nil {
		if res, ok := sandbox.Precheck(ctx, req.Script); !ok {
			return e.runs.endEarly(entry, res)
		}
		node, done, err := e.placement.Place(ctx)
		if err != nil {
			e.logger.Error().Err(err).Msg("exec: no sandbox node for the run")
			return e.runs.endEarly(entry, sandbox.NoMachineResult(ctx.Err() != nil))
		}
		remote = &remoteRun{node: node, done: done}
	}
	// The run outlives the call: its context keeps the call's values (the
	// trace, the caller's watchers) but not its end.
	runCtx, cancel := context.WithCancelCause(context.WithoutCancel(ctx))
	desk := &runDesk{system: e.system, exec: entry.pid}
	if !park.AskCaller {
		runCtx = elicit.WithElicitor(permissions.WithPrompter(runCtx, desk), desk)
	}
	first := newRunWaiter(watch)
	p := &parkedRun{id: id, entry: entry, opts: park, cancel: cancel, state: RunWorking, waiters: []*runWaiter{first}}
	p.watchLog()
	req.Script.OnLog = p.log
	req.Script.OnWaiting = func(waiting bool) { desk.tell(&runWaiting{waiting: waiting}) }
	props := actor.PropsFromProducer(func() actor.Actor {
		return &execActor{ctx: runCtx, req: req, workers: e.workers, remote: remote, logger: e.logger, park: p}
	}, actor.WithSupervisor(runOnce))
	if _, err := e.spawner.SpawnNamed(props, string(id)); err != nil {
		cancel(err)
		e.logger.Error().Err(err).Msg("exec: the run's actor could not start")
		if remote != nil {
			remote.done()
		}
		return e.runs.endEarly(entry, sandbox.CrashResult(nil))
	}
	return first.wait(ctx, e, entry)
}

// Resume answers questions of the run id (by Question.ID; answers to
// questions no longer open are ignored) and waits for its next report, as
// Start does. A run that already ended reports its end again. Cancelling
// ctx while Resume waits aborts the run. It fails only with ErrUnknownRun.
func (e *Execs) Resume(ctx context.Context, id RunID, answers map[string]Answer, watch Watch) (RunReport, error) {
	entry, ended, ok := e.runs.lookup(id)
	if !ok {
		return RunReport{}, ErrUnknownRun
	}
	if ended != nil {
		return *ended, nil
	}
	w := newRunWaiter(watch)
	e.system.Root.Send(entry.pid, &attachRun{waiter: w, answers: answers})
	return w.wait(ctx, e, entry), nil
}

// Status reports where the run id stands now, without waiting: its state,
// the questions it waits on, and its outcome once ended.
func (e *Execs) Status(ctx context.Context, id RunID) (RunReport, error) {
	entry, ended, ok := e.runs.lookup(id)
	if !ok {
		return RunReport{}, ErrUnknownRun
	}
	if ended != nil {
		return *ended, nil
	}
	reply := make(chan RunReport, 1)
	e.system.Root.Send(entry.pid, &runStatus{reply: reply})
	select {
	case r := <-reply:
		return r, nil
	case <-entry.done:
		_, ended, _ := e.runs.lookup(id)
		if ended == nil {
			return RunReport{}, ErrUnknownRun
		}
		return *ended, nil
	case <-ctx.Done():
		return RunReport{}, ctx.Err()
	}
}

// Cancel ends the run id: a run still going is aborted (its calls waiting
// for answers never run) and ends as cancelled. It reports whether the run
// was still going.
func (e *Execs) Cancel(id RunID) bool {
	entry, ended, ok := e.runs.lookup(id)
	if !ok || ended != nil {
		return false
	}
	e.system.Root.Send(entry.pid, &cancelRun{})
	return true
}

// CancelAll cancels every run still going and waits until they have ended,
// or ctx ends: a parked run's budget clock is stopped, so without this it
// would hold its worker until it expires.
func (e *Execs) CancelAll(ctx context.Context) {
	for _, entry := range e.runs.liveEntries() {
		e.system.Root.Send(entry.pid, &cancelRun{})
	}
	for _, entry := range e.runs.liveEntries() {
		select {
		case <-entry.done:
		case <-ctx.Done():
			return
		}
	}
}

// runWaiter is one caller attached to a run, waiting for its next report.
type runWaiter struct {
	watch Watch
	reply chan RunReport
}

func newRunWaiter(watch Watch) *runWaiter {
	return &runWaiter{watch: watch, reply: make(chan RunReport, 1)}
}

// wait waits for the waiter's report. ctx ending first cancels the run,
// whose end is then the report. With YieldAfter, the waiter detaches once
// that time is up and gets the run's report as it stands then.
func (w *runWaiter) wait(ctx context.Context, e *Execs, entry *runEntry) RunReport {
	stop := context.AfterFunc(ctx, func() { e.system.Root.Send(entry.pid, &cancelRun{}) })
	defer stop()
	var yield <-chan time.Time
	if w.watch.YieldAfter > 0 {
		timer := time.NewTimer(w.watch.YieldAfter)
		defer timer.Stop()
		yield = timer.C
	}
	for {
		select {
		case r := <-w.reply:
			return r
		case <-entry.done:
			return *entry.final()
		case <-yield:
			// The actor answers on reply: with the report as it stands,
			// or with the run's end if that came first.
			yield = nil
			e.system.Root.Send(entry.pid, &detachRun{waiter: w})
		}
	}
}
