package cli

import (
	"context"
	"errors"
	"fmt"
	"os"
	"slices"
	"strings"

	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// builtinServers are the MCP servers this binary serves with
// `demo serve-mcp NAME`. Each is an ordinary server built on the official
// SDK; the demo runs them as real stdio subprocesses, exactly as it would run
// a user's servers.
var builtinServers = map[string]func() *mcp.Server{
	"srv":     newRecordsServer,
	"text":    newTextServer,
	"weather": newWeatherServer,
}

// builtinServerNames returns the built-in server names, sorted.
func builtinServerNames() []string {
	names := make([]string, 0, len(builtinServers))
	for name := range builtinServers {
		names = append(names, name)
	}
	slices.Sort(names)
	return names
}

// errOffline is returned when a server was told to stay offline.
var errOffline = errors.New("offline")

// serveBuiltin serves the built-in server name over stdin and stdout until
// the client closes the connection or ctx ends.
//
// When offlineWhile names a file that exists, the server refuses to start:
// the demo tour uses it to bring a server online in the middle of a session
// (the pool retries a failed server, and the retry after the file is removed
// succeeds).
func serveBuiltin(ctx context.Context, name, offlineWhile string) error {
	newServer, ok := builtinServers[name]
	if !ok {
		return fmt.Errorf("no built-in MCP server %q (have %s)", name, strings.Join(builtinServerNames(), ", "))
	}
	if offlineWhile != "" {
		if _, err := os.Stat(offlineWhile); err == nil {
			return fmt.Errorf("%s: %w while %s exists", name, errOffline, offlineWhile)
		}
	}
	return newServer().Run(ctx, &mcp.StdioTransport{})
}

// textResult is a tool result made of text parts only.
func textResult(parts ...string) *mcp.CallToolResult {
	res := &mcp.CallToolResult{Content: []mcp.Content{}}
	for _, p := range parts {
		res.Content = append(res.Content, &mcp.TextContent{Text: p})
	}
	return res
}

// errorResult is a tool result flagged isError with message as its text.
func errorResult(message string) *mcp.CallToolResult {
	res := textResult(message)
	res.IsError = true
	return res
}
