package actors

import "encoding/json"

// AskPermission asks the permission gate actor to put a call to the person
// (through the host's Prompter) because no rule settles it. Prompts are
// serialised: the gate runs one at a time, in arrival order. The reply is a
// *PermissionDecided with the same ID. IDs must be unique per gate
// (permissions.Gate.Admit draws its own from a counter; an actor that asks
// directly must not share that gate with Admit callers, or must use IDs
// that cannot collide).
type AskPermission struct {
	ID   uint64
	Tool string
	Args json.RawMessage
}

// PermissionDecided answers AskPermission. Err is nil when the call may run;
// otherwise it says why not (a denial, a cancellation, a failed prompt).
type PermissionDecided struct {
	ID  uint64
	Err error
}

// CancelAsk withdraws the AskPermission with this ID: a queued question is
// dropped, a question on screen has its prompt cancelled. The asker still
// gets a PermissionDecided (with a cancellation error) if it has not had one.
type CancelAsk struct {
	ID uint64
}
