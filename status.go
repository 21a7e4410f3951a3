package mcpexec

import "github.com/mcpexec/mcpexec/pool"

// Servers reports every configured MCP server: its state (connecting,
// connected, retrying, authorization required, invalid, disabled), its tool
// count and its last failure. It is empty without an MCP manager.
func (s *System) Servers() []pool.ServerStatus {
	if s.pool == nil {
		return []pool.ServerStatus{}
	}
	return s.pool.Status()
}
