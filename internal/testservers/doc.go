// Package testservers provides MCP servers for tests:
//
//   - Behaviour, built on the official Go SDK: one tool per reply shape
//     (text, structured, image only, empty, isError, protocol error), a tool
//     that hangs until cancelled, tools that change the tool list, and, in a
//     subprocess, tools that crash the process, report its pid, spawn a
//     grandchild, read its environment or print noise on stdout.
//   - Replay, a hand-written JSON-RPC server that answers tools/list with
//     recorded entries byte for byte (the SDK's server refuses schemas real
//     servers ship), with pagination, list_changed floods, malformed or
//     missing replies.
//   - Real stdio subprocesses: the test binary re-executes itself as a
//     server (call MaybeServe first thing in TestMain; StdioCommand,
//     NoisyCommand and StubbornCommand give the command lines), and
//     Survivors tells TestMain whether any of them outlived the run.
package testservers
