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
	// Annotations are what the server says about the tool's behaviour;
	// the zero value when it said nothing.
	Annotations Annotations
	// TaskSupport is the tool's execution.taskSupport: TaskRequired,
	// TaskOptional, or "" (the tool is only called plainly).
	TaskSupport string
}

// The values of a tool's execution.taskSupport that let it run as an MCP
// task (a task-augmented tools/call).
const (
	TaskRequired = "required"
	TaskOptional = "optional"
)

// RunsAsTask reports whether calls of the tool may run as tasks.
func (t Tool) RunsAsTask() bool {
	return t.TaskSupport == TaskRequired || t.TaskSupport == TaskOptional
}

// Annotations are a tool's behaviour as its server describes it (MCP tool
// annotations). They are hints, not guarantees: a person approving a call
// is shown them, and no rule trusts them. A nil hint was not given.
type Annotations struct {
	// Title is a human-readable name for the tool.
	Title string `json:"title,omitempty"`
	// ReadOnly: the tool does not change its environment.
	ReadOnly *bool `json:"readOnlyHint,omitempty"`
	// Destructive: the tool may destroy or overwrite (meaningful when it
	// is not read-only; MCP's default is true).
	Destructive *bool `json:"destructiveHint,omitempty"`
	// Idempotent: calling it again with the same arguments has no further
	// effect.
	Idempotent *bool `json:"idempotentHint,omitempty"`
	// OpenWorld: the tool reaches outside entities (the web, other
	// people's systems).
	OpenWorld *bool `json:"openWorldHint,omitempty"`
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
