// Package actors is mcpexec's actor runtime: the actors that own its
// long-lived state and its ordering, and what each does when it fails.
//
//   - The pool actor (Pool) owns the connections to the MCP servers and the
//     snapshot they make; it follows the configuration into the pool's
//     exclusion and tells subscribers of every new pool. Reading the pool
//     is an atomic load and a call runs the funnel on the caller's
//     goroutine: neither needs the order a mailbox gives.
//   - The permission gate actor (Gate) owns the queue of questions put to
//     the person, one at a time. Calls the rules settle never reach it.
//   - The catalog broadcaster actor (Broadcaster) owns rendering and the
//     views of the current pool, one per agent tool set; it renders the
//     views in use again when the pool moves, before the next request.
//   - One exec actor per Exec call (Execs) owns the run: its nested calls
//     (counted for the live summary, started on the funnel), the status
//     lines of the tasks they run as, its answer, and the sandbox actor it
//     supervises, which runs the script on one worker process. A run that
//     parks also has its callers there, and its watchers, to which it
//     pushes every change.
//
// The Funnel is the front door of a session's calls, where the root
// package delegates them: it decides whether an Exec call may run (its
// arguments, a deny rule on Exec, an MCP manager, the enableExec switch and
// the agent's tool set) before any actor is spawned, runs flat calls, gives
// each exec actor the nested-call host that takes its calls through the
// gate and the pool, and converts the pool's results into what a script or
// the model receives.
//
// The config actor lives in package hotreload, beside the files it
// watches. Every request to an actor goes through one typed helper
// (internal/ask) bounded by the caller's context; supervision.go states
// each actor's strategy, and every actor has a test that makes it panic
// mid-call.
//
// # A nested call's path
//
// A script's await tools.mcp__s__t({...}) in a worker process:
//
//  1. the worker writes a call frame to its pipe (process boundary);
//  2. the host's reader goroutine for that worker checks the call against
//     the run (reachable tool, call cap) and hands it to the exec actor's
//     mailbox (hand-off);
//  3. the exec actor starts it on a goroutine of its own (hand-off), so a
//     slow tool never holds up the mailbox; the live summary counts it
//     beside the path;
//  4. that goroutine runs the funnel (nestedCalls, Funnel.Call, Pool.Call):
//     the pool's lookup, the permission gate (inline when a rule settles
//     the call; the gate actor only when the person must be asked),
//     tools/call through the MCP SDK (whose transport and connection
//     readers hand the reply back: two hand-offs), the projection of the
//     reply and its conversion for the script;
//  5. the same goroutine writes the result frame to the worker, whose
//     connection reader hands it to the script's event loop (hand-off).
//
// With telemetry on, the exec actor's call goroutine opens the nested
// call's span (a child of the run's) before step 4 and ends it, with the
// call audit's record, before step 5 answers the worker; the permission
// gate and the pool's MCP request add to it. With telemetry off, those are
// nil checks on the same goroutine: no hop is added.
//
// That is five goroutine hand-offs in all (two here, two in the SDK, one
// in the worker) and seventeen hops; it was eight hand-offs and about
// twenty-two hops before the exec actor took the path over. ARCHITECTURE.md
// at the repository's root walks the path hop by hop.
//
// # On a sandbox node
//
// With a Placement (package nodes), the sandbox actor runs on another
// machine and the exec actor stays here, with the funnel. The same call
// then goes: worker pipe (process boundary); the node's reader goroutine,
// which hands a NestedCall to protoactor's endpoint writer (hand-off);
// gRPC (machine boundary); the daemon's endpoint reader, which delivers it
// to the exec actor's mailbox (hand-off); the exec actor checks it against
// the run's tool set and cap (the node is untrusted) and starts it on a
// goroutine of its own (hand-off), which runs the funnel and hands the
// CallAnswer to the endpoint writer (hand-off); gRPC back; the node's
// endpoint reader and the node's sandbox actor (hand-off), which writes the
// result frame to the worker. Five hand-offs and two machine boundaries
// besides gRPC's own goroutines; a run here pays none of it, and builds no
// protobuf message.
package actors
