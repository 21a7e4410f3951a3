// Values a caller attaches to the context of one call: who answers its
// permission questions and its servers' questions, who watches its console and its servers' progress,
// and the conversation state its script reaches.

package mcpexec

import (
	"context"

	"github.com/mcpexec/mcpexec/elicit"
	"github.com/mcpexec/mcpexec/permissions"
	"github.com/mcpexec/mcpexec/pool"
	"github.com/mcpexec/mcpexec/state"
)

// WithPrompter returns ctx carrying p: the permission questions of the calls
// made under ctx (an Exec run's nested calls, a CallFlat) go to p instead of
// Options.Prompter. A server with several clients uses it to ask the person
// whose request made the call.
func WithPrompter(ctx context.Context, p permissions.Prompter) context.Context {
	return permissions.WithPrompter(ctx, p)
}

// WithElicitor returns ctx carrying e: the questions servers ask during the
// calls made under ctx (an Exec run's nested calls, a CallFlat) go to e
// instead of Options.Elicitor. A server with several clients uses it to
// pass a server's question on to the client whose request made the call. A
// run started with StartRun keeps its questions itself instead.
func WithElicitor(ctx context.Context, e elicit.Elicitor) context.Context {
	return elicit.WithElicitor(ctx, e)
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

// stateKey is the context key of WithState.
type stateKey struct{}

// WithState returns ctx carrying st, the state of the conversation an Exec
// call made under ctx belongs to: its script's store(key, value) and
// load(key) reach st, and a return value too long for the model's text is
// kept in st by reference (load(id) in a later script returns it), beside
// the whole value in ExecResult.Stored. Keep one state per agent and
// history, made where the history is: state.NewMemory for a conversation
// held in memory, state.OpenDir for one on disk, state.Open over a Backend
// of your own (your database, beside the history). Without a state, store
// and load tell the script this session keeps none.
func WithState(ctx context.Context, st *state.State) context.Context {
	return context.WithValue(ctx, stateKey{}, st)
}

func stateFrom(ctx context.Context) *state.State {
	st, _ := ctx.Value(stateKey{}).(*state.State)
	return st
}
