// Package state keeps what a conversation's scripts carry from one Exec to
// the next: the values they store() and load() by key, and the return
// values too long for the model's text, kept by reference.
//
// A State is one conversation's: a gateway makes one per MCP session, an
// embedder one per agent and history, the command-line tool one per --state
// directory. Values are JSON, stored as the script's value crossed the
// sandbox boundary and handed back as a tool result is (a fresh copy, plain
// objects with a null prototype).
//
// Both halves are bounded. The keys a script stores may take at most
// Limits.MaxBytes in all (keys and values): a store past it fails with an
// error that names the bound, and the keys stored before stay. The results
// kept by reference may take at most Limits.MaxResultBytes: a new one drops
// the oldest until it fits, and says which it dropped. A result is named by
// an id ("r1", "r2", ... in the order the conversation made them) and by
// the URI mcpexec://results/<id>; load() reaches it by either.
//
// Where the entries live is a Backend: in memory (NewMemory), in a
// directory (OpenDir), or anywhere an embedder keeps its conversations (Open
// with a Backend of its own). The package depends on the standard library
// alone.
package state
