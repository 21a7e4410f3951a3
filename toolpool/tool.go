package toolpool

import (
	"encoding/json"
	"strings"
)

// namePrefix starts every pool tool name.
const namePrefix = "mcp__"

// Tool is one MCP tool of the pool.
type Tool struct {
	// Name is the full name mcp__<server>__<tool>.
	Name string
	// Server is the configured server name.
	Server string
	// Leaf is the tool's own name on that server.
	Leaf        string
	Description string
	// InputSchema and OutputSchema are the bytes the server listed (compact
	// JSON as they arrived on the wire). OutputSchema is nil when the tool
	// declares none.
	InputSchema, OutputSchema json.RawMessage
}

// FullName returns the pool name of a server's tool: mcp__<server>__<leaf>.
func FullName(server, leaf string) string {
	return namePrefix + server + "__" + leaf
}

// GroupKey returns the grouping key of a full tool name:
// strings.Split(name, "__")[1], the segment routing in the original host
// takes as the server. For a server whose name contains "__" it is only the
// first part of that name, so several servers may share a key; grouping
// follows it, routing does not (it looks the full name up). A name without
// "__" has the empty key.
func GroupKey(name string) string {
	parts := strings.SplitN(name, "__", 3)
	if len(parts) < 2 {
		return ""
	}
	return parts[1]
}
