package gateway

import (
	"context"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/mcpexec/mcpexec/internal/telemetry"
)

// AuditMetaKey is the key of the call audit in an Exec result's _meta: the
// nested calls the script made (exectool.Audit as JSON: tool, outcome,
// durationMs, bytes), for the client and its operator. Clients do not show
// _meta to the model.
const AuditMetaKey = "mcpexec/audit"

// tracedRequest returns ctx for serving a tools/call request: the client's
// trace context, from params._meta (as the MCP semantic conventions
// propagate it) or else the HTTP traceparent header, becomes the parent of
// the Exec span, which is then this request's server span.
func tracedRequest(ctx context.Context, req *mcp.CallToolRequest) context.Context {
	parent := telemetry.ExtractMeta(ctx, req.Params.GetMeta())
	if !telemetry.Traced(parent) && req.Extra != nil && req.Extra.Header != nil {
		parent = telemetry.ExtractHeader(ctx, req.Extra.Header)
	}
	info := telemetry.ServerRequest{HTTP: req.Extra != nil && req.Extra.Header != nil}
	if req.Session != nil {
		info.SessionID = req.Session.ID()
		info.ProtocolVersion = req.ProtocolVersion()
	}
	return telemetry.WithServerRequest(parent, info)
}
