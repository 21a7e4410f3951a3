package actors

import (
	"context"
	"fmt"
	"slices"
	"sync"

	"github.com/asynkron/protoactor-go/actor"
	"github.com/rs/zerolog"

	"github.com/mcpexec/mcpexec/messages"
	"github.com/mcpexec/mcpexec/permissions"
	"github.com/mcpexec/mcpexec/toolpool"
)

// gateActor owns what asking needs an order for: the queue of questions and
// the one prompt on screen. What must survive a crash (the person's answers
// not yet saved) is in gateMemory, which the next incarnation takes over.
type gateActor struct {
	system   *actor.ActorSystem
	self     *actor.PID
	store    permissions.RuleStore
	prompter permissions.Prompter // for calls made under no WithPrompter
	hints    func(tool string) toolpool.Annotations
	logger   zerolog.Logger
	work     *sync.WaitGroup
	kept     *gateMemory

	// lifetime ends when the actor stops or restarts; prompts and saves run
	// under it.
	lifetime context.Context
	stop     context.CancelFunc

	// queue and current are the questions put one at a time: current is
	// on screen, the queue waits behind it.
	queue   []*question
	current *question
	// open are the questions put to concurrent prompters, each on screen
	// from the moment it came.
	open map[*question]struct{}
}

// gateMemory is the gate's state that outlives a restart.
type gateMemory struct {
	// sessionAllow holds leaf rules the person allowed always whose save has
	// not been confirmed; they count as allow rules meanwhile.
	sessionAllow []string
}

// question is one askPermission waiting for an answer.
type question struct {
	ask     *askPermission
	replyTo *actor.PID
	// prompter is who is asked: the call's, or the gate's own.
	prompter permissions.Prompter
	// withdraw stops watching the asker's context.
	withdraw func() bool
	// cancel ends the prompt's context while the question is on screen.
	cancel context.CancelFunc
	// answered is set once the asker got its permissionDecided.
	answered bool
}

// promptFinished is the Prompter's answer, sent by the prompt goroutine.
type promptFinished struct {
	q      *question
	answer permissions.Answer
	err    error
}

// questionWithdrawn tells the gate that the asker of q gave up.
type questionWithdrawn struct{ q *question }

// ruleSaved is the RuleStore's answer to an "allow always" save.
type ruleSaved struct {
	rule string
	err  error
}

// errPromptPanicked stands for a Prompter that panicked.
type errPromptPanicked struct{ value any }

func (e errPromptPanicked) Error() string { return fmt.Sprintf("the prompter panicked: %v", e.value) }

func newGateActor(system *actor.ActorSystem, opts GateOptions, logger zerolog.Logger, work *sync.WaitGroup, kept *gateMemory) *gateActor {
	lifetime, stop := context.WithCancel(context.Background())
	return &gateActor{
		system: system, store: opts.Store, prompter: opts.Prompter, hints: opts.Hints, logger: logger, work: work, kept: kept,
		lifetime: lifetime, stop: stop, open: map[*question]struct{}{},
	}
}

func (a *gateActor) Receive(c actor.Context) {
	switch msg := c.Message().(type) {
	case *actor.Started:
		a.self = c.Self()
	case *askPermission:
		q := &question{ask: msg, replyTo: c.Sender(), prompter: permissions.PrompterFor(msg.ctx, a.prompter)}
		self, system := a.self, a.system
		q.withdraw = context.AfterFunc(msg.ctx, func() { system.Root.Send(self, &questionWithdrawn{q: q}) })
		if _, concurrent := q.prompter.(permissions.ConcurrentPrompter); concurrent {
			a.askNow(q)
			return
		}
		a.queue = append(a.queue, q)
		a.next()
	case *questionWithdrawn:
		a.withdrawn(msg.q)
	case *promptFinished:
		a.finishPrompt(msg)
		a.next()
	case *ruleSaved:
		a.finishSave(msg)
	case *questionsQuery:
		c.Respond(&questionsWaiting{n: len(a.queue)})
	case *actor.Restarting:
		a.shutdown(func(q *question) error {
			return &permissions.PromptError{Tool: q.ask.tool, Err: errGateRestarted}
		})
	case *actor.Stopping:
		a.shutdown(func(*question) error { return permissions.ErrGateStopped })
	}
}

// errGateRestarted is the cause of the PromptError questions get when the
// gate crashed while holding them.
var errGateRestarted = fmt.Errorf("the permission gate failed and was restarted")

// next puts the first question the rules do not settle to the person, unless
// a prompt is already on screen. Each question is decided again when its turn
// comes: an earlier "allow always" or a settings change may settle it.
func (a *gateActor) next() {
	for a.current == nil && len(a.queue) > 0 {
		q := a.queue[0]
		a.queue = a.queue[1:]
		if err := q.ask.ctx.Err(); err != nil {
			a.reply(q, err)
			continue
		}
		switch decision, denied := permissions.Check(a.effective(), q.ask.tool); decision {
		case permissions.Allow:
			a.reply(q, nil)
		case permissions.Deny:
			a.reply(q, denied)
		default:
			a.startPrompt(q)
		}
	}
}

