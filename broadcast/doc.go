// Package broadcast decides what an embedding daemon appends to its
// conversation so the model knows the current MCP tool pool, without ever
// touching tools[] (which sits in the cached prompt prefix).
//
// Two channels share one shape: append-only meta messages at the tail of the
// history, each carrying a marker that records what it told the model.
//
//   - The catalog channel (Catalog) sends the full catalog, a namespace-level
//     diff, the "no MCP tools are available now" notice or the "catalog no
//     longer applies" notice, and only when what the model should know has
//     changed.
//   - The server-instructions channel (Instructions) sends the instructions
//     an MCP server returned from initialize, once per server and text.
//
// The markers in the history are the only record of what was broadcast:
// both decisions are pure functions of the history, the current pool and
// whether Exec is declared, and keep nothing between calls. Compaction,
// rewinds, restarts and several daemons sharing one conversation store
// therefore all stay correct; when a message the model relied on disappears
// from the history, the next decision sends it again.
//
// A marker is a structured field stored beside the message text (Message's
// CatalogMarker and InstructionsMarker fields), not a line in the text: the
// model never pays tokens for bookkeeping it cannot use, third-party text
// (tool descriptions, server instructions) can never forge or break one, and
// the text stays exactly the bytes the model reads. A daemon persists the
// fields with the message; they have a stable JSON form.
//
// The daemon implements Channel over its history. A nil Channel or one that
// reports ErrNoChannel means "there is no channel here": both decisions are
// then silent, which is not the same as an empty history.
package broadcast
