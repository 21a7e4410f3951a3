// Package gateway serves a running mcpexec System as an MCP server, so any
// MCP client (a desktop assistant, an editor, a coding agent) gets Exec: the
// client is pointed at the gateway instead of at its servers, and the whole
// pool becomes one tool.
//
// An MCP client owns its conversation, so the catalog cannot be appended to
// it as a meta message. The gateway puts it where clients show it to the
// model: Exec's description is the constant text plus the current catalog
// (the same renderer, budget, truncation and search section) and the
// servers' usage instructions, and the server sends
// notifications/tools/list_changed when, and only when, those bytes change.
// With Exec switched off the pool's tools are served flat, as the library
// declares them.
//
// The gateway speaks protocol 2026-07-28 and 2025-11-25 and older, at one
// URL. A nested call that needs the person's approval is put to the client
// whose script made it, when that client supports elicitation; otherwise
// the call is refused with guidance the model can pass on. Up to 2025-11-25
// the question is an elicitation request within the call. From 2026-07-28
// the run parks (its worker keeps it, its budget clock stops) and the call
// returns input_required with every question open (the questions of calls
// made together come together) and a requestState, MAC'd and bound to the
// run and the client; the retry with the answers resumes the same run, so
// nothing is replayed. A
// progress token on the Exec call gets one progress notification per nested
// call, carrying the live summary; cancelling the request aborts the script.
// A question a pool server asks during a nested call (its own elicitation)
// is passed on to that same client, its schema intact and its answer
// returned to the server unchanged.
//
// An Exec result's _meta carries the call audit (AuditMetaKey), which
// clients do not show to the model. With a TracerProvider on the System, a
// client's trace context (traceparent in the request's _meta, or else its
// HTTP header) parents the Exec span, which is then the tools/call server
// span.
//
// Over HTTP (streamable), the gateway validates Host and Origin against DNS
// rebinding, can require a bearer token, and shares one pool among every
// client; each client's permission questions and cancellations stay its
// own. Clients of 2025-11-25 and older get sessions; clients of 2026-07-28
// are served statelessly (the SDK validates their Mcp-Method and Mcp-Name
// headers and marks list results cacheable), and the client whose state a
// script reaches is then named by its credentials and clientInfo name.
//
// Several gateways can serve as replicas behind a load balancer
// (JoinReplicas, with Options.StateKey shared by all): a requestState names
// the replica holding its run, and a retry that reaches another replica is
// forwarded to that one over the replica mesh (package replicas), which
// resumes the run and answers through the replica the client reached.
package gateway