// askNow puts a question to a concurrent prompter at once, unless the rules
// settle it by now.
func (a *gateActor) askNow(q *question) {
	switch decision, denied := permissions.Check(a.effective(), q.ask.tool); decision {
	case permissions.Allow:
		a.reply(q, nil)
	case permissions.Deny:
		a.reply(q, denied)
	default:
		a.open[q] = struct{}{}
		a.startPrompt(q)
	}
}

// effective is the store's configuration plus the unsaved "allow always"
// answers.
func (a *gateActor) effective() messages.Config {
	cfg := a.store.Current()
	if len(a.kept.sessionAllow) > 0 {
		cfg.Allow = append(slices.Clip(cfg.Allow), a.kept.sessionAllow...)
	}
	return cfg
}

// startPrompt asks the person on a goroutine of its own. The prompt's
// context ends with the asker's and with the gate; a Prompter that panics
// fails this question only.
func (a *gateActor) startPrompt(q *question) {
	ctx, cancel := context.WithCancel(q.ask.ctx)
	stopWithGate := context.AfterFunc(a.lifetime, cancel)
	q.cancel = func() { stopWithGate(); cancel() }
	if _, open := a.open[q]; !open {
		a.current = q
	}
	system, self := a.system, a.self
	var hints toolpool.Annotations
	if a.hints != nil {
		hints = a.hints(q.ask.tool)
	}
	question := permissions.NewQuestion(a.effective(), q.ask.tool, q.ask.args, hints)
	a.work.Add(1)
	go func() {
		defer a.work.Done()
		finished := &promptFinished{q: q}
		defer func() {
			if p := recover(); p != nil {
				finished.err = errPromptPanicked{value: p}
			}
			system.Root.Send(self, finished)
		}()
		finished.answer, finished.err = q.prompter.Ask(ctx, question)
	}()
}

func (a *gateActor) finishPrompt(msg *promptFinished) {
	q := msg.q
	if _, open := a.open[q]; open {
		delete(a.open, q)
	} else if q == a.current {
		a.current = nil
	} else {
		return
	}
	q.cancel()
	if q.answered {
		return
	}
	tool := q.ask.tool
	switch {
	case q.ask.ctx.Err() != nil:
		a.reply(q, q.ask.ctx.Err())
	case msg.err != nil:
		if _, panicked := msg.err.(errPromptPanicked); panicked {
			a.logger.Error().Err(msg.err).Str("tool", tool).Msg("permission prompt failed")
		}
		a.reply(q, &permissions.PromptError{Tool: tool, Err: msg.err})
	case msg.answer.Kind == permissions.AllowOnce:
		a.reply(q, nil)
	case msg.answer.Kind == permissions.AllowAlways:
		if !slices.Contains(a.kept.sessionAllow, tool) {
			a.kept.sessionAllow = append(a.kept.sessionAllow, tool)
			a.save(tool)
		}
		a.reply(q, nil)
	default:
		a.reply(q, permissions.Rejected(tool, msg.answer))
	}
}

// save persists an "allow always" rule off the actor's goroutine.
func (a *gateActor) save(rule string) {
	system, self, lifetime := a.system, a.self, a.lifetime
	a.work.Add(1)
	go func() {
		defer a.work.Done()
		saved := &ruleSaved{rule: rule}
		defer func() {
			if p := recover(); p != nil {
				saved.err = fmt.Errorf("saving the rule panicked: %v", p)
			}
			system.Root.Send(self, saved)
		}()
		saved.err = a.store.AllowAlways(lifetime, rule)
	}()
}

// finishSave forgets a session rule once the store has it, so a person who
// later deletes the rule from the settings is asked again.
func (a *gateActor) finishSave(msg *ruleSaved) {
	if msg.err != nil {
		a.logger.Warn().Err(msg.err).Str("rule", msg.rule).
			Msg("allow-always rule not saved; it holds for this session only")
		return
	}
	a.kept.sessionAllow = slices.DeleteFunc(a.kept.sessionAllow, func(r string) bool { return r == msg.rule })
}

// withdrawn drops a question whose asker gave up: from the queue, or off
// the screen (its prompt's context has ended with the asker's; the next
// prompt starts when the Prompter has returned).
func (a *gateActor) withdrawn(q *question) {
	if _, open := a.open[q]; open || a.current == q {
		a.reply(q, q.ask.ctx.Err())
		return
	}
	if i := slices.Index(a.queue, q); i >= 0 {
		a.queue = slices.Delete(a.queue, i, i+1)
		a.reply(q, q.ask.ctx.Err())
	}
}

func (a *gateActor) reply(q *question, err error) {
	if q.answered {
		return
	}
	q.answered = true
	q.withdraw()
	if q.replyTo != nil {
		a.system.Root.Send(q.replyTo, &permissionDecided{err: err})
	}
}

// shutdown answers every open question with failed(q) and ends prompts and
// saves: on a stop, and on a restart after a crash.
func (a *gateActor) shutdown(failed func(*question) error) {
	a.stop()
	if q := a.current; q != nil {
		q.cancel()
		a.reply(q, failed(q))
		a.current = nil
	}
	for q := range a.open {
		q.cancel()
		a.reply(q, failed(q))
	}
	clear(a.open)
	for _, q := range a.queue {
		a.reply(q, failed(q))
	}
	a.queue = nil
}
