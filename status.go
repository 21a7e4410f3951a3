package mcpexec

import (
	"context"

	"github.com/mcpexec/mcpexec/pool"
)

// Servers reports every configured MCP server: its state (connecting,
// connected, retrying, authorization required, invalid, disabled), its tool
// count and its last failure. It is empty without an MCP manager.
func (s *System) Servers() []pool.ServerStatus {
	if s.pool == nil {
		return []pool.ServerStatus{}
	}
	return s.pool.Status()
}

// snapshot is the pool as it is now; without an MCP manager it is empty
// (nil).
func (s *System) snapshot() *pool.Snapshot {
	if s.pool == nil {
		return nil
	}
	return s.pool.Snapshot()
}

// ToolHints is what a tool's server says about it (read-only, destructive,
// idempotent, open-world), from the pool as it is now; zero for a tool not
// in the pool. A host that shows a person a question about a call (an
// approval, a server's question passed on) uses it to say what the tool
// does.
func (s *System) ToolHints(name string) pool.Annotations {
	if snap := s.snapshot(); snap != nil {
		if t, ok := snap.Lookup(name); ok {
			return t.Annotations
		}
	}
	return pool.Annotations{}
}

// WaitReady waits until every configured server has been tried once
// (connected, or failed and retrying), or ctx ends.
func (s *System) WaitReady(ctx context.Context) error {
	if s.pool == nil {
		return nil
	}
	select {
	case <-s.pool.Ready():
		return nil
	case <-ctx.Done():
		return ctx.Err()
	}
}
