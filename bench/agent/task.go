package agent

import "context"

// Task is one realistic request, with the fixed trajectory a model would
// take to do it in each mode and the check of the outcome.
type Task struct {
	Name string
	// Prompt is the user's request, part of every turn's context.
	Prompt string
	// Servers is the task's pool: a small pool is part of what is measured.
	Servers []Server
	// Seed lays out the servers' state before either mode runs.
	Seed func(ws *Workspace) error
	// Flat calls the servers' tools one by one, reading each result before
	// the next call, and returns the final answer.
	Flat func(a *Agent) (string, error)
	// Code does the task in one or two Exec scripts.
	Code func(a *Agent) (string, error)
	// Check says what is wrong with the servers' final state or the answer,
	// or nil when the task is done.
	Check func(ctx context.Context, ws *Workspace, answer string) error
}
