// Package childenv builds the environment mcpexec hands the processes it
// starts: stdio MCP servers and sandbox worker processes.
//
// A child inherits mcpexec's environment, minus the variables mcpexec reads
// as credentials of its own: the gateway's bearer token and the OpenTelemetry
// exporter's headers (which carry the collector's API key). A script can make
// a tool report its server's environment, so a secret a child inherits is a
// secret the model can read. A server that needs one of these variables gets
// it by naming it in its "env" entry of the servers file.
package childenv
