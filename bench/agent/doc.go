// Package agent is a reproducible benchmark of one Exec against many tool
// calls, measured end to end through `mcpexec serve` and real npm MCP servers.
//
// Each task is done twice by a scripted agent whose trajectory is fixed (no
// language model): flat, with Exec switched off in the settings, one tool call
// per model turn and every result appended to the context; and in code mode,
// one or two Exec scripts. A run reports the model turns, the context tokens a
// model would read summed over its turns (the tool declarations, the
// gateway's instructions, the task, then every call and result so far),
// counted with a real tokenizer, the wall time of the tool calls, and whether
// the servers' final state (files on disk, the memory server's graph) or the
// answer is right.
//
// The driver is a client of the built `mcpexec` binary only: it writes a
// servers file and a settings file, starts `mcpexec serve` over stdio and
// talks to it with the go-sdk client, as any MCP client would.
package agent
