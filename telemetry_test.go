package mcpexec_test

import (
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"testing"
	"time"

	"github.com/rs/zerolog"
	"go.opentelemetry.io/otel/attribute"
	"go.opentelemetry.io/otel/codes"
	sdkmetric "go.opentelemetry.io/otel/sdk/metric"
	"go.opentelemetry.io/otel/sdk/metric/metricdata"
	sdktrace "go.opentelemetry.io/otel/sdk/trace"
	"go.opentelemetry.io/otel/sdk/trace/tracetest"
	"go.opentelemetry.io/otel/trace"

	"github.com/mcpexec/mcpexec"
	"github.com/mcpexec/mcpexec/broadcast"
	"github.com/mcpexec/mcpexec/internal/testkit"
	"github.com/mcpexec/mcpexec/internal/testservers"
	"github.com/mcpexec/mcpexec/pool"
	"github.com/mcpexec/mcpexec/sandbox"
)

// traced is a System whose spans and metrics are kept in memory.
type traced struct {
	sys     *mcpexec.System
	spans   *tracetest.SpanRecorder
	tracer  trace.Tracer
	metrics *sdkmetric.ManualReader
}

func startTraced(t *testing.T, settings string, limits sandbox.Limits, logger *zerolog.Logger, servers ...pool.ServerConfig) *traced {
	t.Helper()
	before := runtime.NumGoroutine()
	path := filepath.Join(t.TempDir(), "settings.json")
	if err := os.WriteFile(path, []byte(settings), 0o600); err != nil {
		t.Fatal(err)
	}
	tr := &traced{spans: tracetest.NewSpanRecorder(), metrics: sdkmetric.NewManualReader()}
	tp := sdktrace.NewTracerProvider(sdktrace.WithSpanProcessor(tr.spans))
	mp := sdkmetric.NewMeterProvider(sdkmetric.WithReader(tr.metrics))
	tr.tracer = tp.Tracer("test")
	sys, err := mcpexec.Start(context.Background(), mcpexec.Options{
		Servers: servers, SettingsPath: path, Limits: limits,
		Workers:        sandbox.WorkerOptions{Warm: 1, MemoryLimit: 256 << 20},
		TracerProvider: tp, MeterProvider: mp, Logger: logger,
	})
	if err != nil {
		t.Fatal(err)
	}
	tr.sys = sys
	t.Cleanup(func() {
		if err := sys.Close(); err != nil {
			t.Error(err)
		}
		_ = tp.Shutdown(context.Background())
		_ = mp.Shutdown(context.Background())
		testkit.CheckGoroutines(t, before)
	})
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	if err := sys.WaitReady(ctx); err != nil {
		t.Fatal(err)
	}
	return tr
}

// exec runs code under a parent span of the test's and returns the result
// and that span's context.
func (tr *traced) exec(t *testing.T, code string) (mcpexec.ExecResult, trace.SpanContext) {
	t.Helper()
	ctx, parent := tr.tracer.Start(context.Background(), "host request")
	args, _ := json.Marshal(map[string]string{"code": code})
	res := tr.sys.Exec(ctx, args, nil)
	parent.End()
	return res, parent.SpanContext()
}

// spanTree indexes ended spans by name and by parent.
type spanTree struct {
	all      []sdktrace.ReadOnlySpan
	children map[trace.SpanID][]sdktrace.ReadOnlySpan
}

func treeOf(spans []sdktrace.ReadOnlySpan) spanTree {
	st := spanTree{all: spans, children: map[trace.SpanID][]sdktrace.ReadOnlySpan{}}
	for _, s := range spans {
		st.children[s.Parent().SpanID()] = append(st.children[s.Parent().SpanID()], s)
	}
	return st
}

// only returns the one child of parent named name.
func (st spanTree) only(t *testing.T, parent trace.SpanContext, name string) sdktrace.ReadOnlySpan {
	t.Helper()
	found := st.named(parent, name)
	if len(found) != 1 {
		var names []string
		for _, s := range st.children[parent.SpanID()] {
			names = append(names, s.Name())
		}
		t.Fatalf("children of %s named %q: %d, want 1 (children: %v)", parent.SpanID(), name, len(found), names)
	}
	return found[0]
}

