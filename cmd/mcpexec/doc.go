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
//	              [--budget N] [--timeout D] [--max-calls N] [--memory-mb N] [--verbose]
//	mcpexec exec --servers FILE [--settings FILE] [--timeout D] [--max-calls N] [--memory-mb N]
//	             [--ask allow|deny|prompt] [--json] [--verbose] (--script FILE | -)
//	mcpexec catalog --servers FILE [--settings FILE] [--budget N] [--verbose]
//	mcpexec tools --servers FILE [--settings FILE] [--verbose]
//	mcpexec version
//
// serve speaks MCP over stdio, or streamable HTTP with --http (loopback
// unless another host is named; Host and Origin are checked against DNS
// rebinding; the bearer token in $MCPEXEC_TOKEN, when set, is required). It
// follows edits to both files. exec runs one script and prints the result
// the model would receive; catalog prints the catalog and the servers'
// instructions; tools prints tools[] as JSON.
//
// Exit status: 0 on success, 1 when the script failed or the command could
// not do its job, 2 for a bad command line, 130 when interrupted.
package main
