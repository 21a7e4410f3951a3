package mcpexec

import (
	"context"
	"encoding/json"
	"time"

	"github.com/mcpexec/mcpexec/actors"
	"github.com/mcpexec/mcpexec/broadcast"
	"github.com/mcpexec/mcpexec/catalog"
	"github.com/mcpexec/mcpexec/declare"
	"github.com/mcpexec/mcpexec/exectool"
	"github.com/mcpexec/mcpexec/messages"
	"github.com/mcpexec/mcpexec/pool"
)

// Declaration is one entry of tools[].
type Declaration = declare.Declaration

// DeclareOptions describe the agent a request is for: the host's built-in
// tools, and for a sub-agent its tool set (Allowed, nil for all) and
// exclusions.
type DeclareOptions struct {
	Builtin    []Declaration
	Allowed    []string
	Disallowed []string
}

func (o DeclareOptions) agent() declare.Agent {
	return declare.Agent{Builtin: o.Builtin, Allowed: o.Allowed, Disallowed: o.Disallowed}
}

// Declarations returns tools[] for one model request, decided afresh from the
// pool and the settings as they are now.
func (s *System) Declarations(opts DeclareOptions) []Declaration {
	return declare.Assemble(s.snapshot(), s.config.Current(), opts.agent())
}

// DeclarationsWithCatalog returns tools[] for a client that owns its
// conversation, where no catalog message can be appended (an MCP client of a
// gateway): Exec's description carries the catalog and the servers' usage
// instructions, all read from one pool snapshot. Equal pools and settings
// give equal bytes, so a client's cached prompt stays valid until the pool
// really changes. Exec stays declared while a server is starting or
// reconnecting, even when no tool is reachable for the moment: a call then
// fails with a result that says which server is reconnecting.
func (s *System) DeclarationsWithCatalog(opts DeclareOptions) []Declaration {
	snap, agent := s.snapshot(), opts.agent()
	decls := declare.AssembleSteady(snap, s.config.Current(), agent)
	for i, d := range decls {
		if d.Name != exectool.Name {
			continue
		}
		v, err := s.broadcaster.SettledView(snap, agent)
		if err != nil {
			// Exec stays declared with its plain description; search
			// still finds every tool.
			s.logger.Error().Err(err).Msg("mcpexec: Exec declared without its catalog")
			continue
		}
		decls[i].Description = exectool.DescriptionWithCatalog(v.Catalog.Catalog().Body, serverInstructions(snap))
	}
	return decls
}

// Broadcast returns the meta messages to append to the history before this
// request: at most one catalog message, and the usage instructions of servers
// that became available. State is read from the markers in history alone; a
// nil history (no channel) is silence.
func (s *System) Broadcast(history broadcast.Channel, opts DeclareOptions) ([]broadcast.Message, error) {
	_, msgs, err := s.prepare(history, opts, false)
	return msgs, err
}

// Prepare returns both halves of one model request from one pool snapshot
// and one reading of the settings: tools[] and the meta messages to append.
// Calling Declarations and Broadcast separately could see the pool change
// in between (Exec declared beside an "empty pool" notice).
func (s *System) Prepare(history broadcast.Channel, opts DeclareOptions) ([]Declaration, []broadcast.Message, error) {
	return s.prepare(history, opts, true)
}

func (s *System) prepare(history broadcast.Channel, opts DeclareOptions, declarations bool) ([]Declaration, []broadcast.Message, error) {
	snap := s.snapshot()
	cfg, agent := s.config.Current(), opts.agent()
	var decls []Declaration
	if declarations {
		decls = declare.Assemble(snap, cfg, agent)
	}
	if history == nil {
		return decls, nil, nil
	}
	msgs, err := s.broadcast(history, snap, cfg, agent)
	return decls, msgs, err
}