func (st spanTree) named(parent trace.SpanContext, name string) []sdktrace.ReadOnlySpan {
	var out []sdktrace.ReadOnlySpan
	for _, s := range st.children[parent.SpanID()] {
		if s.Name() == name {
			out = append(out, s)
		}
	}
	return out
}

func attr(s sdktrace.ReadOnlySpan, key string) string {
	for _, kv := range s.Attributes() {
		if string(kv.Key) == key {
			return kv.Value.Emit()
		}
	}
	return ""
}

// Every Exec call is a span under the host's, with the run, each nested
// call and each MCP request below it; the result carries the call audit.
func TestTelemetrySpansAndAuditOfAnExec(t *testing.T) {
	tr := startTraced(t, allowAll, sandbox.Limits{Timeout: 10 * time.Second}, nil,
		pool.ServerConfig{Name: "b", Dial: testservers.DialInMemory(testservers.Behaviour(testservers.BehaviourOptions{}))})
	res, host := tr.exec(t, `
		const a = await tools.mcp__b__echo({ secret: "do-not-trace" });
		const s = await tools.mcp__b__structured({});
		try { await tools.mcp__b__fail({}); } catch (e) {}
		return s.count;`)
	if !res.OK {
		t.Fatalf("exec failed: %s", res.Text)
	}
	st := treeOf(tr.spans.Ended())
	exec := st.only(t, host, "execute_tool Exec")
	if got := attr(exec, "gen_ai.operation.name"); got != "execute_tool" {
		t.Errorf("Exec gen_ai.operation.name = %q", got)
	}
	if got := attr(exec, "mcpexec.exec.outcome"); got != "ok" {
		t.Errorf("Exec outcome = %q", got)
	}
	run := st.only(t, exec.SpanContext(), "mcpexec.sandbox.run")
	// Timed in the worker process, which got the run's trace context in
	// its start frame.
	for _, phase := range []string{"mcpexec.script.prepare", "mcpexec.script.compile", "mcpexec.script.evaluate"} {
		p := st.only(t, run.SpanContext(), phase)
		if p.StartTime().Before(run.StartTime()) || p.EndTime().After(run.EndTime()) {
			t.Errorf("%s [%v, %v] outside the run [%v, %v]", phase, p.StartTime(), p.EndTime(), run.StartTime(), run.EndTime())
		}
	}
	for _, tool := range []string{"echo", "structured", "fail"} {
		call := st.only(t, run.SpanContext(), "execute_tool mcp__b__"+tool)
		req := st.only(t, call.SpanContext(), "tools/call "+tool)
		if req.SpanKind() != trace.SpanKindClient || attr(req, "mcp.method.name") != "tools/call" || attr(req, "gen_ai.tool.name") != tool {
			t.Errorf("MCP request span %s: kind %v, attributes %v", req.Name(), req.SpanKind(), req.Attributes())
		}
		if len(call.Events()) == 0 || call.Events()[0].Name != "permission" {
			t.Errorf("call %s has no permission event: %v", tool, call.Events())
		}
	}
	failedCall := st.only(t, run.SpanContext(), "execute_tool mcp__b__fail")
	if failedCall.Status().Code != codes.Error || attr(failedCall, "error.type") != "tool_error" {
		t.Errorf("failed call status %v, error.type %q", failedCall.Status(), attr(failedCall, "error.type"))
	}
	for _, s := range st.all {
		for _, kv := range s.Attributes() {
			if strings.Contains(kv.Value.Emit(), "do-not-trace") {
				t.Errorf("span %s carries an argument value in %s", s.Name(), kv.Key)
			}
		}
	}

	want := []string{"mcp__b__echo", "mcp__b__structured", "mcp__b__fail"}
	outcomes := []string{"ok", "ok", "tool_error"}
	if len(res.Audit.Calls) != len(want) {
		t.Fatalf("audit = %+v", res.Audit)
	}
	for i, c := range res.Audit.Calls {
		if c.Tool != want[i] || c.Outcome != outcomes[i] || c.Duration <= 0 {
			t.Errorf("audit[%d] = %+v, want %s %s", i, c, want[i], outcomes[i])
		}
	}
	if res.Audit.Calls[1].Bytes == 0 || res.Audit.Calls[2].Bytes != 0 {
		t.Errorf("audit bytes: %+v", res.Audit.Calls)
	}

	msgs, err := tr.sys.Broadcast(broadcast.NewHistory(), mcpexec.DeclareOptions{})
	if err != nil || len(msgs) == 0 {
		t.Fatalf("broadcast: %v, %d messages", err, len(msgs))
	}
	if spans := st.named(trace.SpanContext{}, "mcpexec.catalog.render"); len(spans) == 0 {
		t.Error("no catalog rendering span")
	}

	var rm metricdata.ResourceMetrics
	if err := tr.metrics.Collect(context.Background(), &rm); err != nil {
		t.Fatal(err)
	}
	if n := histogramCount[float64](rm, "mcpexec.exec.duration", "mcpexec.exec.outcome", "ok"); n != 1 {
		t.Errorf("mcpexec.exec.duration{outcome=ok} count = %d, want 1", n)
	}
	if n := histogramCount[float64](rm, "mcpexec.call.duration", "mcpexec.call.outcome", "tool_error"); n != 1 {
		t.Errorf("mcpexec.call.duration{outcome=tool_error} count = %d, want 1", n)
	}
	if n := histogramCount[float64](rm, "mcp.client.operation.duration", "gen_ai.tool.name", "structured"); n != 1 {
		t.Errorf("mcp.client.operation.duration{tool=structured} count = %d, want 1", n)
	}
	if n := histogramCount[int64](rm, "mcpexec.catalog.tokens", "mcpexec.catalog.kind", "full"); n != 1 {
		t.Errorf("mcpexec.catalog.tokens{kind=full} count = %d, want 1", n)
	}
}

