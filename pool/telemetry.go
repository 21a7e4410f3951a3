package pool

import (
	"context"
	"errors"
	"maps"
	"net/http"
	"strconv"

	"github.com/modelcontextprotocol/go-sdk/jsonrpc"
	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/mcpexec/mcpexec/internal/telemetry"
)

// traceRequests is the client middleware that observes every request the
// pool sends a server: a CLIENT span (for requests made on behalf of a
// traced call) whose context goes to the server in params._meta, for every
// transport, and the mcp.client.operation.duration metric.
func traceRequests(t *telemetry.Telemetry, peer telemetry.Peer) mcp.Middleware {
	return func(next mcp.MethodHandler) mcp.MethodHandler {
		return func(ctx context.Context, method string, req mcp.Request) (mcp.Result, error) {
			tool, session, version := "", "", ""
			if call, ok := req.GetParams().(*mcp.CallToolParams); ok {
				tool = call.Name
			}
			if cs, ok := req.GetSession().(*mcp.ClientSession); ok {
				session = cs.ID()
				if init := cs.InitializeResult(); init != nil {
					version = init.ProtocolVersion
				}
			}
			ctx, span := t.StartRequest(ctx, method, tool, session, version, peer)
			if params := req.GetParams(); params != nil && telemetry.Traced(ctx) {
				// A copy: the params' own map may be the caller's.
				params.SetMeta(telemetry.InjectMeta(ctx, maps.Clone(params.GetMeta())))
			}
			res, err := next(ctx, method, req)
			span.End(requestErrorType(ctx, res, err))
			return res, err
		}
	}
}

// requestErrorType is the error.type of a request (the JSON-RPC error code,
// tool_error for a result flagged isError, or a transport failure class)
// and the JSON-RPC error's message; both empty on success.
func requestErrorType(ctx context.Context, res mcp.Result, err error) (string, string) {
	if err == nil {
		if r, ok := res.(*mcp.CallToolResult); ok && r.IsError {
			return "tool_error", ""
		}
		return "", ""
	}
	if wire := serverError(err); wire != nil {
		return strconv.FormatInt(wire.Code, 10), wire.Message
	}
	var rpc *jsonrpc.Error
	switch {
	case ctx.Err() != nil && errors.Is(ctx.Err(), context.DeadlineExceeded):
		return "timeout", ""
	case ctx.Err() != nil:
		return "cancelled", ""
	case isConnectionLost(err), errors.As(err, &rpc):
		return "connection_lost", ""
	}
	return "_OTHER", ""
}

// traced sends the trace context of each HTTP request's call in the W3C
// traceparent header, when the pool has telemetry.
func traced(opts *Options, next http.RoundTripper) http.RoundTripper {
	if opts.Telemetry == nil {
		return next
	}
	return traceHeader{next: next}
}

type traceHeader struct{ next http.RoundTripper }

func (t traceHeader) RoundTrip(req *http.Request) (*http.Response, error) {
	if !telemetry.Traced(req.Context()) {
		return t.next.RoundTrip(req)
	}
	req = req.Clone(req.Context())
	telemetry.InjectHeader(req.Context(), req.Header)
	return t.next.RoundTrip(req)
}
