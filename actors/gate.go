package actors

import (
	"context"
	"encoding/json"
	"errors"
	"sync"
	"time"

	"github.com/asynkron/protoactor-go/actor"
	"github.com/rs/zerolog"

	"github.com/mcpexec/mcpexec/internal/ask"
	"github.com/mcpexec/mcpexec/internal/telemetry"
	"github.com/mcpexec/mcpexec/pause"
	"github.com/mcpexec/mcpexec/permissions"
	"github.com/mcpexec/mcpexec/pool"
	"github.com/mcpexec/mcpexec/toolpool"
)

// The pool asks Forbidden about a call that continues one Admit admitted.
var _ pool.RuleGate = (*Gate)(nil)

// queryTimeout bounds a diagnostic query to the gate actor.
const queryTimeout = 5 * time.Second

// GateOptions configure a Gate.
type GateOptions struct {
	Store permissions.RuleStore
	// Prompter asks about the calls made under no permissions.WithPrompter.
	Prompter permissions.Prompter
	// Hints, if set, gives what a tool's server says about it, shown with
	// each question about a call of it.
	Hints func(tool string) toolpool.Annotations
	// Logger receives the gate's own reports (failed saves, crashes); quiet
	// by default.
	Logger *zerolog.Logger
	// Telemetry records each decision on the call's span, and the time the
	// call waits for the person; nil: none.
	Telemetry *telemetry.Telemetry
}

// Gate is the permission step of the execution funnel. Its Admit has the
// shape the pool's funnel expects. Calls the rules settle never leave the
// caller's goroutine; the rest go to the gate actor, which owns the queue of
// questions put to the person. A question goes to the Prompter of the
// call's context (permissions.WithPrompter), else to GateOptions.Prompter;
// a permissions.ConcurrentPrompter gets its questions at once, the others
// one at a time.
//
// Supervision: a crash of the gate actor answers every question it held
// with a *permissions.PromptError (the person could not be asked), and the
// actor is restarted with the person's unsaved "allow always" answers.
type Gate struct {
	system *actor.ActorSystem
	store  permissions.RuleStore
	pid    *actor.PID
	tel    *telemetry.Telemetry
	// work counts the gate actor's prompt and save goroutines.
	work     *sync.WaitGroup
	stopOnce sync.Once
}

// StartGate spawns the gate actor in system.
func StartGate(system *actor.ActorSystem, opts GateOptions) (*Gate, error) {
	if opts.Store == nil || opts.Prompter == nil {
		return nil, errors.New("actors: StartGate needs a Store and a Prompter")
	}
	logger := zerolog.Nop()
	if opts.Logger != nil {
		logger = *opts.Logger
	}
	g := &Gate{system: system, store: opts.Store, work: &sync.WaitGroup{}, tel: opts.Telemetry}
	kept := &gateMemory{}
	props := actor.PropsFromProducer(func() actor.Actor {
		return newGateActor(system, opts, logger, g.work, kept)
	})
	g.pid = spawnSupervised(system, props, newSupervisor("gate", actor.RestartDirective, logger))
	return g, nil
}

// Decide applies the current rules to fullName (without this session's
// "allow always" answers that are not saved yet).
func (g *Gate) Decide(fullName string) (permissions.Decision, string) {
	return permissions.Decide(g.store.Current(), fullName)
}

// Forbidden returns the *DeniedError when a deny rule or a disallowedTools
// entry matches name, and nil otherwise; it never asks. It serves tools that
// are refused only by rules, such as Exec itself: every call inside a script
// passes Admit on its own, so asking about the script as well would ask
// twice.
func (g *Gate) Forbidden(name string) error {
	if _, denied := permissions.Check(g.store.Current(), name); denied != nil {
		return denied
	}
	return nil
}

// Admit lets a call to name (a leaf tool's full name, or Exec) proceed or
// refuses it. It returns nil when the call may run, a *DeniedError when a rule
// or the person denied it, ctx's error when ctx ended first (a pending prompt
// is cancelled), a *permissions.PromptError when the Prompter failed or the
// gate crashed asking, and ErrGateStopped after Stop. Calls the rules settle
// never wait for a prompt.
func (g *Gate) Admit(ctx context.Context, name string, args json.RawMessage) error {
	if err := ctx.Err(); err != nil {
		return err
	}
	switch decision, denied := permissions.Check(g.store.Current(), name); decision {
	case permissions.Allow:
		telemetry.PermissionDecided(ctx, "allow")
		return nil
	case permissions.Deny:
		telemetry.PermissionDecided(ctx, "deny")
		return denied
	}
	telemetry.PermissionDecided(ctx, "ask")
	// Waiting for the person (or for the prompts before this one) does not
	// count against the budget of the script that made the call.
	defer pause.ForPerson(ctx)()
	ctx, wait := g.tel.StartPrompt(ctx)
	decided, err := ask.Request[*permissionDecided](ctx, g.system, g.pid, &askPermission{ctx: ctx, tool: name, args: args})
	var crashed *ask.CrashError
	switch {
	case err == nil:
		wait.End(answerOf(decided.err))
		return decided.err
	case ctx.Err() != nil:
		wait.End("none")
		return ctx.Err()
	case errors.As(err, &crashed):
		wait.End("none")
		return &permissions.PromptError{Tool: name, Err: err}
	default:
		wait.End("none")
		return permissions.ErrGateStopped
	}
}

// answerOf names the person's answer for telemetry: "allow", "deny", or
// "none" when no answer came (the prompter failed).
func answerOf(err error) string {
	var denied *permissions.DeniedError
	switch {
	case err == nil:
		return "allow"
	case errors.As(err, &denied):
		return "deny"
	}
	return "none"
}

// Queued returns how many questions wait behind the one on screen (0 after
// Stop). It is meant for diagnostics and tests.
func (g *Gate) Queued() int {
	ctx, cancel := context.WithTimeout(context.Background(), queryTimeout)
	defer cancel()
	waiting, err := ask.Request[*questionsWaiting](ctx, g.system, g.pid, &questionsQuery{})
	if err != nil {
		return 0
	}
	return waiting.n
}

// Stop stops the gate actor: questions still waiting get ErrGateStopped, the
// prompt on screen is cancelled, and Stop returns when the gate's goroutines
// have ended (it relies on the Prompter honouring its context).
func (g *Gate) Stop() {
	g.stopOnce.Do(func() {
		_ = g.system.Root.StopFuture(g.pid).Wait()
		g.work.Wait()
	})
}
