// Package sandbox runs one model-written script in a fresh, locked-down goja
// runtime.
//
// A run is the body of an async function, in JavaScript or TypeScript. A
// script goja cannot run as written (TypeScript, async generators, for
// await) is first transformed by esbuild, which strips types and lowers
// what goja lacks; a source map carries error positions back to the script
// as written. Module syntax is refused in plain language. The transform runs
// where the run runs: in a worker process for untrusted scripts, in this
// process for a run started with Run directly (tests, trusted embedders).
//
// The script sees tools and console: tools.mcp__server__tool(args) is a
// nested call that the run forwards to its Host as plain JSON, and
// tools["$codemode"].search({ query }) searches the pool. Beside the
// standard built-ins it also sees the JavaScript platform of package
// jsplatform (the web globals that are safe in a sandbox, repairs of the
// engine's built-ins), installed in its realm with the run's timers, each
// part made the first time the script touches it. Every function the script can
// reach is created in the run's own runtime, every code-generation path
// throws EvalError, and values cross the boundary only as plain data: JSON
// in, JSON out, built afresh on each side. Errors the script catches speak
// JavaScript, never the engine's Go: a tool result, whose prototype is null,
// refuses conversion to text as Node words it, so do the sandbox's own
// functions for what they cannot convert, and JSON.parse fails on malformed
// text with V8's messages. Positions in errors and stacks are
// the script's own, as written.
//
// The run owns its runtime on one goroutine with a small event loop: host
// calls execute off that goroutine (a worker's calls as frames answered on
// its connection's reader, an in-process Host's on goroutines of their own)
// and their results are handed back to the loop, which settles the
// script's promises; timers hand their callbacks
// to the same loop and count as pending work until they fire or are cleared. A wall-clock budget,
// cancellation of the caller's context, and a loop that can make no further
// progress all end the run with a failure Result; Run never panics and never
// returns a Go error for anything the script does.
//
// Run returns when its budget expires even if the runtime is stuck inside a
// native built-in that ignores interruption (a huge String.prototype.repeat,
// say); such a goroutine finishes in the background. Scripts from untrusted
// sources should therefore run in a worker process, where the same deadline
// kills the process instead.
//
// A worker process speaks a framed protocol over a pair of pipes (see
// protocol.go and codec.go): the frames of a nested call are a few binary
// fields around the arguments' or value's JSON, the once-per-run frames are
// JSON. In a worker, host answers do not come back on goroutines of their
// own: the run's loop, while the script waits, reads the answer itself,
// which saves the thread wake-ups a hand-off costs (see hostframes.go). It
// sleeps in the runtime's netpoller; when an answer is due soon, and the
// machine has a CPU to spare, it first polls the pipe for an adaptive
// window, and so does the host's reader while a run goes on, so that a
// quick call finds the other side awake (see busywait.go). A script run
// again takes its program from a bounded cache (compilecache.go). On the
// host's side, a synchronous Host's call runs on the connection's reader
// and hands the reading on only when the call is slow (see inline.go).
package sandbox
