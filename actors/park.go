package actors

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"sync/atomic"
	"time"

	"github.com/asynkron/protoactor-go/actor"

	"github.com/mcpexec/mcpexec/sandbox"
)

// parkedRun is what the exec actor of a run that parks keeps beside the run
// itself: the questions its nested calls wait on, the callers attached to
// it, and the clocks of its settle window and of its wait while parked. It
// is touched on the exec actor's goroutine only (log excepted).
type parkedRun struct {
	id     RunID
	entry  *runEntry
	opts   ParkOptions
	cancel context.CancelCauseFunc
	state  RunState

	// asked counts the questions raised so far: their ids are q1, q2, ...
	asked int
	open  []openQuestion
	// waiters are the callers attached now, waiting for the next report.
	waiters []*runWaiter
	// watchers hear every change of the run's state or live summary
	// (Execs.Watch). They are not callers: a run with watchers and no
	// waiter parks as if nobody watched. told is what they heard last.
	watchers []*runWatcher
	told     RunReport
	// end is the run's final report once it ended.
	end *RunReport
	// logTo is the console watcher of the first caller attached, read on
	// the run's goroutine.
	logTo atomic.Pointer[func(string)]

	// inflight counts the nested calls started and not answered; waiting
	// is whether the run waits on people alone (the script idle).
	inflight int
	waiting  bool

	// settleGen numbers the settle timers (a stale one is ignored);
	// settleFrom is when the current settle window opened (zero: none).
	settleGen  int
	settleFrom time.Time
	settle     *time.Timer

	// parkGen numbers the park timers; expiry is the one running while no
	// caller is attached; unpark releases the worker's parked mark.
	parkGen int
	expiry  *time.Timer
	unpark  func()

	cancelled, expired bool
}

// openQuestion is a question the run waits on.
type openQuestion struct {
	id     string
	raised *questionRaised
}

// Why a run that parks was cancelled.
var (
	errRunCancelled = errors.New("the run was cancelled")
	errRunExpired   = errors.New("the run waited too long for an answer")
)

// log hands console output to the caller watching it.
func (p *parkedRun) log(text string) {
	if f := p.logTo.Load(); f != nil {
		(*f)(text)
	}
}

// receive handles the messages of a run that parks and reports whether m
// was one.
func (p *parkedRun) receive(a *execActor, c actor.Context, m any) bool {
	switch m := m.(type) {
	case *questionRaised:
		p.asked++
		p.open = append(p.open, openQuestion{id: fmt.Sprintf("q%d", p.asked), raised: m})
		p.activity(a, c)
	case *questionDropped:
		p.open = slices.DeleteFunc(p.open, func(q openQuestion) bool { return q.raised == m.raised })
		p.activity(a, c)
	case *attachRun:
		p.attach(a, m.waiter)
		p.deliver(m.answers)
		p.activity(a, c)
		// Watchers hear where the run stands after the attach. A caller
		// with no answer for a run that waits on people alone (the script
		// idle, every nested call in flight held by a question) parks it
		// again within this message (settleIfQuiet), which is no change.
		// Otherwise the run is working until its settle window closes and
		// parks it again: watchers hear working, then input_required.
		p.changed(a)
	case *detachRun:
		if i := slices.Index(p.waiters, m.waiter); i >= 0 {
			p.waiters = slices.Delete(p.waiters, i, i+1)
			m.waiter.reply <- p.report(a, nil)
			p.watchLog()
			p.activity(a, c)
		}
	case *cancelRun:
		if !a.answered {
			p.cancelled = true
			p.cancel(errRunCancelled)
		}
	case *runStatus:
		m.reply <- p.current(a)
	case *watchRun:
		p.watchers = append(p.watchers, m.watcher)
		p.told = p.current(a)
		m.watcher.push(p.told)
	case *unwatchRun:
		p.watchers = slices.DeleteFunc(p.watchers, func(w *runWatcher) bool { return w == m.watcher })
	case *runWaiting:
		p.waiting = m.waiting
		p.settleIfQuiet(a, c)
	case *nestedCallEnded:
		p.inflight--
		p.activity(a, c)
	case *settleDue:
		if m.gen == p.settleGen && len(p.waiters) > 0 && len(p.open) > 0 {
			p.park(a, c)
		}
	case *parkExpired:
		if m.gen == p.parkGen && len(p.waiters) == 0 && !a.answered {
			p.expired = true
			p.cancel(errRunExpired)
		}
	default:
		return false
	}
	return true
}

// callStarted counts a nested call the exec actor starts.
func (p *parkedRun) callStarted(a *execActor, c actor.Context) {
	p.inflight++
	p.activity(a, c)
}

// progress tells the callers attached and the watchers of the run's live
// summary, which just changed.
func (p *parkedRun) progress(a *execActor) {
	text := a.summary()
	for _, w := range p.waiters {
		if w.watch.OnProgress != nil {
			w.watch.OnProgress(text)
		}
	}
	p.changed(a)
}

// changed tells the watchers of the run's report if its state or live
// summary changed since they heard it last.
func (p *parkedRun) changed(a *execActor) {
	if len(p.watchers) == 0 {
		return
	}
	now := p.current(a)
	if now.State == p.told.State && now.Summary == p.told.Summary {
		return
	}
	p.told = now
	for _, w := range p.watchers {
		w.push(now)
	}
}

// current is the run's report as it stands: its end once it ended.
func (p *parkedRun) current(a *execActor) RunReport {
	if p.end != nil {
		return *p.end
	}
	return p.report(a, nil)
}

