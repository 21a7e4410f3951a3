package actors

import (
	"github.com/mcpexec/mcpexec/pool"
	"github.com/mcpexec/mcpexec/sandbox"
)

// The exec actor's protocol. One exec actor serves one Exec call; its child,
// the sandbox actor, runs the script on one worker. These messages stay in
// the process: they carry the run's context and continuation.

// callMade tells the exec actor that the script made a nested call, as it
// happens (including calls the worker refused over the cap), so the live
// result summary can follow (SUM-4).
type callMade struct {
	name string
}

// taskStatusChanged tells the exec actor that a task one of its nested
// calls runs as on its server changed status, for the live summary.
type taskStatusChanged struct {
	status pool.TaskStatus
}

// A *sandbox.Call is a nested call on its way to the funnel: the sandbox
// actor's worker hands it to the exec actor, which starts it and answers it
// (sandbox.Call.Answer).

// scriptFinished carries the sandbox actor's outcome to the exec actor:
// every way a run ends, including timeout, crash and abort, is a Result.
type scriptFinished struct {
	result sandbox.Result
}

// The protocol of a run that parks (Execs.Start). Its questions come from
// its runDesk; its callers attach through Execs.Start and Execs.Resume.

// questionRaised: a nested call of the run waits for an answer to q. call
// marks the nested call that asked (nil when unknown); the answer goes to
// reply.
type questionRaised struct {
	q     Question
	call  any
	reply chan Answer
}

// questionDropped: the call that raised a question stopped waiting for its
// answer.
type questionDropped struct{ raised *questionRaised }

// attachRun attaches a caller (Resume) with answers to deliver first.
type attachRun struct {
	waiter  *runWaiter
	answers map[string]Answer
}

// detachRun: a waiter stops waiting without ending the run; it gets the
// run's report as it stands.
type detachRun struct{ waiter *runWaiter }

// cancelRun cancels the run (Cancel, or a caller that gave up waiting).
type cancelRun struct{}

// runStatus asks for the run's report as it stands.
type runStatus struct{ reply chan RunReport }

// watchRun adds a watcher (Execs.Watch): it hears the run's report as it
// stands at once, then after every change of its state or live summary.
type watchRun struct{ watcher *runWatcher }

// unwatchRun removes a watcher that stopped watching before the run ended.
type unwatchRun struct{ watcher *runWatcher }

// runWaiting: the run started or stopped waiting on people alone.
type runWaiting struct{ waiting bool }

// nestedCallEnded: one of the run's nested calls was answered.
type nestedCallEnded struct{}

// settleDue: the settle window of generation gen is over.
type settleDue struct{ gen int }

// parkExpired: the parked run of generation gen waited too long.
type parkExpired struct{ gen int }

// A task's last status, a watch and its end may come after the run ended
// and its actor stopped: that is expected, not worth a dead letter's log
// line.
func (*taskStatusChanged) IgnoreDeadLetterLogging() {}
func (*watchRun) IgnoreDeadLetterLogging()          {}
func (*unwatchRun) IgnoreDeadLetterLogging()        {}
