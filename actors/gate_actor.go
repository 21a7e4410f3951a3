package actors

import (
	"context"
	"slices"
	"sync"

	"github.com/asynkron/protoactor-go/actor"
	"github.com/rs/zerolog"

	"github.com/mcpexec/mcpexec/messages"
	"github.com/mcpexec/mcpexec/permissions"
)

// gateActor owns what asking needs an order for: the queue of questions, the
// one prompt on screen, and the "allow always" answers of this session that
// are not yet in the settings.
type gateActor struct {
	system   *actor.ActorSystem
	self     *actor.PID
	store    permissions.RuleStore
	prompter permissions.Prompter
	logger   zerolog.Logger
	work     *sync.WaitGroup

	// lifetime ends when the actor stops; prompts and saves run under it.
	lifetime context.Context
	stop     context.CancelFunc

	queue   []*question
	current *question
	// sessionAllow holds leaf rules the person allowed always whose save has
	// not been confirmed; they count as allow rules meanwhile.
	sessionAllow []string
}

// question is one AskPermission waiting for an answer.
type question struct {
	ask     *AskPermission
	replyTo *actor.PID
	// cancel ends the prompt's context while the question is on screen.
	cancel context.CancelFunc
	// answered is set once the asker got its PermissionDecided.
	answered bool
}

// promptFinished is the Prompter's answer, sent by the prompt goroutine.
type promptFinished struct {
	id     uint64
	answer permissions.Answer
	err    error
}

// queuedQuery asks for the number of waiting questions (reply: int).
type queuedQuery struct{}

// ruleSaved is the RuleStore's answer to an "allow always" save.
type ruleSaved struct {
	rule string
	err  error
}

func newGateActor(system *actor.ActorSystem, store permissions.RuleStore, prompter permissions.Prompter, logger zerolog.Logger, work *sync.WaitGroup) *gateActor {
	lifetime, stop := context.WithCancel(context.Background())
	return &gateActor{
		system: system, store: store, prompter: prompter, logger: logger, work: work,
		lifetime: lifetime, stop: stop,
	}
}

func (a *gateActor) Receive(c actor.Context) {
	switch msg := c.Message().(type) {
	case *actor.Started:
		a.self = c.Self()
	case *AskPermission:
		a.queue = append(a.queue, &question{ask: msg, replyTo: c.Sender()})
		a.next()
	case *CancelAsk:
		a.cancel(msg.ID)
	case *promptFinished:
		a.finishPrompt(msg)
		a.next()
	case *ruleSaved:
		a.finishSave(msg)
	case queuedQuery:
		c.Respond(len(a.queue))
	case *actor.Stopping:
		a.shutdown()
	}
}

// next puts the first question the rules do not settle to the person, unless
// a prompt is already on screen. Each question is decided again when its turn
// comes: an earlier "allow always" or a settings change may settle it.
func (a *gateActor) next() {
	for a.current == nil && len(a.queue) > 0 {
		q := a.queue[0]
		a.queue = a.queue[1:]
		switch decision, denied := permissions.Check(a.effective(), q.ask.Tool); decision {
		case permissions.Allow:
			a.reply(q, nil)
		case permissions.Deny:
			a.reply(q, denied)
		default:
			a.startPrompt(q)
		}
	}
}

// effective is the store's configuration plus the unsaved "allow always"
// answers.
func (a *gateActor) effective() messages.Config {
	cfg := a.store.Current()
	if len(a.sessionAllow) > 0 {
		cfg.Allow = append(slices.Clip(cfg.Allow), a.sessionAllow...)
	}
	return cfg
}

func (a *gateActor) startPrompt(q *question) {
	ctx, cancel := context.WithCancel(a.lifetime)
	q.cancel = cancel
	a.current = q
	self, id := a.self, q.ask.ID
	question := permissions.Question{Tool: q.ask.Tool, Args: q.ask.Args}
	a.work.Add(1)
	go func() {
		defer a.work.Done()
		answer, err := a.prompter.Ask(ctx, question)
		a.system.Root.Send(self, &promptFinished{id: id, answer: answer, err: err})
	}()
}

func (a *gateActor) finishPrompt(msg *promptFinished) {
	q := a.current
	if q == nil || q.ask.ID != msg.id {
		return
	}
	a.current = nil
	q.cancel()
	if q.answered {
		return
	}
	tool := q.ask.Tool
	switch {
	case msg.err != nil:
		a.reply(q, &permissions.PromptError{Tool: tool, Err: msg.err})
	case msg.answer.Kind == permissions.AllowOnce:
		a.reply(q, nil)
	case msg.answer.Kind == permissions.AllowAlways:
		if !slices.Contains(a.sessionAllow, tool) {
			a.sessionAllow = append(a.sessionAllow, tool)
			a.save(tool)
		}
		a.reply(q, nil)
	default:
		a.reply(q, permissions.UserDenied(tool, msg.answer.Reason))
	}
}

// save persists an "allow always" rule off the actor's goroutine.
func (a *gateActor) save(rule string) {
	self := a.self
	a.work.Add(1)
	go func() {
		defer a.work.Done()
		err := a.store.AllowAlways(a.lifetime, rule)
		a.system.Root.Send(self, &ruleSaved{rule: rule, err: err})
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
	a.sessionAllow = slices.DeleteFunc(a.sessionAllow, func(r string) bool { return r == msg.rule })
}

// cancel withdraws question id: dropped from the queue, or its prompt
// cancelled (the next prompt starts when the Prompter has returned).
func (a *gateActor) cancel(id uint64) {
	if q := a.current; q != nil && q.ask.ID == id {
		q.cancel()
		a.reply(q, context.Canceled)
		return
	}
	for i, q := range a.queue {
		if q.ask.ID == id {
			a.queue = slices.Delete(a.queue, i, i+1)
			a.reply(q, context.Canceled)
			return
		}
	}
}

func (a *gateActor) reply(q *question, err error) {
	if q.answered {
		return
	}
	q.answered = true
	if q.replyTo != nil {
		a.system.Root.Send(q.replyTo, &PermissionDecided{ID: q.ask.ID, Err: err})
	}
}

// shutdown answers every open question and ends prompts and saves.
func (a *gateActor) shutdown() {
	a.stop()
	if a.current != nil {
		a.reply(a.current, permissions.ErrGateStopped)
	}
	for _, q := range a.queue {
		a.reply(q, permissions.ErrGateStopped)
	}
	a.queue = nil
}