// attach adds a caller: the run is no longer parked. The caller hears the
// live summary at once, if the run has made calls: it may have come long
// after the last change.
func (p *parkedRun) attach(a *execActor, w *runWaiter) {
	p.waiters = append(p.waiters, w)
	p.watchLog()
	p.parkGen++
	if p.expiry != nil {
		p.expiry.Stop()
		p.expiry = nil
	}
	if p.unpark != nil {
		p.unpark()
		p.unpark = nil
	}
	p.state = RunWorking
	if w.watch.OnProgress != nil && !a.live.idle(a.calls) {
		w.watch.OnProgress(a.summary())
	}
}

// watchLog points the console at the first caller attached.
func (p *parkedRun) watchLog() {
	for _, w := range p.waiters {
		if f := w.watch.OnLog; f != nil {
			p.logTo.Store(&f)
			return
		}
	}
	p.logTo.Store(nil)
}

// deliver answers open questions; answers to questions no longer open
// are ignored.
func (p *parkedRun) deliver(answers map[string]Answer) {
	if len(answers) == 0 {
		return
	}
	p.open = slices.DeleteFunc(p.open, func(q openQuestion) bool {
		a, ok := answers[q.id]
		if ok {
			q.raised.reply <- a
		}
		return ok
	})
}

// activity is something that may change what the run waits on: a
// question, an answer, a nested call starting or ending. The settle window
// starts again from it.
func (p *parkedRun) activity(a *execActor, c actor.Context) {
	if len(p.waiters) == 0 && len(p.open) > 0 && p.state == RunWorking {
		// Nobody waits on a run that now waits for answers (its callers
		// stopped waiting): it parks, its park timeout running.
		p.park(a, c)
		return
	}
	if len(p.waiters) == 0 || len(p.open) == 0 {
		p.stopSettle()
		return
	}
	now := time.Now()
	if p.settleFrom.IsZero() {
		p.settleFrom = now
	}
	if p.settleIfQuiet(a, c) {
		return
	}
	wait := min(settleWindow, settleLongest-now.Sub(p.settleFrom))
	if wait <= 0 {
		p.park(a, c)
		return
	}
	p.settleGen++
	gen, root, self := p.settleGen, c.ActorSystem().Root, c.Self()
	if p.settle != nil {
		p.settle.Stop()
	}
	p.settle = time.AfterFunc(wait, func() { root.Send(self, &settleDue{gen: gen}) })
}

// settleIfQuiet parks the run at once when nothing can happen until an
// answer comes: the script is idle and every nested call in flight waits
// for an answer.
func (p *parkedRun) settleIfQuiet(a *execActor, c actor.Context) bool {
	if !p.waiting || len(p.waiters) == 0 || len(p.open) == 0 || p.inflight <= 0 {
		return false
	}
	held := map[any]bool{}
	for _, q := range p.open {
		if q.raised.call != nil {
			held[q.raised.call] = true
		}
	}
	if len(held) < p.inflight {
		return false
	}
	p.park(a, c)
	return true
}

func (p *parkedRun) stopSettle() {
	p.settleGen++
	p.settleFrom = time.Time{}
	if p.settle != nil {
		p.settle.Stop()
		p.settle = nil
	}
}

// park reports the open questions to every caller attached, which are then
// released: the run is parked until a caller comes back with answers
// (attachRun), or the park timeout cancels it.
func (p *parkedRun) park(a *execActor, c actor.Context) {
	p.stopSettle()
	p.state = RunInputRequired
	report := p.report(a, nil)
	for _, w := range p.waiters {
		w.reply <- report
	}
	p.waiters = nil
	p.logTo.Store(nil)
	p.changed(a)
	p.parkGen++
	gen, root, self := p.parkGen, c.ActorSystem().Root, c.Self()
	p.expiry = time.AfterFunc(p.opts.Timeout, func() { root.Send(self, &parkExpired{gen: gen}) })
	if p.opts.Parked != nil && a.remote == nil {
		p.unpark = p.opts.Parked()
	}
}

// report is the run's report as it stands; res, when set, is its end.
// Its Calls share a.calls, which is only ever appended to: a report per
// change, queued for a slow watcher, costs no copy of every call.
func (p *parkedRun) report(a *execActor, res *sandbox.Result) RunReport {
	r := RunReport{ID: p.id, State: p.state, Calls: a.callsSoFar(), Summary: a.summary()}
	if res != nil {
		r.Result = *res
		r.Calls = res.Calls
		r.Summary = endSummary(res.Calls)
		r.Audit = a.req.Audit.Audit()
		if a.req.Whole != nil {
			r.Stored = a.req.Whole.stored
		}
		return r
	}
	for _, q := range p.open {
		question := q.raised.q
		question.ID = q.id
		r.Questions = append(r.Questions, question)
	}
	return r
}

// finish ends the run with res: every caller attached gets the final
// report, the registry keeps it for callers that come later, and the exec
// actor stops.
func (p *parkedRun) finish(a *execActor, res sandbox.Result) {
	p.stopSettle()
	p.parkGen++
	if p.expiry != nil {
		p.expiry.Stop()
	}
	if p.unpark != nil {
		p.unpark()
		p.unpark = nil
	}
	if p.expired {
		res = sandbox.ExpiredResult(res)
	}
	p.state = stateOf(res, p.cancelled)
	report := p.report(a, &res)
	p.end = &report
	// The watchers have the end queued before the registry says the run
	// ended: a watcher that sees done finds it there.
	for _, w := range p.watchers {
		w.push(report)
	}
	p.watchers = nil
	p.entry.end(report)
	for _, w := range p.waiters {
		w.reply <- report
	}
	p.waiters = nil
	p.cancel(nil) // the run is over: release its context
}
