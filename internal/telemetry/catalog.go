package telemetry

import (
	"context"
	"time"

	"go.opentelemetry.io/otel/attribute"
	"go.opentelemetry.io/otel/metric"
	"go.opentelemetry.io/otel/trace"
)

// CatalogRendered records one rendering of the catalog (a pool change, or a
// view no one had rendered): a span of its own, as rendering happens on the
// broadcaster's behalf, not a caller's.
func (t *Telemetry) CatalogRendered(start time.Time, tools, tokens int) {
	if t == nil || t.tracer == nil {
		return
	}
	_, span := t.tracer.Start(context.Background(), "mcpexec.catalog.render", trace.WithTimestamp(start),
		trace.WithAttributes(keyCatalogTools.Int(tools), keyCatalogTokens.Int(tokens)))
	span.End()
}

// CatalogBroadcast records a catalog message handed to the host for the
// conversation: kind is "full", "diff", "empty" or "withdrawn".
func (t *Telemetry) CatalogBroadcast(kind string, tokens int) {
	if t == nil {
		return
	}
	if t.tracer != nil {
		_, span := t.tracer.Start(context.Background(), "mcpexec.catalog.broadcast",
			trace.WithAttributes(keyCatalogKind.String(kind), keyCatalogTokens.Int(tokens)))
		span.End()
	}
	if m := t.metrics; m != nil {
		m.catalogTokens.Record(context.Background(), int64(tokens), metric.WithAttributeSet(attribute.NewSet(keyCatalogKind.String(kind))))
	}
}