// histogramCount sums the counts of the data points of histogram name whose
// attribute key has value.
func histogramCount[N int64 | float64](rm metricdata.ResourceMetrics, name, key, value string) uint64 {
	var n uint64
	for _, sm := range rm.ScopeMetrics {
		for _, m := range sm.Metrics {
			if m.Name != name {
				continue
			}
			if h, ok := m.Data.(metricdata.Histogram[N]); ok {
				for _, dp := range h.DataPoints {
					if v, ok := dp.Attributes.Value(attribute.Key(key)); ok && v.Emit() == value {
						n += dp.Count
					}
				}
			}
		}
	}
	return n
}

// A log line about a traced call carries its trace_id and span_id.
func TestTelemetryLogLinesCarryTheTrace(t *testing.T) {
	var buf testkit.SyncBuffer
	logger := zerolog.New(&buf)
	tr := startTraced(t, allowAll, sandbox.Limits{Timeout: 10 * time.Second}, &logger,
		pool.ServerConfig{Name: "b", Dial: testservers.DialInMemory(testservers.Behaviour(testservers.BehaviourOptions{}))})
	res, host := tr.exec(t, `throw new Error("no")`)
	if res.OK {
		t.Fatal("a throwing script succeeded")
	}
	exec := treeOf(tr.spans.Ended()).only(t, host, "execute_tool Exec")
	var line struct {
		Message string `json:"message"`
		TraceID string `json:"trace_id"`
		SpanID  string `json:"span_id"`
	}
	found := false
	for _, l := range strings.Split(strings.TrimSpace(buf.String()), "\n") {
		if err := json.Unmarshal([]byte(l), &line); err == nil && line.Message == "exec: run failed" {
			found = true
			break
		}
	}
	if !found || line.TraceID != exec.SpanContext().TraceID().String() || line.SpanID != exec.SpanContext().SpanID().String() {
		t.Errorf("log line %+v, want the Exec span's trace %s and span %s (log: %s)", line, exec.SpanContext().TraceID(), exec.SpanContext().SpanID(), buf.String())
	}
}

