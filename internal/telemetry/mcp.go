package telemetry

import (
	"context"
	"net/url"
	"strconv"
	"time"

	"go.opentelemetry.io/otel/attribute"
	"go.opentelemetry.io/otel/codes"
	"go.opentelemetry.io/otel/metric"
	semconv "go.opentelemetry.io/otel/semconv/v1.41.0"
	"go.opentelemetry.io/otel/trace"
)

// Peer is an MCP server requests go to, with the MCP conventions'
// connection attributes, worked out once per connection.
type Peer struct {
	attrs []attribute.KeyValue
}

// NewPeer describes the server named server in the servers file; endpoint
// is the URL of an HTTP server, empty for stdio.
func NewPeer(server, endpoint string) Peer {
	attrs := []attribute.KeyValue{keyServer.String(server)}
	if endpoint == "" {
		return Peer{attrs: append(attrs, semconv.NetworkTransportPipe)}
	}
	attrs = append(attrs, semconv.NetworkTransportTCP, semconv.NetworkProtocolName("http"))
	if u, err := url.Parse(endpoint); err == nil {
		host, port := u.Hostname(), u.Port()
		if port == "" {
			port = map[string]string{"http": "80", "https": "443"}[u.Scheme]
		}
		if host != "" {
			attrs = append(attrs, semconv.ServerAddress(host))
		}
		if n, err := strconv.Atoi(port); err == nil {
			attrs = append(attrs, semconv.ServerPort(n))
		}
	}
	return Peer{attrs: attrs}
}

// Request is one MCP request to a server.
type Request struct {
	t     *Telemetry
	span  trace.Span
	start time.Time
	attrs []attribute.KeyValue // for the duration metric
}

// StartRequest starts the CLIENT span of one MCP request (tools/call t,
// tools/list, ping ...). Only requests made on behalf of a traced call get
// a span: a request whose ctx carries no span (a background ping, the
// listing on connect) is measured but not traced, so that a server's
// keep-alive does not start a trace every few seconds. tool is the leaf
// name for tools/call, else "".
func (t *Telemetry) StartRequest(ctx context.Context, method, tool, sessionID, protocolVersion string, peer Peer) (context.Context, *Request) {
	if t == nil {
		return ctx, nil
	}
	r := &Request{t: t, start: time.Now()}
	r.attrs = append(append(make([]attribute.KeyValue, 0, len(peer.attrs)+4), peer.attrs...), semconv.McpMethodNameKey.String(method))
	if tool != "" {
		r.attrs = append(r.attrs, semconv.GenAIToolName(tool), semconv.GenAIOperationNameExecuteTool)
	}
	if t.tracer != nil && trace.SpanFromContext(ctx).SpanContext().IsValid() {
		name := method
		if tool != "" {
			name += " " + tool
		}
		attrs := r.attrs
		if sessionID != "" {
			attrs = append(attrs, semconv.McpSessionID(sessionID))
		}
		if protocolVersion != "" {
			attrs = append(attrs, semconv.McpProtocolVersion(protocolVersion))
		}
		ctx, r.span = t.tracer.Start(ctx, name, trace.WithSpanKind(trace.SpanKindClient), trace.WithAttributes(attrs...))
	}
	return ctx, r
}

// End ends the request. errorType is "" on success, else the JSON-RPC
// error code, "tool_error" for a result flagged isError, or a transport
// failure class; message is the JSON-RPC error's message, if any.
func (r *Request) End(errorType, message string) {
	if r == nil {
		return
	}
	if errorType != "" {
		r.attrs = append(r.attrs, semconv.ErrorTypeKey.String(errorType))
	}
	if r.span != nil {
		if errorType != "" {
			r.span.SetAttributes(semconv.ErrorTypeKey.String(errorType))
			r.span.SetStatus(codes.Error, message)
		}
		r.span.End()
	}
	if m := r.t.metrics; m != nil {
		m.mcpDuration.Record(context.Background(), time.Since(r.start).Seconds(), metric.WithAttributes(r.attrs...))
	}
}
