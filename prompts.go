package mcpexec

import (
	"context"
	"sync"

	"github.com/mcpexec/mcpexec/permissions"
)

// prompterKey is the context key of WithPrompter.
type prompterKey struct{}

// WithPrompter returns ctx carrying p: the permission questions of the calls
// made under ctx (an Exec run's nested calls, a CallFlat) go to p instead of
// Options.Prompter. A server with several clients uses it to ask the person
// whose request made the call.
func WithPrompter(ctx context.Context, p permissions.Prompter) context.Context {
	return context.WithValue(ctx, prompterKey{}, p)
}

func prompterFrom(ctx context.Context) permissions.Prompter {
	p, _ := ctx.Value(prompterKey{}).(permissions.Prompter)
	return p
}

// callPrompters is the Prompter the gate asks: it hands each question to the
// prompter of the call it is about (registered while the call runs), or to
// the System's own.
type callPrompters struct {
	fallback permissions.Prompter

	mu     sync.Mutex
	byCall map[uint64]permissions.Prompter
}

func (r *callPrompters) Ask(ctx context.Context, q permissions.Question) (permissions.Answer, error) {
	r.mu.Lock()
	p, ok := r.byCall[q.Call]
	r.mu.Unlock()
	if !ok || q.Call == 0 {
		p = r.fallback
	}
	return p.Ask(ctx, q)
}

// register routes the questions about call id to p until the returned
// function is called.
func (r *callPrompters) register(id uint64, p permissions.Prompter) (unregister func()) {
	r.mu.Lock()
	defer r.mu.Unlock()
	if r.byCall == nil {
		r.byCall = map[uint64]permissions.Prompter{}
	}
	r.byCall[id] = p
	return func() {
		r.mu.Lock()
		defer r.mu.Unlock()
		delete(r.byCall, id)
	}
}