func (s *System) broadcast(history broadcast.Channel, snap *pool.Snapshot, cfg messages.Config, agent declare.Agent) ([]broadcast.Message, error) {
	v, err := s.broadcaster.View(snap, agent)
	if err != nil {
		return nil, err
	}
	var out []broadcast.Message
	msg, ok, err := broadcast.Catalog(history, v.Catalog, declare.ExecDeclared(snap, cfg, agent))
	if err != nil {
		return nil, err
	}
	if ok {
		out = append(out, msg)
		if msg.Catalog != nil {
			s.telemetry.CatalogBroadcast(string(msg.Catalog.Kind), catalog.EstimateTokens(msg.Text))
		}
	}
	instructions, err := broadcast.Instructions(history, serverInstructions(snap))
	if err != nil {
		return out, err
	}
	return append(out, instructions...), nil
}

// Catalog renders the catalog of the pool as it is now (the body a catalog
// message carries).
// It is empty when the catalog could not be made (the error is logged).
func (s *System) Catalog() catalog.Catalog {
	v, err := s.broadcaster.View(s.snapshot(), declare.Agent{})
	if err != nil {
		s.logger.Error().Err(err).Msg("mcpexec: no catalog")
		return catalog.Catalog{}
	}
	return v.Catalog.Catalog()
}

// Instructions returns the usage instructions of the connected servers that
// give some at initialize, sorted by server name: what a catalog message's
// companions carry to the model.
func (s *System) Instructions() []broadcast.ServerInstructions {
	return serverInstructions(s.snapshot())
}

func serverInstructions(snap *pool.Snapshot) []broadcast.ServerInstructions {
	var out []broadcast.ServerInstructions
	if snap == nil {
		return nil
	}
	for _, server := range snap.Servers() {
		if text, has := snap.Instructions(server); has {
			out = append(out, broadcast.ServerInstructions{Server: server, Instructions: text})
		}
	}
	return out
}

// ToolResult is the outcome of a flat MCP call.
type ToolResult = actors.ToolResult

// CallFlat runs an MCP tool called directly (Exec off, or a flat
// declaration): the same funnel as every nested call. name is the name the
// tool was declared under; a tool whose real name the model APIs reject was
// declared under an alias, which is mapped back here, so the permission
// gate sees the real name.
func (s *System) CallFlat(ctx context.Context, name string, args json.RawMessage) ToolResult {
	return s.funnel.CallFlat(ctx, name, args)
}

// ExecResult is the outcome of an Exec call: the result handed to the model
// (Text and Images) and the summary shown to the person.
type ExecResult = actors.ExecResult

// Exec runs an Exec call for the main agent; see ExecFor.
func (s *System) Exec(ctx context.Context, args json.RawMessage, onProgress func(summary string)) ExecResult {
	return s.ExecFor(ctx, DeclareOptions{}, args, onProgress)
}

// ExecFor runs an Exec call with the arguments the model gave ({"code": ...})
// for an agent. The reachable tools are taken from the pool at this moment
// (CONV-7). onProgress, if set, receives the live summary after every nested
// call (SUM-4). It always returns a result: argument errors, a denied Exec, a
// missing MCP manager and every way a script can fail are failure results.
func (s *System) ExecFor(ctx context.Context, opts DeclareOptions, args json.RawMessage, onProgress func(summary string)) ExecResult {
	return s.funnel.Exec(ctx, actors.ExecCall{Args: args, Agent: opts.agent(), OnLog: consoleFrom(ctx), OnProgress: onProgress, State: stateFrom(ctx)})
}

// Runs that wait for a person. An Exec run whose nested call needs the
// person's approval, or whose server asks a question, normally waits on
// the Prompter or the Elicitor within the call. StartRun runs it instead as
// a run of its own that parks: the call returns a pending result carrying
// the run's id and every question it waits on, and ResumeRun answers them
// minutes later, from another request or channel. The run keeps its state
// in its worker meanwhile: nothing is replayed, and nested calls made
// before the question are never repeated.

type (
	// RunID names a run that parks; holding it lets a caller answer,
	// resume, query or cancel the run.
	RunID = actors.RunID
	// RunState is where a run stands: working, input_required, completed,
	// failed or cancelled.
	RunState = actors.RunState
	// Question is one question a parked run waits on: a permission
	// question (Permission) or a server's question (Elicitation), named by
	// its ID within the run.
	Question = actors.Question
	// Answer answers one Question.
	Answer = actors.Answer
	// Pending is a parked run: its id and its questions.
	Pending = actors.Pending
	// RunStatus is where a run stands now: its state, its live summary,
	// its questions while it waits, its result once ended. Its Calls are
	// shared with the run and its other statuses: never modify them.
	RunStatus = actors.RunReport
)

