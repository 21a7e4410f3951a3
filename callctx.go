// Values a caller attaches to the context of one call: who answers its
// permission questions, who watches its console and its servers' progress.

package mcpexec

import (
	"context"

	"github.com/mcpexec/mcpexec/permissions"
	"github.com/mcpexec/mcpexec/pool"
)

// WithPrompter returns ctx carrying p: the permission questions of the calls
// made under ctx (an Exec run's nested calls, a CallFlat) go to p instead of
// Options.Prompter. A server with several clients uses it to ask the person
// whose request made the call.
func WithPrompter(ctx context.Context, p permissions.Prompter) context.Context {
	return permissions.WithPrompter(ctx, p)
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
