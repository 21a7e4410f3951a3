package declare

import (
	"encoding/json"
	"slices"

	"github.com/mcpexec/mcpexec/exectool"
	"github.com/mcpexec/mcpexec/messages"
	"github.com/mcpexec/mcpexec/permissions"
	"github.com/mcpexec/mcpexec/toolpool"
)

// Declaration is one entry of tools[].
type Declaration struct {
	Name            string          `json:"name"`
	Description     string          `json:"description"`
	InputSchema     json.RawMessage `json:"input_schema"`
	ConcurrencySafe bool            `json:"concurrency_safe"`
}

// Agent is the tool set of the agent the request is for: the main agent, or
// a sub-agent with a restricted set (EDGE-12). Its zero value allows every
// tool.
type Agent struct {
	// Builtin are the host's own tools, declared as they are.
	Builtin []Declaration
	// Allowed, when non-nil, is the agent's tool set: only these names
	// (Exec, mcp__server__tool) may be declared.
	Allowed []string
	// Disallowed names tools this agent must not have, on top of the
	// settings' disallowedTools.
	Disallowed []string
}

// Permits reports whether the agent may have the tool.
func (a Agent) Permits(name string) bool {
	if a.Allowed != nil && !slices.Contains(a.Allowed, name) {
		return false
	}
	return !slices.Contains(a.Disallowed, name)
}

// ExecDeclared reports whether Exec is declared for this request: the pool
// has at least one tool the agent may use (there is no larger threshold,
// EDGE-7), the switch is on (SWITCH-1..4), and neither the settings nor the
// agent exclude or deny Exec (CONV-3, SWITCH-5).
func ExecDeclared(snap *toolpool.Snapshot, cfg messages.Config, agent Agent) bool {
	if !execSwitchedOn(cfg, agent) {
		return false
	}
	reachable := false
	eachTool(snap, agent, func(toolpool.Tool) { reachable = true })
	return reachable
}

// AssembleSteady is Assemble for a client that keeps the tool list it read
// (an MCP client of a gateway): Exec stays declared while a configured
// server is starting or reconnecting, even with no tool reachable for the
// moment, so that a call made meanwhile gets an answer that says so rather
// than finding no Exec at all.
func AssembleSteady(snap *toolpool.Snapshot, cfg messages.Config, agent Agent) []Declaration {
	if !ExecDeclared(snap, cfg, agent) && execSwitchedOn(cfg, agent) && snap.Expecting() {
		return append(append([]Declaration(nil), agent.Builtin...), execDeclaration())
	}
	return Assemble(snap, cfg, agent)
}

// Assemble returns the declarations for one request: the built-in tools,
// then either Exec alone or every MCP tool of the snapshot that the agent
// may use, each under the name FlatNamesOf(snap) gives it.
func Assemble(snap *toolpool.Snapshot, cfg messages.Config, agent Agent) []Declaration {
	out := append([]Declaration(nil), agent.Builtin...)
	if ExecDeclared(snap, cfg, agent) {
		return append(out, execDeclaration())
	}
	flat := FlatNamesOf(snap)
	eachTool(snap, agent, func(t toolpool.Tool) {
		out = append(out, Declaration{Name: flat.Declared(t.Name), Description: t.Description, InputSchema: inputSchema(t)})
	})
	return out
}

// execSwitchedOn: the switch is on and neither the settings nor the agent
// exclude or deny Exec.
func execSwitchedOn(cfg messages.Config, agent Agent) bool {
	return cfg.EnableExec && !permissions.Excludes(cfg, exectool.Name) && agent.Permits(exectool.Name)
}

func execDeclaration() Declaration {
	return Declaration{
		Name:            exectool.Name,
		Description:     exectool.Description(),
		InputSchema:     exectool.InputSchema(),
		ConcurrencySafe: exectool.ConcurrencySafe,
	}
}

// Reachable lists the tools the agent's Exec scripts can call: the same
// snapshot and the same agent filter as the flat declarations, so the
// sandbox can never reach more than the agent could call (CONV-7).
func Reachable(snap *toolpool.Snapshot, agent Agent) []toolpool.Tool {
	var tools []toolpool.Tool
	eachTool(snap, agent, func(t toolpool.Tool) { tools = append(tools, t) })
	return tools
}

func eachTool(snap *toolpool.Snapshot, agent Agent, f func(toolpool.Tool)) {
	if snap == nil {
		return
	}
	snap.Each(func(t toolpool.Tool) bool {
		if agent.Permits(t.Name) {
			f(t)
		}
		return true
	})
}

// emptyObjectSchema stands in for a tool that listed no input schema.
var emptyObjectSchema = json.RawMessage(`{"type":"object"}`)

func inputSchema(t toolpool.Tool) json.RawMessage {
	if len(t.InputSchema) == 0 {
		return emptyObjectSchema
	}
	return t.InputSchema
}
