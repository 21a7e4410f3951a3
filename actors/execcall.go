package actors

import (
	"context"
	"encoding/json"
	"time"

	"github.com/mcpexec/mcpexec/declare"
	"github.com/mcpexec/mcpexec/exectool"
	"github.com/mcpexec/mcpexec/internal/telemetry"
	"github.com/mcpexec/mcpexec/sandbox"
	"github.com/mcpexec/mcpexec/state"
)

// ExecCall is one Exec call as the model made it, for one agent.
type ExecCall struct {
	// Args are the arguments the model gave ({"code": ...}).
	Args json.RawMessage
	// Agent is the agent the call is for: its tool set decides whether it
	// may call Exec and which tools the script reaches.
	Agent declare.Agent
	// OnLog, if set, receives the script's console output as it is written.
	OnLog func(text string)
	// OnProgress, if set, receives the live summary after every nested
	// call (SUM-4) and every new status message of a task a nested call
	// runs as.
	OnProgress func(summary string)
	// State is the conversation's state, which the script's store and
	// load reach and where a return value too long for the text is kept by
	// reference; nil: the conversation keeps none.
	State *state.State
	// Park, when set, makes the run park its questions instead of asking
	// the Prompter and the Elicitor: the call returns a pending result
	// (ExecResult.Pending) while the run waits for answers, which Resume
	// gives.
	Park *ParkOptions
	// YieldAfter, with Park, bounds how long the call waits for the run:
	// a run still going then goes on, and the result names it
	// (ExecResult.Running). Zero: the call waits for the run's end or its
	// questions.
	YieldAfter time.Duration
}

// ResumeCall answers a parked run's questions and waits for it again.
type ResumeCall struct {
	Run     RunID
	Answers map[string]Answer
	// OnLog and OnProgress watch the run while this call waits on it.
	OnLog      func(text string)
	OnProgress func(summary string)
	// YieldAfter bounds the wait, as ExecCall.YieldAfter does.
	YieldAfter time.Duration
}

// Pending is a run that waits for a person's answers: its id, and every
// question it waits on, oldest first.
type Pending struct {
	Run       RunID
	Questions []Question
}

// ExecResult is the outcome of an Exec call: the result handed to the model
// (Text and Images), the summary shown to the person, and the audit of its
// nested calls for the host (never model input).
type ExecResult struct {
	OK      bool
	Text    string
	Images  []sandbox.Image
	Summary string
	// Calls are the nested calls made, in order; those of a run still
	// going are shared with it: read them, never modify them.
	Calls []string
	// Audit lists the nested calls that reached the funnel (at most
	// exectool.MaxAuditCalls; the rest are only counted): tool, outcome,
	// duration and bytes returned; and what the script did with its
	// conversation's state.
	Audit exectool.Audit
	// Stored is the whole return value when Text shows only its first
	// part, and where the conversation keeps it; nil when Text holds it
	// all.
	Stored *exectool.Stored
	// Pending is set when the run did not end but waits for a person's
	// answers (a call made with parking): OK is then false and Text empty,
	// and Summary says what the run did so far.
	Pending *Pending
	// Running names a run that is still going when the call stopped
	// waiting for it (ExecCall.YieldAfter): OK is then false and Text
	// empty, and Summary says what the run did so far.
	Running RunID
}

// Results of an Exec call refused before it runs, written for the model.
var (
	errExecOff     = plainError("Exec is not available in this session: call the MCP tools directly.")
	errNotPrepared = plainError("The script did not run: the sandbox could not be prepared for it. Try again.")
)

// Exec runs an Exec call. The reachable tools are taken from the pool at
// this moment (CONV-7), and ctx's values (a prompter, server progress)
// apply to every nested call. It always returns a result: argument errors,
// a denied Exec, a missing MCP manager and every way a script can fail are
// failure results. With Telemetry, the call is a span, a child of ctx's.
func (f *Funnel) Exec(ctx context.Context, call ExecCall) (res ExecResult) {
	ctx, span := f.Telemetry.StartExec(ctx)
	outcome := outcomeRefused
	defer func() { span.End(outcome, len(res.Calls)) }()
	code, err := f.admitExec(call)
	if err != nil {
		return refused(err)
	}
	v, err := f.Broadcaster.View(f.snapshot(), call.Agent)
	if err != nil {
		f.Logger.Error().Ctx(ctx).Err(err).Msg("mcpexec: Exec not run")
		return refused(errNotPrepared)
	}
	logger := telemetry.Logger(ctx, f.Logger)
	audit := &exectool.AuditLog{}
	limits := f.Limits
	whole := newWholeValue(call.State, &limits)
	req := ExecRequest{Script: sandbox.Request{
		Code: code, Tools: v.ToolSet, Host: nestedCalls{funnel: f, view: v, caller: ctx},
		OnLog: call.OnLog, Limits: limits, Logger: &logger, Reference: whole.ref,
	}, Telemetry: f.Telemetry, Audit: audit, Whole: whole}
	if call.State != nil {
		req.Script.State = auditedState{st: call.State, audit: audit, telemetry: f.Telemetry}
	}
	if call.Park != nil {
		report := f.Execs.Start(ctx, req, *call.Park, Watch{OnProgress: call.OnProgress, OnLog: call.OnLog, YieldAfter: call.YieldAfter})
		res, outcome = execResultOf(report), outcomeOf(report)
		return res
	}
	req.OnProgress = call.OnProgress
	run := f.Execs.Run(ctx, req)
	outcome = run.Outcome()
	return ExecResult{OK: run.OK, Text: run.Text, Images: run.Images, Summary: exectool.Summary(run.Calls, !run.OK), Calls: run.Calls,
		Audit: audit.Audit(), Stored: whole.stored}
}

