package actors

import (
	"context"
	"encoding/json"
)

// The gate actor's protocol. Only its handle, Gate, talks to it.

// askPermission puts a call to the person because no rule settles it.
// Questions are answered one at a time, in arrival order. The asker's
// context travels with the question: when it ends, the question is dropped
// from the queue or its prompt is cancelled. The reply is a
// *permissionDecided.
type askPermission struct {
	ctx  context.Context
	tool string
	args json.RawMessage
}

// permissionDecided answers askPermission: nil when the call may run,
// otherwise why not (a denial, a cancellation, a failed prompt).
type permissionDecided struct {
	err error
}

// questionsQuery asks how many questions wait behind the one on screen
// (reply: *questionsWaiting).
type questionsQuery struct{}

type questionsWaiting struct{ n int }
