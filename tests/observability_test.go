package tests

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"os"
	"os/exec"
	"regexp"
	"strings"
	"sync"
	"testing"

	"github.com/modelcontextprotocol/go-sdk/mcp"
	metricspb "go.opentelemetry.io/proto/otlp/metrics/v1"
	tracepb "go.opentelemetry.io/proto/otlp/trace/v1"

	"github.com/mcpexec/mcpexec/internal/testkit"
)

// tracedHTTPServer is an MCP server over streamable HTTP that keeps the
// trace context each tools/call brought: in the traceparent header and in
// params._meta.
type tracedHTTPServer struct {
	URL string

	mu      sync.Mutex
	headers []string
	metas   []string
}

func newTracedHTTPServer(t *testing.T) *tracedHTTPServer {
	t.Helper()
	h := &tracedHTTPServer{}
	server := mcp.NewServer(&mcp.Implementation{Name: "web", Version: "1"}, nil)
	server.AddTool(&mcp.Tool{Name: "lookup", Description: "Looks a word up.", InputSchema: json.RawMessage(`{"type":"object"}`)},
		func(_ context.Context, req *mcp.CallToolRequest) (*mcp.CallToolResult, error) {
			meta, _ := req.Params.GetMeta()["traceparent"].(string)
			h.mu.Lock()
			h.metas = append(h.metas, meta)
			h.mu.Unlock()
			return &mcp.CallToolResult{Content: []mcp.Content{&mcp.TextContent{Text: "a definition"}}}, nil
		})
	handler := mcp.NewStreamableHTTPHandler(func(*http.Request) *mcp.Server { return server }, nil)
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if tp := r.Header.Get("traceparent"); tp != "" {
			h.mu.Lock()
			h.headers = append(h.headers, tp)
			h.mu.Unlock()
		}
		handler.ServeHTTP(w, r)
	}))
	t.Cleanup(srv.Close)
	h.URL = srv.URL
	return h
}

func (h *tracedHTTPServer) seen() (headers, metas []string) {
	h.mu.Lock()
	defer h.mu.Unlock()
	return append([]string(nil), h.headers...), append([]string(nil), h.metas...)
}

// otelEnv is the environment that points mcpexec at the receiver, and
// nothing else of OTEL_* from the test's own environment.
func otelEnv(r *otlpReceiver) []string {
	var env []string
	for _, kv := range os.Environ() {
		if !strings.HasPrefix(kv, "OTEL_") {
			env = append(env, kv)
		}
	}
	return append(env, "OTEL_EXPORTER_OTLP_ENDPOINT="+r.URL, "OTEL_EXPORTER_OTLP_PROTOCOL=http/protobuf",
		"OTEL_SERVICE_NAME=mcpexec-e2e", "OTEL_METRIC_EXPORT_INTERVAL=600000")
}

// runExec runs `mcpexec exec --json` on a script and returns its output.
func runExec(t *testing.T, env []string, servers, settings, script string, flags ...string) execResult {
	t.Helper()
	args := append([]string{"exec", "--servers", servers, "--settings", settings, "--json", "--script", writeFile(t, "script.js", script)}, flags...)
	cmd := exec.Command(mcpexecBin, args...)
	cmd.Env = env
	var stderr strings.Builder
	cmd.Stderr = &stderr
	out, _ := cmd.Output()
	var res execResult
	if err := json.Unmarshal(out, &res); err != nil {
		t.Fatalf("exec output %q: %v (stderr: %s)", out, err, stderr.String())
	}
	return res
}

// traceTree is the spans of one trace, by id and by parent.
type traceTree struct {
	byID     map[string]receivedSpan
	children map[string][]receivedSpan
}

func treeFor(spans []receivedSpan, root receivedSpan) traceTree {
	tt := traceTree{byID: map[string]receivedSpan{}, children: map[string][]receivedSpan{}}
	for _, s := range spans {
		if string(s.TraceId) != string(root.TraceId) {
			continue
		}
		tt.byID[spanID(s.SpanId)] = s
		tt.children[spanID(s.ParentSpanId)] = append(tt.children[spanID(s.ParentSpanId)], s)
	}
	return tt
}

func (tt traceTree) child(t *testing.T, parent receivedSpan, name string) receivedSpan {
	t.Helper()
	var found []receivedSpan
	var names []string
	for _, s := range tt.children[spanID(parent.SpanId)] {
		names = append(names, s.Name)
		if s.Name == name {
			found = append(found, s)
		}
	}
	if len(found) != 1 {
		t.Fatalf("%q has %d children named %q, want 1 (children: %v)", parent.Name, len(found), name, names)
	}
	return found[0]
}

