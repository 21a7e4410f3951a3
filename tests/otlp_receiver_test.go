package tests

import (
	"encoding/hex"
	"io"
	"net/http"
	"net/http/httptest"
	"strconv"
	"sync"
	"testing"

	collectormetrics "go.opentelemetry.io/proto/otlp/collector/metrics/v1"
	collectortrace "go.opentelemetry.io/proto/otlp/collector/trace/v1"
	commonpb "go.opentelemetry.io/proto/otlp/common/v1"
	metricspb "go.opentelemetry.io/proto/otlp/metrics/v1"
	tracepb "go.opentelemetry.io/proto/otlp/trace/v1"
	"google.golang.org/protobuf/proto"
)

// otlpReceiver is an OTLP/HTTP collector in the test process: it accepts
// the protobuf exports of traces and metrics, as a real collector's
// receiver does, and keeps them.
type otlpReceiver struct {
	URL string

	mu      sync.Mutex
	spans   []receivedSpan
	metrics []*metricspb.Metric
}

// receivedSpan is a span with the service that exported it.
type receivedSpan struct {
	*tracepb.Span
	service string
}

func newOTLPReceiver(t *testing.T) *otlpReceiver {
	t.Helper()
	r := &otlpReceiver{}
	mux := http.NewServeMux()
	mux.HandleFunc("POST /v1/traces", func(w http.ResponseWriter, req *http.Request) {
		var export collectortrace.ExportTraceServiceRequest
		if !decode(w, req, &export) {
			return
		}
		r.mu.Lock()
		for _, rs := range export.ResourceSpans {
			service := attrValue(rs.GetResource().GetAttributes(), "service.name")
			for _, ss := range rs.ScopeSpans {
				for _, s := range ss.Spans {
					r.spans = append(r.spans, receivedSpan{Span: s, service: service})
				}
			}
		}
		r.mu.Unlock()
		reply(w, &collectortrace.ExportTraceServiceResponse{})
	})
	mux.HandleFunc("POST /v1/metrics", func(w http.ResponseWriter, req *http.Request) {
		var export collectormetrics.ExportMetricsServiceRequest
		if !decode(w, req, &export) {
			return
		}
		r.mu.Lock()
		for _, rm := range export.ResourceMetrics {
			for _, sm := range rm.ScopeMetrics {
				r.metrics = append(r.metrics, sm.Metrics...)
			}
		}
		r.mu.Unlock()
		reply(w, &collectormetrics.ExportMetricsServiceResponse{})
	})
	srv := httptest.NewServer(mux)
	t.Cleanup(srv.Close)
	r.URL = srv.URL
	return r
}

func decode(w http.ResponseWriter, req *http.Request, m proto.Message) bool {
	body, err := io.ReadAll(req.Body)
	if err == nil {
		err = proto.Unmarshal(body, m)
	}
	if err != nil {
		http.Error(w, err.Error(), http.StatusBadRequest)
		return false
	}
	return true
}

func reply(w http.ResponseWriter, m proto.Message) {
	body, _ := proto.Marshal(m)
	w.Header().Set("Content-Type", "application/x-protobuf")
	_, _ = w.Write(body)
}

// received returns the spans and metrics received so far.
func (r *otlpReceiver) received() ([]receivedSpan, []*metricspb.Metric) {
	r.mu.Lock()
	defer r.mu.Unlock()
	return append([]receivedSpan(nil), r.spans...), append([]*metricspb.Metric(nil), r.metrics...)
}

func attrValue(attrs []*commonpb.KeyValue, key string) string {
	for _, kv := range attrs {
		if kv.Key == key {
			switch v := kv.Value.Value.(type) {
			case *commonpb.AnyValue_StringValue:
				return v.StringValue
			case *commonpb.AnyValue_IntValue:
				return strconv.FormatInt(v.IntValue, 10)
			case *commonpb.AnyValue_BoolValue:
				if v.BoolValue {
					return "true"
				}
				return "false"
			}
		}
	}
	return ""
}

func spanID(b []byte) string { return hex.EncodeToString(b) }
