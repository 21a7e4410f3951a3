package otelenv

import (
	"context"
	"io"
	"net/http/httptest"
	"os"
	"strings"
	"testing"

	"go.opentelemetry.io/otel/metric"
)

// clearOTEL unsets every OTEL_* variable for the test.
func clearOTEL(t *testing.T) {
	for _, kv := range os.Environ() {
		if name, _, _ := strings.Cut(kv, "="); strings.HasPrefix(name, "OTEL_") {
			t.Setenv(name, "")
			os.Unsetenv(name)
		}
	}
}

// With no OTEL_* variable there are no providers: nothing is exported and
// nothing connects.
func TestNoVariablesNoProviders(t *testing.T) {
	clearOTEL(t)
	p, err := FromEnv(context.Background(), Options{})
	if err != nil {
		t.Fatal(err)
	}
	if p.TracerProvider != nil || p.MeterProvider != nil {
		t.Errorf("providers without any OTEL_* variable: %+v", p)
	}
}

// Each signal can be switched off on its own while the other exports.
func TestEachSignalSwitchesOffOnItsOwn(t *testing.T) {
	for _, c := range []struct {
		env            map[string]string
		traces, meters bool
	}{
		{map[string]string{"OTEL_EXPORTER_OTLP_ENDPOINT": "http://127.0.0.1:1"}, true, true},
		{map[string]string{"OTEL_EXPORTER_OTLP_ENDPOINT": "http://127.0.0.1:1", "OTEL_TRACES_EXPORTER": "none"}, false, true},
		{map[string]string{"OTEL_EXPORTER_OTLP_ENDPOINT": "http://127.0.0.1:1", "OTEL_METRICS_EXPORTER": "none"}, true, false},
		{map[string]string{"OTEL_EXPORTER_OTLP_TRACES_ENDPOINT": "http://127.0.0.1:1/v1/traces"}, true, false},
		{map[string]string{"OTEL_EXPORTER_OTLP_ENDPOINT": "http://127.0.0.1:1", "OTEL_SDK_DISABLED": "true"}, false, false},
	} {
		clearOTEL(t)
		for k, v := range c.env {
			t.Setenv(k, v)
		}
		p, err := FromEnv(context.Background(), Options{})
		if err != nil {
			t.Fatalf("%v: %v", c.env, err)
		}
		if (p.TracerProvider != nil) != c.traces || (p.MeterProvider != nil) != c.meters {
			t.Errorf("%v: traces %v metrics %v, want %v %v", c.env, p.TracerProvider != nil, p.MeterProvider != nil, c.traces, c.meters)
		}
		_ = p.Shutdown(context.Background())
	}
}

// Options.Prometheus serves the metrics for scraping, with no OTEL_*
// variable at all.
func TestPrometheusEndpoint(t *testing.T) {
	clearOTEL(t)
	p, err := FromEnv(context.Background(), Options{Prometheus: true})
	if err != nil {
		t.Fatal(err)
	}
	defer p.Shutdown(context.Background())
	if p.TracerProvider != nil {
		t.Error("a tracer provider without any trace variable")
	}
	counter, err := p.MeterProvider.Meter("test").Int64Counter("test.things")
	if err != nil {
		t.Fatal(err)
	}
	counter.Add(context.Background(), 3, metric.WithAttributes())
	srv := httptest.NewServer(p.MetricsHandler())
	defer srv.Close()
	resp, err := srv.Client().Get(srv.URL)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	body, _ := io.ReadAll(resp.Body)
	if !strings.Contains(string(body), "test_things_total") || !strings.Contains(string(body), `service_name="mcpexec"`) {
		t.Errorf("metrics page:\n%s", body)
	}
}