func rootsNamed(spans []receivedSpan, name string) []receivedSpan {
	var out []receivedSpan
	for _, s := range spans {
		if s.Name == name && len(s.ParentSpanId) == 0 {
			out = append(out, s)
		}
	}
	return out
}

func attr(s receivedSpan, key string) string { return attrValue(s.Attributes, key) }

// `mcpexec exec` with OTEL_* set exports, before it exits, the whole span
// tree of a run against real servers (a stdio process and an HTTP server):
// the Exec, its run, the phases timed in the worker process, each nested
// call and each MCP request, whose trace context the HTTP server received;
// a script that runs over its budget ends its spans with an error status;
// and the metrics count both runs.
func TestOTLPExportOfExecRuns(t *testing.T) {
	receiver := newOTLPReceiver(t)
	web := newTracedHTTPServer(t)
	servers := writeFile(t, "servers.json", fmt.Sprintf(`{"mcpServers": {
		"srv": {"command": %q, "args": ["serve-mcp", "srv"]},
		"web": {"url": %q}}}`, demoBin, web.URL))
	settings := writeFile(t, "settings.json", `{"permissions": {"allow": ["mcp__srv", "mcp__web"]}}`)
	env := otelEnv(receiver)

	res := runExec(t, env, servers, settings, `
		const r = await tools.mcp__srv__fetch({id: 2});
		const d = await tools.mcp__web__lookup({word: "secret-argument"});
		const s = await tools.mcp__srv__store({value: r.title});
		return s.key;`)
	if !res.OK {
		t.Fatalf("script failed: %s", res.Text)
	}
	wantTools := []string{"mcp__srv__fetch", "mcp__web__lookup", "mcp__srv__store"}
	if len(res.Audit.Calls) != len(wantTools) {
		t.Fatalf("audit: %+v", res.Audit)
	}
	for i, c := range res.Audit.Calls {
		if c.Tool != wantTools[i] || c.Outcome != "ok" || c.DurationMs <= 0 || c.Bytes <= 0 {
			t.Errorf("audit call %d: %+v", i, c)
		}
	}

	spans, _ := receiver.received()
	execs := rootsNamed(spans, "execute_tool Exec")
	if len(execs) != 1 {
		t.Fatalf("%d Exec spans exported, want 1 (the run exports before it exits); spans: %d", len(execs), len(spans))
	}
	root := execs[0]
	if root.service != "mcpexec-e2e" || attr(root, "gen_ai.operation.name") != "execute_tool" || attr(root, "mcpexec.exec.outcome") != "ok" {
		t.Errorf("Exec span: service %q, attributes %v", root.service, root.Attributes)
	}
	tree := treeFor(spans, root)
	run := tree.child(t, root, "mcpexec.sandbox.run")
	for _, phase := range []string{"mcpexec.script.prepare", "mcpexec.script.compile", "mcpexec.script.evaluate"} {
		tree.child(t, run, phase) // timed in the worker process, parented across the pipe
	}
	for _, tool := range wantTools {
		call := tree.child(t, run, "execute_tool "+tool)
		if attr(call, "gen_ai.tool.name") != tool || attr(call, "mcpexec.call.outcome") != "ok" || attr(call, "mcpexec.call.result_bytes") == "0" {
			t.Errorf("nested call span %s: %v", tool, call.Attributes)
		}
	}
	lookup := tree.child(t, tree.child(t, run, "execute_tool mcp__web__lookup"), "tools/call lookup")
	if lookup.Kind != tracepb.Span_SPAN_KIND_CLIENT || attr(lookup, "mcp.method.name") != "tools/call" ||
		attr(lookup, "network.transport") != "tcp" || attr(lookup, "server.address") != "127.0.0.1" || attr(lookup, "mcp.session.id") == "" {
		t.Errorf("MCP request span: kind %v, attributes %v", lookup.Kind, lookup.Attributes)
	}
	fetch := tree.child(t, tree.child(t, run, "execute_tool mcp__srv__fetch"), "tools/call fetch")
	if attr(fetch, "network.transport") != "pipe" {
		t.Errorf("stdio request span: %v", fetch.Attributes)
	}
	want := fmt.Sprintf("00-%s-%s-01", spanID(root.TraceId), spanID(lookup.SpanId))
	headers, metas := web.seen()
	if !contains(headers, want) || !contains(metas, want) {
		t.Errorf("the HTTP server got traceparent headers %v and _meta %v, want %s in both", headers, metas, want)
	}
	for _, s := range tree.byID {
		for _, kv := range s.Attributes {
			if strings.Contains(kv.GetValue().GetStringValue(), "secret-argument") {
				t.Errorf("span %s carries an argument value in %s", s.Name, kv.Key)
			}
		}
	}

	timedOut := runExec(t, env, servers, settings, `
		await tools.mcp__srv__fetch({id: 1});
		while (true) {}`, "--timeout", "1s")
	if timedOut.OK {
		t.Fatal("an endless script succeeded")
	}
	spans, metrics := receiver.received()
	var failed receivedSpan
	for _, s := range rootsNamed(spans, "execute_tool Exec") {
		if string(s.TraceId) != string(root.TraceId) {
			failed = s
		}
	}
	if failed.Span == nil {
		t.Fatal("the timed-out run exported no Exec span")
	}
	if failed.Status.GetCode() != tracepb.Status_STATUS_CODE_ERROR || !strings.HasPrefix(failed.Status.GetMessage(), "timeout") ||
		attr(failed, "error.type") != "timeout" {
		t.Errorf("timed-out Exec span: status %v, attributes %v", failed.Status, failed.Attributes)
	}
	failedTree := treeFor(spans, failed)
	failedRun := failedTree.child(t, failed, "mcpexec.sandbox.run")
	if failedRun.Status.GetCode() != tracepb.Status_STATUS_CODE_ERROR {
		t.Errorf("timed-out run span: status %v", failedRun.Status)
	}
	failedTree.child(t, failedRun, "execute_tool mcp__srv__fetch")

	if n := histogramCount(metrics, "mcpexec.exec.duration", "mcpexec.exec.outcome", "ok"); n != 1 {
		t.Errorf("mcpexec.exec.duration{outcome=ok}: %d, want 1", n)
	}
	if n := histogramCount(metrics, "mcpexec.exec.duration", "mcpexec.exec.outcome", "timeout"); n != 1 {
		t.Errorf("mcpexec.exec.duration{outcome=timeout}: %d, want 1", n)
	}
	if n := histogramCount(metrics, "mcpexec.call.duration", "gen_ai.tool.name", "mcp__web__lookup"); n != 1 {
		t.Errorf("mcpexec.call.duration{tool=mcp__web__lookup}: %d, want 1", n)
	}
	if n := sumValue(metrics, "mcpexec.sandbox.workers.killed", "mcpexec.worker.cause", "budget"); n != 1 {
		t.Errorf("mcpexec.sandbox.workers.killed{cause=budget}: %d, want 1", n)
	}
	if n := sumValue(metrics, "mcpexec.sandbox.workers.spawned", "", ""); n < 2 {
		t.Errorf("mcpexec.sandbox.workers.spawned: %d, want at least 2 (one per run)", n)
	}
}

