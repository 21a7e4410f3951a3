package test262

import "context"

// Outcome is how one script ended.
type Outcome struct {
	// Phase is empty when the script completed, "parse" when it did not
	// parse (an early error included), "runtime" when it threw, ran out
	// of time, or its engine failed while running it.
	Phase string
	// Type is the constructor name of what was thrown (SyntaxError,
	// Test262Error), empty when that was not an object with one.
	Type string
	// Message says what went wrong, for the failure report.
	Message string
	// Printed is what the script printed, a line per print call.
	Printed string
}

// Engine runs test scripts. Each Run is a fresh realm with print and
// $262 (global, evalScript, detachArrayBuffer; gc and createRealm throw)
// that evaluates the script as global code and lets its jobs and timers
// drain, within Timeout. Run is called from several goroutines at once.
type Engine interface {
	Run(ctx context.Context, script string) Outcome
	Close() error
}
