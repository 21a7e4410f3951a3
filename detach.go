package mcpexec

import (
	"context"
	"encoding/json"
	"time"

	"github.com/mcpexec/mcpexec/actors"
)

// Runs that outlive their call. A client that gives up on a tool call after
// a minute cannot wait for a script that crawls a repository for ten:
// StartDetached waits for the run only so long, then lets it go on and
// returns its id, which WaitRun waits on again and CancelRun stops. The run
// is the one that was started: waiting again never runs the script again.

// DetachOptions configure a run that StartDetached starts.
type DetachOptions struct {
	// Wait bounds how long StartDetached waits for the run; zero: until
	// it ends (or, with Park, parks).
	Wait time.Duration
	// Park makes the run's questions park it, as StartRun's do (the run
	// waits in RunInputRequired for ResumeRun, at most the park timeout),
	// instead of going to the Prompter and Elicitor of StartDetached's ctx.
	Park bool
}

// StartDetached runs an Exec call for an agent like ExecFor, waiting for it
// at most run.Wait. A run that ends sooner returns its result as ExecFor
// would; one still going then goes on, and the result names it in Running,
// with the live summary so far in Summary (OK false, Text empty). The run's
// questions go to the Prompter and Elicitor of ctx, as ExecFor's do, even
// after StartDetached returned; with run.Park they park it instead, and a
// result may then be Pending, as StartRun's. Its budget still ends it.
// Cancelling ctx while StartDetached waits aborts the run; after it
// returned, only CancelRun and Close do.
func (s *System) StartDetached(ctx context.Context, opts DeclareOptions, args json.RawMessage, run DetachOptions, onProgress func(summary string)) ExecResult {
	park := actors.ParkOptions{Timeout: s.parkTimeout, AskCaller: !run.Park}
	return s.funnel.Exec(ctx, actors.ExecCall{Args: args, Agent: opts.agent(), OnLog: consoleFrom(ctx), OnProgress: onProgress,
		Park: &park, YieldAfter: max(run.Wait, 0), State: stateFrom(ctx)})
}

// WaitRun waits at most wait (zero: until it ends) for a run that
// StartDetached or StartRun started: the result is the run's end, or, when
// it is still going, Running names it again with the live summary so far.
// A run that already ended gives its result again, for as long as the
// System remembers it (see StartRun). It fails with ErrUnknownRun only.
// Cancelling ctx while it waits aborts the run.
func (s *System) WaitRun(ctx context.Context, run RunID, wait time.Duration, onProgress func(summary string)) (ExecResult, error) {
	return s.funnel.Resume(ctx, actors.ResumeCall{Run: run, OnLog: consoleFrom(ctx), OnProgress: onProgress, YieldAfter: max(wait, 0)})
}

// ResumeDetached answers questions of a parked run as ResumeRun does, then
// waits for it at most wait (zero: until it ends or parks again), as
// WaitRun does: a run still going then is named in Running. Cancelling ctx
// while it waits aborts the run; after it returned, only CancelRun and
// Close do.
func (s *System) ResumeDetached(ctx context.Context, run RunID, answers map[string]Answer, wait time.Duration, onProgress func(summary string)) (ExecResult, error) {
	return s.funnel.Resume(ctx, actors.ResumeCall{Run: run, Answers: answers, OnLog: consoleFrom(ctx), OnProgress: onProgress, YieldAfter: max(wait, 0)})
}
