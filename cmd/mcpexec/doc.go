// Command mcpexec folds a pool of MCP servers into one tool, Exec, for any
// MCP client: the model writes a JavaScript script that calls the servers'
// tools, run in a locked-down sandbox.
//
// Install it with
//
//	go install github.com/mcpexec/mcpexec/cmd/mcpexec@latest
//
// and point an MCP client at
//
//	mcpexec serve --servers mcp.json [--settings settings.json] [--http ADDR]
//
// instead of at the servers in mcp.json. Subcommands:
//
//	mcpexec serve --servers FILE [--settings FILE] [--http ADDR] [--allow-origin ORIGIN]...
//	              [--budget N] [--timeout D] [--max-calls N] [--memory-mb N] [--metrics ADDR]
//	              [--trace-args] [--verbose]
//	              [--node HOST:PORT... --node-listen HOST:PORT --tls-cert FILE --tls-key FILE --tls-ca FILE]
//	mcpexec exec --servers FILE [--settings FILE] [--timeout D] [--max-calls N] [--memory-mb N]
//	             [--ask allow|deny|prompt] [--json] [--trace-args] [--verbose] (--script FILE | -)
//	mcpexec catalog --servers FILE [--settings FILE] [--budget N] [--verbose]
//	mcpexec tools --servers FILE [--settings FILE] [--verbose]
//	mcpexec sandbox-node --listen HOST:PORT --membership-port N --tls-cert FILE --tls-key FILE --tls-ca FILE
//	             [--workers N] [--max-workers N] [--memory-mb N] [--verbose]
//	mcpexec version
//
// serve speaks MCP over stdio, or streamable HTTP with --http (loopback
// unless another host is named; Host and Origin are checked against DNS
// rebinding; the bearer token in $MCPEXEC_TOKEN, when set, is required). It
// follows edits to both files. exec runs one script and prints the result
// the model would receive; it puts permission questions and the questions
// servers ask during a call (elicitation forms) to the person on the
// terminal, or answers them as --ask says; catalog prints the catalog and the servers'
// instructions; tools prints tools[] as JSON. sandbox-node runs scripts for
// daemons on other machines: serve with --node (a node's membership
// endpoint, repeatable), --node-listen (where the nodes reach the daemon)
// and the three TLS flags runs every script on those nodes, over mutual
// TLS.
//
// After a successful call of a tool that declares no output schema, the
// catalog learns the shape of what it returned (field names and types,
// never values) and shows it on the line after the tool's signature, as
// "// observed: ...". What is learned is kept in $MCPEXEC_CACHE_DIR
// (default: mcpexec in the user cache directory), per server version, and
// catalog shows it; --no-learn, on every subcommand, turns learning off.
//
// The commands wait for the servers to start (each within its connect
// timeout; --timeout shortens the wait), naming on stderr those still
// starting after a second, and run without a server not up by then. When
// exec, catalog or tools ends, the servers not connected are listed on
// stderr with the reason. A --settings file must exist.
//
// With the standard OTEL_* variables set (OTEL_EXPORTER_OTLP_ENDPOINT,
// OTEL_EXPORTER_OTLP_PROTOCOL, OTEL_TRACES_EXPORTER, OTEL_METRICS_EXPORTER,
// OTEL_SERVICE_NAME ...), serve and exec export OpenTelemetry traces and
// metrics; with none, they export nothing. exec flushes before it exits.
// serve --metrics ADDR serves the metrics for Prometheus at /metrics.
//
// Exit status: 0 on success, 1 when the script failed or the command could
// not do its job, 2 for a bad command line, 3 when exec, catalog or tools
// ran but one or more MCP servers were not connected (this wins over 1),
// 130 when interrupted.
package main
