package permissions

import (
	"context"
	"encoding/json"
	"errors"
	"sync"
	"sync/atomic"
	"time"

	"github.com/asynkron/protoactor-go/actor"
	"github.com/rs/zerolog"

	"github.com/mcpexec/mcpexec/messages"
)

// queryTimeout bounds a diagnostic query to the gate actor.
const queryTimeout = 5 * time.Second

// RuleStore is where the gate reads the effective rules and saves "allow
// always" answers. The config actor's handle (hotreload.Service) is one.
type RuleStore interface {
	// Current returns the effective configuration; it must be cheap.
	Current() messages.Config
	// AllowAlways persists rule as an allow rule. When it returns nil,
	// Current already includes the rule.
	AllowAlways(ctx context.Context, rule string) error
}

// GateOptions configure a Gate.
type GateOptions struct {
	Store    RuleStore
	Prompter Prompter
	// Logger receives the gate's own reports (failed saves); quiet by default.
	Logger *zerolog.Logger
}

// Gate is the permission step of the execution funnel. Its Admit has the
// shape the pool's funnel expects.
type Gate struct {
	system *actor.ActorSystem
	store  RuleStore
	pid    *actor.PID
	nextID atomic.Uint64
	// work counts the gate actor's prompt and save goroutines.
	work     *sync.WaitGroup
	stopOnce sync.Once
}

// StartGate spawns the gate actor in system.
func StartGate(system *actor.ActorSystem, opts GateOptions) (*Gate, error) {
	if opts.Store == nil || opts.Prompter == nil {
		return nil, errors.New("permissions: StartGate needs a Store and a Prompter")
	}
	logger := zerolog.Nop()
	if opts.Logger != nil {
		logger = *opts.Logger
	}
	g := &Gate{system: system, store: opts.Store, work: &sync.WaitGroup{}}
	props := actor.PropsFromProducer(func() actor.Actor {
		return newGateActor(system, opts.Store, opts.Prompter, logger, g.work)
	})
	g.pid = system.Root.Spawn(props)
	return g, nil
}

// PID is the gate actor, for actors that send AskPermission themselves.
func (g *Gate) PID() *actor.PID { return g.pid }

// Decide applies the current rules to fullName (without this session's
// "allow always" answers that are not saved yet).
func (g *Gate) Decide(fullName string) (Decision, string) {
	return Decide(g.store.Current(), fullName)
}

// Forbidden returns the *DeniedError when a deny rule or a disallowedTools
// entry matches name, and nil otherwise; it never asks. It serves tools that
// are refused only by rules, such as Exec itself: every call inside a script
// passes Admit on its own, so asking about the script as well would ask
// twice.
func (g *Gate) Forbidden(name string) error {
	if v := decide(g.store.Current(), name); v.decision == Deny {
		return v.denial(name)
	}
	return nil
}

// Admit lets a call to name (a leaf tool's full name, or Exec) proceed or
// refuses it. It returns nil when the call may run, a *DeniedError when a rule
// or the person denied it, ctx's error when ctx ended first (a pending prompt
// is cancelled), a *PromptError when the Prompter failed and ErrGateStopped
// after Stop. Calls the rules settle never wait for a prompt.
func (g *Gate) Admit(ctx context.Context, name string, args json.RawMessage) error {
	if err := ctx.Err(); err != nil {
		return err
	}
	v := decide(g.store.Current(), name)
	switch v.decision {
	case Allow:
		return nil
	case Deny:
		return v.denial(name)
	}
	return g.ask(ctx, name, args)
}

// ask hands the call to the gate actor and waits for its answer or for ctx.
func (g *Gate) ask(ctx context.Context, name string, args json.RawMessage) error {
	id := g.nextID.Add(1)
	reply := actor.NewFuture(g.system, -1)
	g.system.Root.RequestWithCustomSender(g.pid,
		&messages.AskPermission{ID: id, Tool: name, Args: args, Call: messages.CallIDFrom(ctx)}, reply.PID())

	answered := make(chan error, 1)
	go func() {
		answered <- askResult(reply.Result())
	}()
	select {
	case err := <-answered:
		return err
	case <-ctx.Done():
		// The gate answers a cancelled question at once (or has answered
		// it already, or answered everything when it stopped), so this
		// wait is short. The future is not stopped early: a reply racing
		// a stopped future is a data race inside the actor library.
		g.system.Root.Send(g.pid, &messages.CancelAsk{ID: id})
		<-answered
		return ctx.Err()
	}
}

// askResult turns the gate actor's reply into Admit's result.
func askResult(res any, err error) error {
	if err != nil {
		return ErrGateStopped
	}
	decided, ok := res.(*messages.PermissionDecided)
	if !ok {
		return ErrGateStopped
	}
	return decided.Err
}

// Queued returns how many questions wait behind the one on screen (0 after
// Stop). It is meant for diagnostics and tests.
func (g *Gate) Queued() int {
	res, err := g.system.Root.RequestFuture(g.pid, queuedQuery{}, queryTimeout).Result()
	if err != nil {
		return 0
	}
	n, _ := res.(int)
	return n
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
