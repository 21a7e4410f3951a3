// Package sandbox runs one model-written script in a fresh, locked-down goja
// runtime.
//
// A run is the body of an async function. The script sees exactly two
// globals, tools and console: tools.mcp__server__tool(args) is a nested call
// that the run forwards to its Host as plain JSON, and
// tools["$codemode"].search({ query }) searches the pool. Every function the
// script can reach is created in the run's own runtime, every code-generation
// path throws EvalError, and values cross the boundary only as plain data:
// JSON in, JSON out, built afresh on each side.
//
// The run owns its runtime on one goroutine with a small event loop: host
// calls execute on their own goroutines and their results are handed back to
// the loop, which settles the script's promises. A wall-clock budget,
// cancellation of the caller's context, and a loop that can make no further
// progress all end the run with a failure Result; Run never panics and never
// returns a Go error for anything the script does.
//
// Run returns when its budget expires even if the runtime is stuck inside a
// native built-in that ignores interruption (a huge String.prototype.repeat,
// say); such a goroutine finishes in the background. Scripts from untrusted
// sources should therefore run in a worker process, where the same deadline
// kills the process instead.
package sandbox
