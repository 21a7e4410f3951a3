// Package actors holds the actors that own mcpexec's long-lived state and
// its ordering: the pool, the catalog broadcaster, exec runs and their
// sandboxes. Each actor's file reads top to bottom: its state, its messages
// (in package messages), its Receive. The logic an actor applies lives in
// plain functions of its own package (pool, catalog, sandbox), tested there.
package actors
