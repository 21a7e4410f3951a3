package pool_test

import (
	"context"
	"testing"
	"time"

	"github.com/mcpexec/mcpexec/internal/testservers"
	"github.com/mcpexec/mcpexec/pool"
	"github.com/modelcontextprotocol/go-sdk/mcp"
)

var benchArgs = raw(`{"query":"weather in Paris","limit":3,"filters":{"lang":"en"}}`)

// BenchmarkCallToolRawSDK is the baseline: the SDK's own CallTool on an
// in-memory server.
func BenchmarkCallToolRawSDK(b *testing.B) {
	ctx := context.Background()
	transport, err := testservers.DialInMemory(testservers.Behaviour(testservers.BehaviourOptions{}))(ctx)
	if err != nil {
		b.Fatal(err)
	}
	session, err := mcp.NewClient(&mcp.Implementation{Name: "bench", Version: "1"}, nil).Connect(ctx, transport, nil)
	if err != nil {
		b.Fatal(err)
	}
	defer session.Close()
	b.ReportAllocs()
	for b.Loop() {
		res, err := session.CallTool(ctx, &mcp.CallToolParams{Name: "text", Arguments: benchArgs})
		if err != nil || res.IsError {
			b.Fatal(err)
		}
	}
}

// BenchmarkCallToolFunnel is the same call through the funnel: pool lookup,
// gate, CallTool, projection.
func BenchmarkCallToolFunnel(b *testing.B) {
	ctx := context.Background()
	m := benchManager(b)
	b.ReportAllocs()
	for b.Loop() {
		res, err := m.Call(ctx, "mcp__b__text", benchArgs)
		if err != nil || res.Value == nil {
			b.Fatal(err)
		}
	}
}

func BenchmarkManagerSnapshot(b *testing.B) {
	m := benchManager(b)
	b.ReportAllocs()
	for b.Loop() {
		_ = m.Snapshot()
	}
}

// benchManager is a Manager with one in-memory behaviour server, connected.
func benchManager(b *testing.B) *pool.Manager {
	m, err := pool.New(context.Background(), []pool.ServerConfig{behaviourInMemory("b")}, pool.Options{})
	if err != nil {
		b.Fatal(err)
	}
	b.Cleanup(func() { _ = m.Close() })
	<-m.Ready()
	return m
}

// BenchmarkCallToolPaired alternates one raw SDK call and one funnel call
// per iteration, so both see the same machine load, and reports each side's
// mean and their ratio (funnel/raw), for a text reply and a structured one.
func BenchmarkCallToolPaired(b *testing.B) {
	for _, tool := range []string{"text", "structured"} {
		b.Run(tool, func(b *testing.B) { benchPaired(b, tool) })
	}
}

func benchPaired(b *testing.B, tool string) {
	ctx := context.Background()
	transport, err := testservers.DialInMemory(testservers.Behaviour(testservers.BehaviourOptions{}))(ctx)
	if err != nil {
		b.Fatal(err)
	}
	session, err := mcp.NewClient(&mcp.Implementation{Name: "bench", Version: "1"}, nil).Connect(ctx, transport, nil)
	if err != nil {
		b.Fatal(err)
	}
	defer session.Close()
	m := benchManager(b)
	var raw, funnel time.Duration
	for b.Loop() {
		t0 := time.Now()
		if _, err := session.CallTool(ctx, &mcp.CallToolParams{Name: tool, Arguments: benchArgs}); err != nil {
			b.Fatal(err)
		}
		t1 := time.Now()
		if _, err := m.Call(ctx, "mcp__b__"+tool, benchArgs); err != nil {
			b.Fatal(err)
		}
		raw += t1.Sub(t0)
		funnel += time.Since(t1)
	}
	n := float64(b.N)
	b.ReportMetric(float64(raw.Nanoseconds())/n, "raw-ns/call")
	b.ReportMetric(float64(funnel.Nanoseconds())/n, "funnel-ns/call")
	b.ReportMetric(float64(funnel)/float64(raw), "funnel/raw")
}