// metricsURL finds the address serve prints for --metrics.
var metricsURL = regexp.MustCompile(`serving metrics on (http://\S+/metrics)`)

// scrape reads the metrics page at the URL match found.
func scrape(t *testing.T, match []string) string {
	t.Helper()
	if len(match) < 2 {
		t.Fatal("serve did not say where it serves the metrics")
	}
	resp, err := http.Get(match[1])
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	body, err := io.ReadAll(resp.Body)
	if err != nil {
		t.Fatal(err)
	}
	return string(body)
}

func contains(list []string, s string) bool {
	for _, x := range list {
		if x == s {
			return true
		}
	}
	return false
}

// Each process exports its cumulative metrics more than once (when the run
// ends and when it exits): a series, told apart by its start time and
// attributes, counts with its last (largest) value.

// histogramCount sums the counts of histogram name's series whose
// attribute key has value.
func histogramCount(metrics []*metricspb.Metric, name, key, value string) uint64 {
	last := map[string]uint64{}
	for _, m := range metrics {
		if m.Name != name || m.GetHistogram() == nil {
			continue
		}
		for _, dp := range m.GetHistogram().DataPoints {
			if attrValue(dp.Attributes, key) == value {
				series := fmt.Sprint(dp.StartTimeUnixNano, dp.Attributes)
				last[series] = max(last[series], dp.Count)
			}
		}
	}
	var n uint64
	for _, c := range last {
		n += c
	}
	return n
}

