package actors

import "github.com/mcpexec/mcpexec/sandbox"

// The exec actor's protocol. One exec actor serves one Exec call; its child,
// the sandbox actor, runs the script on one worker. These messages stay in
// the process: they carry the run's context and continuation.

// callMade tells the exec actor that the script made a nested call, as it
// happens (including calls the worker refused over the cap), so the live
// result summary can follow (SUM-4).
type callMade struct {
	name string
}

// A *sandbox.Call is a nested call on its way to the funnel: the sandbox
// actor's worker hands it to the exec actor, which starts it and answers it
// (sandbox.Call.Answer).

// scriptFinished carries the sandbox actor's outcome to the exec actor:
// every way a run ends, including timeout, crash and abort, is a Result.
type scriptFinished struct {
	result sandbox.Result
}
