package telemetry

import (
	"context"
	"net/http"

	"go.opentelemetry.io/otel/attribute"
	"go.opentelemetry.io/otel/propagation"
	semconv "go.opentelemetry.io/otel/semconv/v1.41.0"
	"go.opentelemetry.io/otel/trace"
)

// propagator carries W3C trace context (traceparent, tracestate) and
// baggage. It is mcpexec's own: the library sets no global.
var propagator = propagation.NewCompositeTextMapPropagator(propagation.TraceContext{}, propagation.Baggage{})

// Carrier is trace context as text: traceparent, tracestate, baggage.
type Carrier = propagation.MapCarrier

// Inject returns ctx's trace context as a carrier, or nil when ctx carries
// none (telemetry off).
func Inject(ctx context.Context) Carrier {
	if !trace.SpanContextFromContext(ctx).IsValid() {
		return nil
	}
	c := Carrier{}
	propagator.Inject(ctx, c)
	return c
}

// Extract returns ctx with the trace context in c as its remote parent.
func Extract(ctx context.Context, c Carrier) context.Context {
	if len(c) == 0 {
		return ctx
	}
	return propagator.Extract(ctx, c)
}

// Sampled reports whether c carries a sampled trace context: whether a
// worker should record the phases of its run.
func Sampled(c Carrier) bool {
	if len(c) == 0 {
		return false
	}
	return trace.SpanContextFromContext(Extract(context.Background(), c)).IsSampled()
}

// InjectMeta adds ctx's trace context to an MCP request's params._meta
// (unprefixed traceparent, tracestate and baggage, as SEP-414 and the MCP
// semantic conventions say) and returns the map, allocating it if needed.
func InjectMeta(ctx context.Context, meta map[string]any) map[string]any {
	c := Inject(ctx)
	if c == nil {
		return meta
	}
	if meta == nil {
		meta = make(map[string]any, len(c))
	}
	for k, v := range c {
		meta[k] = v
	}
	return meta
}

// ExtractMeta returns ctx with the trace context of an MCP request's
// params._meta as its remote parent, if it carries one.
func ExtractMeta(ctx context.Context, meta map[string]any) context.Context {
	c := Carrier{}
	for _, k := range propagator.Fields() {
		if v, ok := meta[k].(string); ok {
			c[k] = v
		}
	}
	return Extract(ctx, c)
}

// InjectHeader sets ctx's trace context on an HTTP request's header.
func InjectHeader(ctx context.Context, h http.Header) {
	if trace.SpanContextFromContext(ctx).IsValid() {
		propagator.Inject(ctx, propagation.HeaderCarrier(h))
	}
}

// ExtractHeader returns ctx with the trace context of an HTTP header as its
// remote parent, if it carries one.
func ExtractHeader(ctx context.Context, h http.Header) context.Context {
	return propagator.Extract(ctx, propagation.HeaderCarrier(h))
}

// ServerRequest describes the MCP request an Exec call serves, in the
// gateway: the Exec span becomes that request's server span.
type ServerRequest struct {
	SessionID, ProtocolVersion string
	// HTTP is true over streamable HTTP, false over stdio.
	HTTP bool
}

type serverRequestKey struct{}

// WithServerRequest returns ctx marking the Exec call made under it as the
// server side of an MCP tools/call request.
func WithServerRequest(ctx context.Context, req ServerRequest) context.Context {
	return context.WithValue(ctx, serverRequestKey{}, req)
}

func (r ServerRequest) attributes() []attribute.KeyValue {
	attrs := []attribute.KeyValue{semconv.McpMethodNameToolsCall}
	if r.HTTP {
		attrs = append(attrs, semconv.NetworkTransportTCP, semconv.NetworkProtocolName("http"))
	} else {
		attrs = append(attrs, semconv.NetworkTransportPipe)
	}
	if r.SessionID != "" {
		attrs = append(attrs, semconv.McpSessionID(r.SessionID))
	}
	if r.ProtocolVersion != "" {
		attrs = append(attrs, semconv.McpProtocolVersion(r.ProtocolVersion))
	}
	return attrs
}

// Traced reports whether ctx carries trace context to propagate.
func Traced(ctx context.Context) bool { return trace.SpanContextFromContext(ctx).IsValid() }
