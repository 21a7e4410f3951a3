package actors

import (
	"sync"
	"time"

	"github.com/asynkron/protoactor-go/actor"

	"github.com/mcpexec/mcpexec/exectool"
	"github.com/mcpexec/mcpexec/sandbox"
)

// runRegistry finds the runs that park by id: the exec actor of a run
// still going, or the last report of one that ended, kept for a while so a
// caller that comes back late (a retried request, a status query) learns
// how it ended. It holds no state of the runs themselves: each exec actor
// owns its run.
type runRegistry struct {
	mu    sync.Mutex
	live  map[RunID]*runEntry
	ended map[RunID]*endedRun
	// order lists ended runs oldest first, for forgetting them.
	order []RunID
	// endedBytes is what the ended runs' reports hold (see reportBytes),
	// and bytesKept its bound.
	endedBytes, bytesKept int
}

// runEntry is a run still going.
type runEntry struct {
	id  RunID
	pid *actor.PID
	// done is closed once the run ended and its report is in the registry.
	done chan struct{}
	r    *runRegistry
}

type endedRun struct {
	report RunReport
	at     time.Time
	bytes  int
}

// How long, how many and how much of ended runs is remembered. The bytes
// bound matters for runs that end with a large value: a report holds the
// whole value (Stored), which may be tens of megabytes.
const (
	endedRunRetention = time.Hour
	endedRunsKept     = 4096
	endedBytesKept    = 256 << 20
)

func newRunRegistry() *runRegistry {
	return &runRegistry{live: map[RunID]*runEntry{}, ended: map[RunID]*endedRun{}, bytesKept: endedBytesKept}
}

func (r *runRegistry) add(id RunID, pid *actor.PID) *runEntry {
	e := &runEntry{id: id, pid: pid, done: make(chan struct{}), r: r}
	r.mu.Lock()
	r.live[id] = e
	r.mu.Unlock()
	return e
}

// lookup finds id: a run still going (ended nil), or the report of one
// that ended.
func (r *runRegistry) lookup(id RunID) (entry *runEntry, ended *RunReport, ok bool) {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.forgetLocked(time.Now())
	if e, ok := r.live[id]; ok {
		return e, nil, true
	}
	if e, ok := r.ended[id]; ok {
		report := e.report
		return nil, &report, true
	}
	return nil, nil, false
}

// end records the run's final report; callers still waiting on it learn
// it through done.
func (e *runEntry) end(report RunReport) {
	r := e.r
	r.mu.Lock()
	if _, live := r.live[e.id]; !live {
		r.mu.Unlock()
		return
	}
	delete(r.live, e.id)
	now := time.Now()
	size := reportBytes(report)
	r.ended[e.id] = &endedRun{report: report, at: now, bytes: size}
	r.endedBytes += size
	r.order = append(r.order, e.id)
	r.forgetLocked(now)
	r.mu.Unlock()
	close(e.done)
}

// final is the report of an ended run (after done is closed).
func (e *runEntry) final() *RunReport {
	e.r.mu.Lock()
	defer e.r.mu.Unlock()
	if ended, ok := e.r.ended[e.id]; ok {
		report := ended.report
		return &report
	}
	// Forgotten already: it ended long ago, as a failure for all we know.
	return &RunReport{ID: e.id, State: RunFailed, Result: sandbox.CrashResult(nil), Summary: endSummary(nil)}
}

// endEarly ends a run that never got its actor, with res.
func (r *runRegistry) endEarly(e *runEntry, res sandbox.Result) RunReport {
	report := RunReport{ID: e.id, State: stateOf(res, false), Result: res, Calls: res.Calls, Summary: endSummary(res.Calls), Audit: exectool.Audit{}}
	e.end(report)
	return report
}

// forgetLocked drops ended runs past their retention, and the oldest ones
// past the count or the bytes kept. The newest ended run stays whatever its
// size: its callers may not have read it yet.
func (r *runRegistry) forgetLocked(now time.Time) {
	drop := 0
	for drop < len(r.order) {
		old := r.ended[r.order[drop]]
		kept := len(r.order) - drop
		overBytes := r.endedBytes > r.bytesKept && kept > 1
		if kept <= endedRunsKept && now.Sub(old.at) < endedRunRetention && !overBytes {
			break
		}
		r.endedBytes -= old.bytes
		delete(r.ended, r.order[drop])
		drop++
	}
	if drop > 0 {
		r.order = append(r.order[:0:0], r.order[drop:]...)
	}
}

// reportBytes is roughly what an ended run's report holds in memory: its
// texts, values, images and calls.
func reportBytes(report RunReport) int {
	res := report.Result
	n := len(res.Text) + len(res.Value) + len(res.Logs) + len(res.Error)
	for _, img := range res.Images {
		n += len(img.Data)
	}
	for _, c := range report.Calls {
		n += len(c)
	}
	for _, c := range res.Calls {
		n += len(c)
	}
	if report.Stored != nil {
		n += len(report.Stored.Value)
	}
	return n
}

// liveEntries lists the runs still going.
func (r *runRegistry) liveEntries() []*runEntry {
	r.mu.Lock()
	defer r.mu.Unlock()
	out := make([]*runEntry, 0, len(r.live))
	for _, e := range r.live {
		out = append(out, e)
	}
	return out
}

// stateOf is the final state of a run that ended with res; cancelled says
// whether it was cancelled (by Cancel, or by a caller that gave up).
func stateOf(res sandbox.Result, cancelled bool) RunState {
	switch {
	case res.OK:
		return RunCompleted
	case cancelled && res.Outcome() == sandbox.OutcomeAborted:
		return RunCancelled
	}
	return RunFailed
}
