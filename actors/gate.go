package actors

import (
	"context"
	"encoding/json"
	"errors"
	"sync"
	"sync/atomic"
	"time"

	"github.com/asynkron/protoactor-go/actor"
	"github.com/rs/zerolog"

	"github.com/mcpexec/mcpexec/permissions"
)

// queryTimeout bounds a diagnostic query to the gate actor.
const queryTimeout = 5 * time.Second

// GateOptions configure a Gate.
type GateOptions struct {
	Store    permissions.RuleStore
	Prompter permissions.Prompter
	// Logger receives the gate's own reports (failed saves); quiet by default.
	Logger *zerolog.Logger
}

// Gate is the permission step of the execution funnel. Its Admit has the
// shape the pool's funnel expects.
type Gate struct {
	system *actor.ActorSystem
	store  permissions.RuleStore
	pid    *actor.PID
	nextID atomic.Uint64
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
// is cancelled), a *permissions.PromptError when the Prompter failed and permissions.ErrGateStopped
// after Stop. Calls the rules settle never wait for a prompt.
func (g *Gate) Admit(ctx context.Context, name string, args json.RawMessage) error {
	if err := ctx.Err(); err != nil {
		return err
	}
	switch decision, denied := permissions.Check(g.store.Current(), name); decision {
	case permissions.Allow:
		return nil
	case permissions.Deny:
		return denied
	}
	return g.ask(ctx, name, args)
}

// ask hands the call to the gate actor and waits for its answer or for ctx.
func (g *Gate) ask(ctx context.Context, name string, args json.RawMessage) error {
	id := g.nextID.Add(1)
	reply := actor.NewFuture(g.system, -1)
	g.system.Root.RequestWithCustomSender(g.pid,
		&AskPermission{ID: id, Tool: name, Args: args}, reply.PID())

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
		g.system.Root.Send(g.pid, &CancelAsk{ID: id})
		<-answered
		return ctx.Err()
	}
}

// askResult turns the gate actor's reply into Admit's result.
func askResult(res any, err error) error {
	if err != nil {
		return permissions.ErrGateStopped
	}
	decided, ok := res.(*PermissionDecided)
	if !ok {
		return permissions.ErrGateStopped
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

// Stop stops the gate actor: questions still waiting get permissions.ErrGateStopped, the
// prompt on screen is cancelled, and Stop returns when the gate's goroutines
// have ended (it relies on the Prompter honouring its context).
func (g *Gate) Stop() {
	g.stopOnce.Do(func() {
		_ = g.system.Root.StopFuture(g.pid).Wait()
		g.work.Wait()
	})
}
