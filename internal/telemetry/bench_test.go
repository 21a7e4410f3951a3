package telemetry

import (
	"context"
	"testing"

	sdkmetric "go.opentelemetry.io/otel/sdk/metric"
	sdktrace "go.opentelemetry.io/otel/sdk/trace"
	"go.opentelemetry.io/otel/sdk/trace/tracetest"
)

// nestedCall is the telemetry work of one nested call: its execute_tool
// span, the permission event, the MCP request span with the trace context
// put in the request's _meta, and both durations recorded.
func nestedCall(t *Telemetry, ctx context.Context, peer Peer) {
	ctx, call := t.StartCall(ctx, "mcp__srv__fetch", []byte(`{"id":2}`))
	PermissionDecided(ctx, "allow")
	ctx, req := t.StartRequest(ctx, "tools/call", "fetch", "", "2025-11-25", peer)
	if Traced(ctx) {
		_ = InjectMeta(ctx, nil)
	}
	req.End("", "")
	call.End(OutcomeOK, 120)
}

// BenchmarkNestedCallTelemetryOff is that work with telemetry off (a nil
// *Telemetry, no span in the context): what every nested call pays when no
// provider is set.
func BenchmarkNestedCallTelemetryOff(b *testing.B) {
	var t *Telemetry
	peer := NewPeer("srv", "")
	ctx := context.Background()
	for b.Loop() {
		nestedCall(t, ctx, peer)
	}
}

// BenchmarkNestedCallTelemetryOn is that work with every span sampled and
// batched to an exporter that drops it, and every metric recorded.
func BenchmarkNestedCallTelemetryOn(b *testing.B) {
	tp := sdktrace.NewTracerProvider(sdktrace.WithBatcher(tracetest.NewNoopExporter()))
	mp := sdkmetric.NewMeterProvider(sdkmetric.WithReader(sdkmetric.NewManualReader()))
	defer func() {
		_ = tp.Shutdown(context.Background())
		_ = mp.Shutdown(context.Background())
	}()
	t, err := New(Options{TracerProvider: tp, MeterProvider: mp})
	if err != nil {
		b.Fatal(err)
	}
	ctx, run := tp.Tracer("bench").Start(context.Background(), "run")
	defer run.End()
	peer := NewPeer("srv", "")
	for b.Loop() {
		nestedCall(t, ctx, peer)
	}
}