// A run that is aborted or runs out of memory ends its Exec and run spans
// with an error status naming the cause, counts its worker as killed by
// that cause, and leaves no span open.
func TestTelemetryFailedRunsEndTheirSpansWithTheCause(t *testing.T) {
	tr := startTraced(t, allowAll, sandbox.Limits{Timeout: time.Minute}, nil,
		pool.ServerConfig{Name: "b", Dial: testservers.DialInMemory(testservers.Behaviour(testservers.BehaviourOptions{}))})
	cases := []struct {
		outcome, cause, code string
		abort                bool
	}{
		{"aborted", "abort", `await tools.mcp__b__hang({});`, true},
		{"out_of_memory", "memory", `const hog = []; for (;;) hog.push(new Array(1 << 20).fill(7));`, false},
	}
	for _, c := range cases {
		ctx, parent := tr.tracer.Start(context.Background(), "host request")
		if c.abort {
			var cancel context.CancelFunc
			ctx, cancel = context.WithCancel(ctx)
			go func() {
				// Abort once the hanging call is in flight.
				for !tr.hasSpan("execute_tool mcp__b__hang") {
					time.Sleep(5 * time.Millisecond)
				}
				cancel()
			}()
		}
		args, _ := json.Marshal(map[string]string{"code": c.code})
		res := tr.sys.Exec(ctx, args, nil)
		parent.End()
		if res.OK {
			t.Fatalf("%s: the script succeeded", c.outcome)
		}
		st := treeOf(tr.spans.Ended())
		exec := st.named(parent.SpanContext(), "execute_tool Exec")
		exec = exec[len(exec)-1:]
		run := st.only(t, exec[0].SpanContext(), "mcpexec.sandbox.run")
		for _, s := range []sdktrace.ReadOnlySpan{exec[0], run} {
			if s.Status().Code != codes.Error || !strings.HasPrefix(s.Status().Description, c.outcome) || attr(s, "error.type") != c.outcome {
				t.Errorf("%s: span %s status %+v, error.type %q", c.outcome, s.Name(), s.Status(), attr(s, "error.type"))
			}
		}
		var rm metricdata.ResourceMetrics
		if err := tr.metrics.Collect(context.Background(), &rm); err != nil {
			t.Fatal(err)
		}
		if n := sumOf(rm, "mcpexec.sandbox.workers.killed", "mcpexec.worker.cause", c.cause); n != 1 {
			t.Errorf("%s: workers killed by %s: %d, want 1", c.outcome, c.cause, n)
		}
	}
	// A call still in flight when its run was aborted ends as soon as the
	// cancellation reaches it.
	deadline := time.Now().Add(10 * time.Second)
	for tr.openSpans() > 0 && time.Now().Before(deadline) {
		time.Sleep(10 * time.Millisecond)
	}
	if n := tr.openSpans(); n > 0 {
		t.Errorf("%d spans left open", n)
	}
}

func (tr *traced) hasSpan(name string) bool {
	for _, s := range tr.spans.Started() {
		if s.Name() == name {
			return true
		}
	}
	return false
}

func (tr *traced) openSpans() int {
	n := 0
	for _, s := range tr.spans.Started() {
		if s.EndTime().IsZero() {
			n++
		}
	}
	return n
}

// sumOf is the value of counter name's point whose attribute key has value.
func sumOf(rm metricdata.ResourceMetrics, name, key, value string) int64 {
	var n int64
	for _, sm := range rm.ScopeMetrics {
		for _, m := range sm.Metrics {
			if s, ok := m.Data.(metricdata.Sum[int64]); ok && m.Name == name {
				for _, dp := range s.DataPoints {
					if v, ok := dp.Attributes.Value(attribute.Key(key)); ok && v.Emit() == value {
						n += dp.Value
					}
				}
			}
		}
	}
	return n
}