// sumValue adds up the series of sum name whose attribute key has value
// (every series for an empty key).
func sumValue(metrics []*metricspb.Metric, name, key, value string) int64 {
	last := map[string]int64{}
	for _, m := range metrics {
		if m.Name != name || m.GetSum() == nil {
			continue
		}
		for _, dp := range m.GetSum().DataPoints {
			if key == "" || attrValue(dp.Attributes, key) == value {
				series := fmt.Sprint(dp.StartTimeUnixNano, dp.Attributes)
				last[series] = max(last[series], dp.GetAsInt())
			}
		}
	}
	var n int64
	for _, c := range last {
		n += c
	}
	return n
}

// In gateway mode the client's trace context in params._meta parents the
// Exec span, which is the tools/call server span; the result's _meta
// carries the call audit; --metrics serves the metrics for Prometheus.
func TestGatewayExecSpanFollowsTheClientsTraceContext(t *testing.T) {
	receiver := newOTLPReceiver(t)
	servers := serversFile(t, "srv")
	settings := writeFile(t, "settings.json", builtinAllowed)
	cmd := exec.Command(mcpexecBin, "serve", "--servers", servers, "--settings", settings, "--metrics", "127.0.0.1:0")
	cmd.Env = otelEnv(receiver)
	var stderr testkit.SyncBuffer
	cmd.Stderr = &stderr
	ctx := context.Background()
	client := mcp.NewClient(&mcp.Implementation{Name: "e2e", Version: "1"}, nil)
	cs, err := client.Connect(ctx, &mcp.CommandTransport{Command: cmd}, nil)
	if err != nil {
		t.Fatal(err)
	}
	const traceID, parentID = "4bf92f3577b34da6a3ce929d0e0e4736", "00f067aa0ba902b7"
	params := &mcp.CallToolParams{Name: "Exec", Arguments: map[string]string{"code": `
		const r = await tools.mcp__srv__fetch({id: 2});
		return r.title;`}}
	params.SetMeta(map[string]any{"traceparent": "00-" + traceID + "-" + parentID + "-01"})
	res, err := cs.CallTool(ctx, params)
	if err != nil || res.IsError {
		t.Fatalf("Exec: %v %+v (stderr: %s)", err, res, stderr.String())
	}
	var audit struct {
		Calls []struct{ Tool, Outcome string } `json:"calls"`
	}
	data, _ := json.Marshal(res.GetMeta()["mcpexec/audit"])
	if err := json.Unmarshal(data, &audit); err != nil || len(audit.Calls) != 1 || audit.Calls[0].Tool != "mcp__srv__fetch" || audit.Calls[0].Outcome != "ok" {
		t.Errorf("audit in _meta: %s (%v)", data, err)
	}
	page := scrape(t, metricsURL.FindStringSubmatch(stderr.String()))
	for _, want := range []string{`mcpexec_exec_duration_seconds_count{`, `mcpexec_exec_outcome="ok"`, `mcpexec_sandbox_workers_spawned_total`, `mcpexec_server_state="connected"`} {
		if !strings.Contains(page, want) {
			t.Errorf("the metrics page lacks %s:\n%s", want, page)
		}
	}
	if err := cs.Close(); err != nil { // the gateway exits, exporting what it batched
		t.Logf("close: %v", err)
	}

	spans, _ := receiver.received()
	var server receivedSpan
	for _, s := range spans {
		if s.Name == "tools/call Exec" {
			server = s
		}
	}
	if server.Span == nil {
		t.Fatalf("no tools/call Exec span among %d (stderr: %s)", len(spans), stderr.String())
	}
	if spanID(server.TraceId) != traceID || spanID(server.ParentSpanId) != parentID || server.Kind != tracepb.Span_SPAN_KIND_SERVER {
		t.Errorf("Exec span: trace %s parent %s kind %v, want trace %s parent %s, SERVER",
			spanID(server.TraceId), spanID(server.ParentSpanId), server.Kind, traceID, parentID)
	}
	if attr(server, "mcp.method.name") != "tools/call" || attr(server, "gen_ai.tool.name") != "Exec" || attr(server, "network.transport") != "pipe" {
		t.Errorf("Exec span attributes: %v", server.Attributes)
	}
	tree := treeFor(spans, server)
	tree.child(t, tree.child(t, server, "mcpexec.sandbox.run"), "execute_tool mcp__srv__fetch")
}
