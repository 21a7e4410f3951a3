package mcpexec_test

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"

	sdktrace "go.opentelemetry.io/otel/sdk/trace"
	"go.opentelemetry.io/otel/sdk/trace/tracetest"

	"github.com/mcpexec/mcpexec"
	"github.com/mcpexec/mcpexec/pool"
)

// Example_telemetry traces an Exec call with the embedder's own tracer
// provider (here one that keeps spans in memory; a daemon would export them
// with OTLP) and reads the call audit on the result.
func Example_telemetry() {
	ctx := context.Background()
	dir, _ := os.MkdirTemp("", "mcpexec-example")
	defer os.RemoveAll(dir)
	settings := filepath.Join(dir, "settings.json")
	_ = os.WriteFile(settings, []byte(`{"permissions": {"allow": ["mcp__b"]}}`), 0o600)

	spans := tracetest.NewSpanRecorder()
	tp := sdktrace.NewTracerProvider(sdktrace.WithSpanProcessor(spans))
	defer tp.Shutdown(ctx)
	sys, err := mcpexec.Start(ctx, mcpexec.Options{
		Servers:        []pool.ServerConfig{{Name: "b", Dial: inMemory(notesServer())}},
		SettingsPath:   settings,
		TracerProvider: tp, // and MeterProvider for the metrics
	})
	if err != nil {
		fmt.Println(err)
		return
	}
	defer sys.Close()
	_ = sys.WaitReady(ctx)

	args, _ := json.Marshal(map[string]string{"code": `
		const s = await tools.mcp__b__list({});
		return await tools.mcp__b__text({});`})
	res := sys.Exec(ctx, args, nil)
	for _, call := range res.Audit.Calls {
		fmt.Println("audit:", call.Tool, call.Outcome, call.Bytes, "bytes")
	}
	for _, s := range spans.Ended() {
		if s.Name() == "execute_tool Exec" {
			fmt.Println("span:", s.Name(), s.Status().Code)
		}
	}
	// Output:
	// audit: mcp__b__list ok 19 bytes
	// audit: mcp__b__text ok 15 bytes
	// span: execute_tool Exec Unset
}
