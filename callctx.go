// Values a caller attaches to the context of one call: who answers its
// permission questions, who watches its console and its servers' progress.

package mcpexec

import (
	"context"

	"github.com/mcpexec/mcpexec/permissions"
	"github.com/mcpexec/mcpexec/pool"
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

// callPrompters is the Prompter the gate asks. The gate asks with a context
// derived from the caller's, so the prompter the call was made under
// (WithPrompter) is found there; without one, the System's own answers.
type callPrompters struct {
	fallback permissions.Prompter
}

func (r *callPrompters) Ask(ctx context.Context, q permissions.Question) (permissions.Answer, error) {
	if p := prompterFrom(ctx); p != nil {
		return p.Ask(ctx, q)
	}
	return r.fallback.Ask(ctx, q)
}

// consoleKey is the context key of WithConsole.
type consoleKey struct{}

// WithConsole returns ctx carrying onLog: an Exec run under ctx hands it the
// script's console output as the script writes it (as far as the log cap
// keeps it), for a person to watch. The model's result is unchanged.
func WithConsole(ctx context.Context, onLog func(text string)) context.Context {
	return context.WithValue(ctx, consoleKey{}, onLog)
}

func consoleFrom(ctx context.Context) func(string) {
	f, _ := ctx.Value(consoleKey{}).(func(string))
	return f
}

// WithServerProgress returns ctx asking the servers of the calls made under
// it (an Exec run's nested calls, a CallFlat) for progress notifications,
// handed to onProgress as they arrive while the call runs, for a person to
// watch. The model's result is unchanged.
func WithServerProgress(ctx context.Context, onProgress func(pool.Progress)) context.Context {
	return pool.WithProgress(ctx, onProgress)
}
