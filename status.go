package mcpexec

import (
	"github.com/mcpexec/mcpexec/messages"
	"github.com/mcpexec/mcpexec/pool"
)

// Servers reports every configured MCP server: its state (connecting,
// connected, retrying, authorization required, invalid), its tool count and
// its last failure. It is empty without an MCP manager, and nil when the
// pool does not answer.
func (s *System) Servers() []pool.ServerStatus {
	if s.pool == nil {
		return []pool.ServerStatus{}
	}
	m, err := s.ask(s.pool.PID(), &messages.GetPoolStatus{}, within(askTimeout))
	if err != nil {
		return nil
	}
	status, _ := m.(*messages.PoolStatus)
	return statusServers(status)
}
