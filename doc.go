// Package mcpexec folds a pool of MCP tools into one tool, Exec, for agent
// daemons that embed it.
//
// The model writes a JavaScript script that calls
// await tools.mcp__server__tool({...}) as often as it needs in one turn. The
// script runs in a locked-down goja sandbox in a worker process, under a
// wall-clock budget that really terminates, and every nested call passes the
// same permission gate and execution funnel as a direct call. The model
// learns the pool from a catalog appended to the conversation as a meta
// message only when the pool changes, so the cached prompt prefix (tools[])
// is never invalidated. An enableExec switch in the settings file (with a
// remote override and hot reload) falls back to flat MCP declarations.
//
// A daemon asks a System four things: Declarations for each model request's
// tools[], Broadcast for the meta messages to append to its history, CallFlat
// for an MCP tool called directly (under the name Declarations gave it: an
// alias for a name the model APIs reject), and Exec for an Exec call. Exec always
// returns a result, never a Go error: a script that throws, runs over its
// budget, exhausts memory or is aborted is a failure result the model can act
// on.
//
// The binary that embeds mcpexec must call MaybeRunWorker first thing in
// main: scripts run in re-executed copies of it.
package mcpexec
