// Package pool owns the connections to the user's MCP servers and is the one
// place the MCP tool pool is built and every MCP tool call is executed.
//
// Three pieces, each usable on its own:
//
//   - [Build] is the pool constructor: the tools of the connected servers
//     minus what an [Exclude] removes (permission deny rules and
//     disallowedTools), as an immutable [Snapshot]. Flat declarations, the
//     catalog, search and the sandbox's reachable set are all derived from a
//     Snapshot, so none of them can disagree about what the pool is.
//   - [Manager] connects the servers of a configuration (stdio in its own
//     process group, streamable HTTP, SSE, or any [mcp.Transport]), lists
//     their tools with pagination, refreshes a server on
//     notifications/tools/list_changed, reconnects with capped exponential
//     backoff, and publishes a new Snapshot on every change.
//   - [Manager.Call] is the funnel: the one entry point for flat and nested
//     calls. It checks the [Gate], sends tools/call with the arguments exactly
//     as given, and projects the reply with [Project].
//
// Tool names are mcp__<server>__<tool>. The grouping key is [GroupKey],
// strings.Split(name, "__")[1]; routing never splits a name, it looks the
// full name up in the Snapshot, so a server whose name contains "__" still
// routes correctly.
package pool