// Resume answers the questions of a parked run (Exec with Park) and waits
// for its next report, as Exec does: the run's end, or the questions it
// waits on now. It fails only with ErrUnknownRun.
func (f *Funnel) Resume(ctx context.Context, call ResumeCall) (res ExecResult, err error) {
	ctx, span := f.Telemetry.StartExec(ctx)
	outcome := outcomeRefused
	defer func() { span.End(outcome, len(res.Calls)) }()
	report, err := f.Execs.Resume(ctx, call.Run, call.Answers, Watch{OnProgress: call.OnProgress, OnLog: call.OnLog, YieldAfter: call.YieldAfter})
	if err != nil {
		return ExecResult{}, err
	}
	res, outcome = execResultOf(report), outcomeOf(report)
	return res, nil
}

// execResultOf is the Exec result of a run's report.
func execResultOf(r RunReport) ExecResult {
	switch {
	case r.State == RunWorking:
		return ExecResult{Summary: r.Summary, Calls: r.Calls, Running: r.ID}
	case !r.State.Ended():
		return ExecResult{Summary: r.Summary, Calls: r.Calls,
			Pending: &Pending{Run: r.ID, Questions: r.Questions}}
	}
	run := r.Result
	return ExecResult{OK: run.OK, Text: run.Text, Images: run.Images, Summary: exectool.Summary(run.Calls, !run.OK), Calls: run.Calls,
		Audit: r.Audit, Stored: r.Stored}
}

// outcomeOf is the telemetry outcome of an Exec call that got report r.
func outcomeOf(r RunReport) string {
	switch {
	case r.State == RunWorking:
		return outcomeYielded
	case !r.State.Ended():
		return telemetry.OutcomeInputRequired
	}
	return r.Result.Outcome()
}

// outcomeRefused is an Exec call that did not run: bad arguments, Exec
// denied or off, no MCP manager, no view of the pool.
const outcomeRefused = "refused"

// outcomeYielded is an Exec call that stopped waiting for a run still
// going.
const outcomeYielded = "yielded"

// admitExec checks what must hold before a script runs, and returns the
// script: well-formed arguments (EDGE-8), Exec not denied by a rule, an MCP
// manager to call (EDGE-5), and Exec switched on and in the agent's tool
// set. A call that arrives after the switch went off (the model answering
// from an older request) must not run: Exec is not offered any more.
func (f *Funnel) admitExec(call ExecCall) (code string, err error) {
	if code, err = exectool.ParseArguments(call.Args); err != nil {
		return "", err
	}
	if err := f.Gate.Forbidden(exectool.Name); err != nil {
		return "", err
	}
	if f.Pool == nil {
		return "", errNoMCPManager
	}
	if cfg := f.Settings.Current(); !cfg.EnableExec || !call.Agent.Permits(exectool.Name) {
		return "", errExecOff
	}
	return code, nil
}

func refused(err error) ExecResult {
	return ExecResult{Text: err.Error(), Summary: exectool.Summary(nil, true)}
}

// nestedCalls serves one Exec run's nested calls, which the exec actor
// starts: a tool call goes through the same funnel as a flat call (NFR-3),
// the permission gate, then the pool; a search goes to the index of the
// run's own view, the same pool the run can reach (SEARCH-4).
type nestedCalls struct {
	funnel *Funnel
	view   *View
	// caller is the Exec call's context, whose values (a prompter, server
	// progress) apply to every nested call.
	caller context.Context
}

func (h nestedCalls) CallTool(ctx context.Context, name string, args json.RawMessage) (sandbox.CallResult, error) {
	res, err := h.funnel.Call(withValuesOf{Context: ctx, values: h.caller}, name, args)
	if err != nil {
		return sandbox.CallResult{}, scriptFailure(err)
	}
	if h.funnel.Observe != nil {
		h.funnel.Observe(h.view.Snapshot, name, res)
	}
	return scriptResult(res)
}

func (h nestedCalls) Search(_ context.Context, args json.RawMessage) (json.RawMessage, error) {
	results, err := h.view.SearchIndex().Search(args)
	if err != nil {
		return nil, err
	}
	return json.Marshal(results)
}

// withValuesOf is a context whose values not found in it are looked up in
// values: a nested call keeps its own context (and cancellation) and takes
// the per-call values of the Exec call that made it.
type withValuesOf struct {
	context.Context
	values context.Context
}

func (c withValuesOf) Value(key any) any {
	if v := c.Context.Value(key); v != nil {
		return v
	}
	return c.values.Value(key)
}
