package gateway

import (
	"context"
	"net/http"
	"net/http/httptest"
	"testing"

	"github.com/modelcontextprotocol/go-sdk/mcp"
	sdktrace "go.opentelemetry.io/otel/sdk/trace"
	"go.opentelemetry.io/otel/sdk/trace/tracetest"
	"go.opentelemetry.io/otel/trace"

	"github.com/mcpexec/mcpexec"
)

// headerTransport adds a traceparent header to every request.
type headerTransport struct{ traceparent string }

func (h headerTransport) RoundTrip(r *http.Request) (*http.Response, error) {
	r = r.Clone(r.Context())
	r.Header.Set("traceparent", h.traceparent)
	return http.DefaultTransport.RoundTrip(r)
}

// Over HTTP, a client that sends its trace context only in the
// traceparent header (none in _meta) still parents the Exec span, the
// server span of the tools/call, which carries the session's id.
func TestHTTPTraceparentHeaderParentsTheExecSpan(t *testing.T) {
	spans := tracetest.NewSpanRecorder()
	tp := sdktrace.NewTracerProvider(sdktrace.WithSpanProcessor(spans))
	defer tp.Shutdown(context.Background())
	f := start(t, allowB, mcpexec.Options{TracerProvider: tp})
	srv := httptest.NewServer(f.gw.Handler(HTTPOptions{}))
	defer srv.Close()

	const traceID, parentID = "0af7651916cd43dd8448eb211c80319c", "b7ad6b7169203331"
	client := mcp.NewClient(&mcp.Implementation{Name: "t", Version: "1"}, nil)
	cs, err := client.Connect(context.Background(), &mcp.StreamableClientTransport{Endpoint: srv.URL,
		HTTPClient: &http.Client{Transport: headerTransport{traceparent: "00-" + traceID + "-" + parentID + "-01"}}},
		&mcp.ClientSessionOptions{ProtocolVersion: "2025-11-25"}) // a version with sessions, for mcp.session.id
	if err != nil {
		t.Fatal(err)
	}
	defer cs.Close()
	res, err := cs.CallTool(context.Background(), &mcp.CallToolParams{Name: "Exec", Arguments: map[string]string{"code": `return (await tools.mcp__b__text({}));`}})
	if err != nil || res.IsError {
		t.Fatalf("Exec: %v %+v", err, res)
	}
	var exec sdktrace.ReadOnlySpan
	for _, s := range spans.Ended() {
		if s.Name() == "tools/call Exec" {
			exec = s
		}
	}
	if exec == nil {
		t.Fatal("no tools/call Exec span")
	}
	if exec.SpanContext().TraceID().String() != traceID || exec.Parent().SpanID().String() != parentID || exec.SpanKind() != trace.SpanKindServer {
		t.Errorf("Exec span: trace %s parent %s kind %v", exec.SpanContext().TraceID(), exec.Parent().SpanID(), exec.SpanKind())
	}
	session := ""
	for _, kv := range exec.Attributes() {
		if kv.Key == "mcp.session.id" {
			session = kv.Value.AsString()
		}
	}
	if session == "" || session != cs.ID() {
		t.Errorf("mcp.session.id = %q, want the client's session %q", session, cs.ID())
	}
}
