package actors

import (
	"context"
	"encoding/json"
	"errors"

	"github.com/modelcontextprotocol/go-sdk/mcp"
	"github.com/rs/zerolog"

	"github.com/mcpexec/mcpexec/internal/telemetry"
	"github.com/mcpexec/mcpexec/messages"
	"github.com/mcpexec/mcpexec/pool"
	"github.com/mcpexec/mcpexec/sandbox"
	"github.com/mcpexec/mcpexec/toolpool"
)

// Funnel is the one way a session's calls reach its MCP servers (NFR-3): a
// flat call (CallFlat) and every nested call of an Exec call (Exec) pass the
// same permission gate and the same pool. It also decides whether an Exec
// call may run at all, against the settings of the moment, and converts
// the pool's results into what the model or the script receives. A
// mcpexec.System builds one when it starts and delegates its calls to it.
type Funnel struct {
	// Execs runs Exec calls as actors.
	Execs *Execs
	// Gate answers whether Exec itself is forbidden; the pool's funnel asks
	// it about every MCP call.
	Gate *Gate
	// Pool is the session's MCP pool; nil when the session has no MCP
	// manager (no servers configured).
	Pool *Pool
	// Broadcaster gives each Exec call the view of the pool its agent can
	// reach, and maps flat aliases back to real tool names.
	Broadcaster *Broadcaster
	// Settings is the effective configuration, read at each call.
	Settings ConfigSource
	// Limits bound every Exec run; zero fields take sandbox defaults.
	Limits sandbox.Limits
	// Observe, if set, learns from the result of each successful nested
	// call of a tool of snap (what it returns, for the catalog).
	Observe func(snap *toolpool.Snapshot, name string, res pool.Result)
	Logger  zerolog.Logger
	// Telemetry traces and measures Exec calls; nil: none.
	Telemetry *telemetry.Telemetry
}

// ConfigSource is where the effective configuration is read; the config
// actor's handle (hotreload.Service) is one.
type ConfigSource interface {
	Current() messages.Config
}

// errNoMCPManager is the result of a call in a session without MCP servers
// (EDGE-5).
var errNoMCPManager = plainError("This session has no MCP manager: no MCP servers are configured, so there are no tools to call.")

// Call runs one MCP call by its real name through the pool's funnel
// (permission gate, tools/call, projection). Cancelling ctx cancels the
// call.
func (f *Funnel) Call(ctx context.Context, name string, args json.RawMessage) (pool.Result, error) {
	if f.Pool == nil {
		return pool.Result{}, errNoMCPManager
	}
	return f.Pool.Call(ctx, name, args)
}

// ToolResult is the outcome of a flat MCP call.
type ToolResult struct {
	OK     bool
	Text   string
	Images []sandbox.Image
	// Reply is the result as the server sent it, its structuredContent
	// the server's own bytes; nil when the call failed before the server
	// answered. A host that passes flat calls on gives its client this.
	Reply *mcp.CallToolResult
	// InputRequired is the server's request for input in place of a
	// result, for a call made under pool.WithInputReturned; Text then
	// says so.
	InputRequired *pool.InputRequired
}

// CallFlat runs an MCP tool called directly (Exec off, or a flat
// declaration). name is the name the tool was declared under; a tool whose
// real name the model APIs reject was declared under an alias, which is
// mapped back here, so the permission gate sees the real name. Every
// failure is a result whose text says why.
func (f *Funnel) CallFlat(ctx context.Context, name string, args json.RawMessage) (out ToolResult) {
	name = f.Broadcaster.FlatNames(f.snapshot()).Real(name)
	ctx, span := f.Telemetry.StartCall(ctx, name, args)
	res, err := f.Call(ctx, name, args)
	defer func() {
		size := 0
		if out.OK {
			size = len(out.Text)
		}
		span.End(pool.Outcome(err), size)
	}()
	if err != nil {
		var toolErr *pool.ToolError
		if errors.As(err, &toolErr) {
			return ToolResult{Text: err.Error(), Reply: toolErr.Reply}
		}
		return ToolResult{Text: err.Error()}
	}
	if res.InputRequired != nil {
		return ToolResult{Text: textInputRequired(name), InputRequired: res.InputRequired}
	}
	text, err := flatText(res)
	if err != nil {
		return ToolResult{Text: err.Error()}
	}
	return ToolResult{OK: true, Text: text, Images: sandboxImages(res), Reply: serversReply(res)}
}

// serversReply is the reply as the server sent it, with the structuredContent
// bytes it sent rather than their decoding.
func serversReply(res pool.Result) *mcp.CallToolResult {
	reply := res.Reply
	if reply == nil || reply.StructuredContent == nil || len(res.JSON) == 0 {
		return reply
	}
	own := *reply
	own.StructuredContent = res.JSON
	return &own
}

// snapshot is the pool as it is now; without an MCP manager it is empty
// (nil).
func (f *Funnel) snapshot() *toolpool.Snapshot {
	if f.Pool == nil {
		return nil
	}
	return f.Pool.Snapshot()
}