// The states of a run.
const (
	RunWorking       = actors.RunWorking
	RunInputRequired = actors.RunInputRequired
	RunCompleted     = actors.RunCompleted
	RunFailed        = actors.RunFailed
	RunCancelled     = actors.RunCancelled
)

// ErrUnknownRun is the error of a run id that names no run of this System:
// it never existed, or it ended long enough ago to be forgotten. A daemon
// restart forgets every run.
var ErrUnknownRun = actors.ErrUnknownRun

// StartRun runs an Exec call like ExecFor, except that a question no rule
// settles (a permission question, a server's question) does not block on
// the Prompter or the Elicitor: the run parks, its budget clock stopped,
// and StartRun returns a result whose Pending names the run and lists every
// question open at that moment (the questions of calls made together, such
// as a Promise.all, come together; each is answered on its own). A run
// that needs no answer returns its result as ExecFor would. Cancelling ctx
// while StartRun waits aborts the run.
//
// A parked run lives in this process's memory: it waits at most
// Options.ParkTimeout for ResumeRun, after which it is cancelled and the
// calls waiting for an answer never run; Close and a restart of the
// process cancel it too. Calls it made before it parked stay made.
func (s *System) StartRun(ctx context.Context, opts DeclareOptions, args json.RawMessage, onProgress func(summary string)) ExecResult {
	park := actors.ParkOptions{Timeout: s.parkTimeout}
	return s.funnel.Exec(ctx, actors.ExecCall{Args: args, Agent: opts.agent(), OnLog: consoleFrom(ctx), OnProgress: onProgress, Park: &park, State: stateFrom(ctx)})
}

// ParkTimeout is how long a parked run waits for its answers
// (Options.ParkTimeout, else DefaultParkTimeout): the bound a host also
// gives whatever else it holds for a person's answer.
func (s *System) ParkTimeout() time.Duration {
	if s.parkTimeout > 0 {
		return s.parkTimeout
	}
	return DefaultParkTimeout
}

// ResumeRun answers questions of the parked run (answers by Question.ID;
// one left unanswered keeps waiting) and waits for the run again: the
// result is its end, or Pending with the questions it waits on now. A run
// that already ended gives its result again; one that expired fails saying
// so. It fails with ErrUnknownRun only. Cancelling ctx while it waits
// aborts the run.
func (s *System) ResumeRun(ctx context.Context, run RunID, answers map[string]Answer, onProgress func(summary string)) (ExecResult, error) {
	return s.funnel.Resume(ctx, actors.ResumeCall{Run: run, Answers: answers, OnLog: consoleFrom(ctx), OnProgress: onProgress})
}

// RunStatus reports where a run started by StartRun or StartDetached
// stands now, without waiting: its state, its live summary (Summary: the
// calls and a line per upstream task still running, as every caller of
// the run sees it), its questions while it waits, its result once ended.
func (s *System) RunStatus(ctx context.Context, run RunID) (RunStatus, error) {
	return s.execs.Status(ctx, run)
}

// WatchRun follows a run started by StartRun or StartDetached without
// waiting on it: onChange gets its status at once, then after every change
// of its state or live summary, in order and as it happens (nothing
// polls, and no change is skipped however brief), on the calling
// goroutine. It returns nil after the run's final status, or ctx's error
// when ctx ends first. A watcher is not a caller: a run that waits for
// answers with nobody waiting on it parks, and expires, however many
// watch it. It finds the runs RunStatus finds (those of this System,
// wherever their scripts run); it fails at once only with ErrUnknownRun.
func (s *System) WatchRun(ctx context.Context, run RunID, onChange func(RunStatus)) error {
	return s.execs.Watch(ctx, run, onChange)
}

// CancelRun cancels a run started by StartRun: a run still going is
// aborted (the calls waiting for an answer never run) and ends as
// cancelled. It reports whether the run was still going.
func (s *System) CancelRun(run RunID) bool {
	return s.execs.Cancel(run)
}
