package actors

import "github.com/mcpexec/mcpexec/sandbox"

// The exec actor's protocol. One exec actor serves one Exec call; its child,
// the sandbox actor, runs the script on one worker.

// CallMade tells the exec actor that the script made a nested call, as it
// happens, so the live result summary can follow (SUM-4).
type CallMade struct {
	Name string
}

// ScriptFinished carries the sandbox actor's outcome to the exec actor:
// every way a run ends, including timeout, crash and abort, is a Result.
type ScriptFinished struct {
	Result sandbox.Result
}
