// Package actors holds the actors that own mcpexec's long-lived state and
// its ordering: the pool actor (the MCP connections and their snapshot),
// the permission gate actor (the queue of questions put to the person), and
// one exec actor per Exec call with the sandbox actor it supervises. The
// config actor lives in package hotreload, beside the files it watches.
//
// Each actor's file reads top to bottom: its state, its messages, its
// Receive. The logic an actor applies lives in plain functions of its own
// package (pool, permissions, sandbox), tested there.
package actors
