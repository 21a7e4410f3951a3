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
//   - [Manager] connects the servers of a configuration ([ParseConfig] reads
//     the common mcpServers file) and keeps them connected: it lists their
//     tools with pagination, refreshes a server on
//     notifications/tools/list_changed (coalescing floods), withdraws a
//     server's tools when it fails and reconnects it with capped exponential
//     [Backoff], and publishes a new Snapshot on every change to whoever
//     called [Manager.Subscribe].
//   - [Manager.Call] is the funnel: the one entry point for flat and nested
//     calls. It checks the [Gate], sends tools/call with the arguments exactly
//     as given, and turns the reply into a [Result] with [Project].
//
// # Names
//
// Tool names are mcp__<server>__<tool>. The grouping key is [GroupKey],
// strings.Split(name, "__")[1]. Routing never splits a name: it looks the
// full name up in the Snapshot, so a server whose name contains "__" routes
// correctly. Two servers producing one full name make it ambiguous; it is left
// out of the pool ([Snapshot.Conflicts]).
//
// # Servers
//
// A stdio server runs in its own process group with the daemon's environment
// plus its configured env (a configured variable wins). Stopping it closes its
// stdin, then after a grace sends SIGTERM to the group, then SIGKILL; a server
// that exits on its own has whatever it left in its group killed, so launchers
// such as npx leave no orphans. Lines a stdio server prints on stdout that
// cannot be JSON-RPC (start-up banners) are logged and dropped: the SDK
// would otherwise close the connection on the first one. url servers use
// the SDK's streamable HTTP transport (or SSE with "type": "sse"), with the
// configured headers. With [Options.OAuth] set, a streamable HTTP server
// that answers 401 is authorized with OAuth (package oauth): while a person
// is asked it is [StateAuthorizationRequired], its connect timeout
// suspended, and the other servers work meanwhile. A connected server is pinged now and then, and at once
// after a call fails in transport: over HTTP nothing else reveals a server
// that went away. One that does not answer leaves the pool until it
// reconnects.
//
// Schemas and structured results are kept as the server wrote them (compact
// JSON, key order intact): the SDK client decodes both into maps, so the pool
// records the raw tools/list and tools/call replies on stdio, in-memory and
// streamable HTTP connections ([Tool.InputSchema], [Result.JSON]). Over the
// legacy SSE transport it falls back to the SDK's decoding (same JSON, keys
// sorted).
//
// The Go SDK client does not validate tool schemas: a tools/list whose
// inputSchemas are only {"$schema": ...} (which the TypeScript SDK rejects
// outright) is accepted and kept as listed. Tools the SDK itself filters out
// (invalid x-mcp-header annotations) are left out; a reply the SDK cannot
// decode at all fails that server alone.
//
// A message from a server is bounded by its MaxReplyBytes (64 MB unless
// configured). The pool enforces the bound below the SDK, whose clients
// would otherwise close a stdio connection on a long line and fail an HTTP
// connection on a large SSE event (and read a JSON body whole, however
// large): a stdio line, an SSE event or a JSON body over the bound is read
// to its end without being kept, and the SDK gets in its place a JSON-RPC
// error answering the same request id, so that call alone fails
// ([KindReplyTooLarge], naming the size) and the connection stays. The
// SDK's own limits sit just above the pool's, as a backstop.
//
// Each server's initialize instructions are kept per server
// ([Snapshot.Instructions]) for the host's own instructions channel.
package pool
