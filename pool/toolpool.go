package pool

import "github.com/mcpexec/mcpexec/toolpool"

// The pool as data lives in package toolpool, a leaf that the pure packages
// can import without the MCP SDK; these names keep pool's API whole.
type (
	// Tool is one MCP tool of the pool (see toolpool.Tool).
	Tool = toolpool.Tool
	// ServerTools is what one connected server contributes.
	ServerTools = toolpool.ServerTools
	// Snapshot is an immutable view of the pool (see toolpool.Snapshot).
	Snapshot = toolpool.Snapshot
	// Exclude removes tools from the pool by full name.
	Exclude = toolpool.Exclude
	// ServerDown is a configured server that is not connected, and why.
	ServerDown = toolpool.ServerDown
	// Annotations are a tool's behaviour as its server describes it.
	Annotations = toolpool.Annotations
)

// Build is the pool constructor (see toolpool.Build).
func Build(servers []ServerTools, exclude Exclude) *Snapshot {
	return toolpool.Build(servers, exclude)
}

// FullName returns the pool name of a server's tool: mcp__<server>__<leaf>.
func FullName(server, leaf string) string { return toolpool.FullName(server, leaf) }

// GroupKey returns the grouping key of a full tool name (see
// toolpool.GroupKey).
func GroupKey(name string) string { return toolpool.GroupKey(name) }

// The values of a tool's execution.taskSupport that let it run as a task.
const (
	TaskRequired = toolpool.TaskRequired
	TaskOptional = toolpool.TaskOptional
)
