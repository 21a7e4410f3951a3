package mcpexec_test

import (
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"testing"
	"time"

	sdkmetric "go.opentelemetry.io/otel/sdk/metric"
	sdktrace "go.opentelemetry.io/otel/sdk/trace"
	"go.opentelemetry.io/otel/sdk/trace/tracetest"

	"github.com/mcpexec/mcpexec"
	"github.com/mcpexec/mcpexec/internal/testservers"
	"github.com/mcpexec/mcpexec/pool"
	"github.com/mcpexec/mcpexec/sandbox"
)

// benchSystem is a System over the in-memory behaviour server whose tools
// the settings allow.
func benchSystem(b *testing.B) *mcpexec.System {
	b.Helper()
	return benchSystemWith(b, mcpexec.Options{})
}

// benchSystemWith is benchSystem with further options.
func benchSystemWith(b *testing.B, opts mcpexec.Options) *mcpexec.System {
	b.Helper()
	path := filepath.Join(b.TempDir(), "settings.json")
	if err := os.WriteFile(path, []byte(`{"permissions": {"allow": ["mcp__b"]}}`), 0o600); err != nil {
		b.Fatal(err)
	}
	opts.Servers = []pool.ServerConfig{{Name: "b", Dial: testservers.DialInMemory(testservers.Behaviour(testservers.BehaviourOptions{}))}}
	opts.SettingsPath = path
	opts.Workers = sandbox.WorkerOptions{Warm: 1}
	sys, err := mcpexec.Start(context.Background(), opts)
	if err != nil {
		b.Fatal(err)
	}
	b.Cleanup(func() { _ = sys.Close() })
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	if err := sys.WaitReady(ctx); err != nil {
		b.Fatal(err)
	}
	return sys
}

// BenchmarkSystemNestedCalls is an Exec of 20 nested calls through the
// whole path: the worker, the exec actor, the permission gate, the pool and
// the MCP SDK to an in-memory server. It reports the time per nested call.
func BenchmarkSystemNestedCalls(b *testing.B) {
	benchNestedCalls(b, benchSystem(b))
}

// BenchmarkSystemNestedCallsTraced is BenchmarkSystemNestedCalls with
// telemetry on: every span sampled and batched to an exporter that drops
// it, every metric recorded (and collected by a reader nobody reads).
func BenchmarkSystemNestedCallsTraced(b *testing.B) {
	tp := sdktrace.NewTracerProvider(sdktrace.WithBatcher(tracetest.NewNoopExporter()))
	mp := sdkmetric.NewMeterProvider(sdkmetric.WithReader(sdkmetric.NewManualReader()))
	b.Cleanup(func() {
		_ = tp.Shutdown(context.Background())
		_ = mp.Shutdown(context.Background())
	})
	benchNestedCalls(b, benchSystemWith(b, mcpexec.Options{TracerProvider: tp, MeterProvider: mp}))
}

func benchNestedCalls(b *testing.B, sys *mcpexec.System) {
	args, _ := json.Marshal(map[string]string{"code": `let n = 0; for (let i = 0; i < 20; i++) if ((await tools.mcp__b__text({})).length) n++; return n;`})
	for b.Loop() {
		if res := sys.Exec(context.Background(), args, nil); res.Text != "20" {
			b.Fatal(res.Text)
		}
	}
	b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N*20), "ns/call")
}

// BenchmarkSystemCallFlat is one flat call through the gate and the pool.
func BenchmarkSystemCallFlat(b *testing.B) {
	sys := benchSystem(b)
	for b.Loop() {
		if res := sys.CallFlat(context.Background(), "mcp__b__text", nil); !res.OK {
			b.Fatal(res.Text)
		}
	}
}
