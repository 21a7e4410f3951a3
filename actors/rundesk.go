package actors

import (
	"context"

	"github.com/asynkron/protoactor-go/actor"

	"github.com/mcpexec/mcpexec/elicit"
	"github.com/mcpexec/mcpexec/permissions"
)

// runDesk is where the questions of a run that parks go: the Prompter and
// the Elicitor of its nested calls. A question is handed to the run's exec
// actor, which holds it until an answer arrives (Resume) or the run ends;
// the nested call that asked waits meanwhile, exactly as it would for a
// person at a terminal, so nothing is replayed when the answer comes. It
// holds any number of questions at once: the gate puts each to it as it
// comes.
type runDesk struct {
	system *actor.ActorSystem
	exec   *actor.PID
}

var (
	_ permissions.ConcurrentPrompter = (*runDesk)(nil)
	_ elicit.Elicitor                = (*runDesk)(nil)
)

// HoldsManyQuestions implements permissions.ConcurrentPrompter.
func (*runDesk) HoldsManyQuestions() {}

// Ask implements permissions.Prompter.
func (d *runDesk) Ask(ctx context.Context, q permissions.Question) (permissions.Answer, error) {
	a, err := d.raise(ctx, Question{Permission: &q})
	return a.Permission, err
}

// Elicit implements elicit.Elicitor.
func (d *runDesk) Elicit(ctx context.Context, r elicit.Request) (elicit.Response, error) {
	a, err := d.raise(ctx, Question{Elicitation: &r})
	return a.Elicitation, err
}

// raise hands q to the run and waits for its answer, or for ctx to end (the
// call that asked ended: its run was cancelled, expired or finished).
func (d *runDesk) raise(ctx context.Context, q Question) (Answer, error) {
	raised := &questionRaised{q: q, call: ctx.Value(nestedCallKey{}), reply: make(chan Answer, 1)}
	d.tell(raised)
	select {
	case a := <-raised.reply:
		return a, nil
	case <-ctx.Done():
		d.tell(&questionDropped{raised: raised})
		return Answer{}, ctx.Err()
	}
}

func (d *runDesk) tell(msg any) { d.system.Root.Send(d.exec, msg) }

// nestedCallKey marks the context of one nested call of a run that parks,
// so that the run knows which of its calls a question holds up.
type nestedCallKey struct{}
