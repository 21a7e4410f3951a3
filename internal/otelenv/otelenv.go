// Package otelenv builds OpenTelemetry providers from the standard OTEL_*
// environment variables, for the command-line tool: the library itself
// takes providers and reads no environment.
//
// Exporters come from go.opentelemetry.io/contrib/exporters/autoexport,
// which implements the specification's OTEL_TRACES_EXPORTER and
// OTEL_METRICS_EXPORTER (otlp, console, none; prometheus for metrics) and
// OTEL_EXPORTER_OTLP_PROTOCOL (grpc, http/protobuf) with every per-signal
// endpoint, header and timeout variable. One rule is added before it: a
// signal none of whose variables is set stays off, so that a run with no
// OTEL_* variables exports nothing and connects nowhere (autoexport alone
// would default to OTLP on localhost).
package otelenv

import (
	"context"
	"errors"
	"net/http"
	"os"
	"strings"

	"github.com/prometheus/client_golang/prometheus"
	"github.com/prometheus/client_golang/prometheus/promhttp"
	"go.opentelemetry.io/contrib/exporters/autoexport"
	promexporter "go.opentelemetry.io/otel/exporters/prometheus"
	"go.opentelemetry.io/otel/metric"
	sdkmetric "go.opentelemetry.io/otel/sdk/metric"
	"go.opentelemetry.io/otel/sdk/resource"
	sdktrace "go.opentelemetry.io/otel/sdk/trace"
	semconv "go.opentelemetry.io/otel/semconv/v1.41.0"
	"go.opentelemetry.io/otel/trace"
)

// Options add what the environment does not say.
type Options struct {
	// ServiceName is service.name unless OTEL_SERVICE_NAME (or
	// OTEL_RESOURCE_ATTRIBUTES) sets it.
	ServiceName, ServiceVersion string
	// Prometheus also serves the metrics for scraping (MetricsHandler),
	// whatever the environment says of metrics.
	Prometheus bool
	// BatchSpans exports spans in batches in the background (a server);
	// false exports each span as it ends (a one-shot run, whose spans are
	// then all out when it shuts down, however it ends).
	BatchSpans bool
}

// Providers are the tracer and meter providers the environment asked for;
// a nil field is a signal switched off.
type Providers struct {
	TracerProvider trace.TracerProvider
	MeterProvider  metric.MeterProvider

	tracer   *sdktrace.TracerProvider
	meter    *sdkmetric.MeterProvider
	registry *prometheus.Registry
}

// Signal environment variables: any one of them set turns the signal on.
var (
	traceVars  = []string{"OTEL_TRACES_EXPORTER", "OTEL_EXPORTER_OTLP_ENDPOINT", "OTEL_EXPORTER_OTLP_TRACES_ENDPOINT"}
	metricVars = []string{"OTEL_METRICS_EXPORTER", "OTEL_EXPORTER_OTLP_ENDPOINT", "OTEL_EXPORTER_OTLP_METRICS_ENDPOINT"}
)

func anySet(names []string) bool {
	for _, n := range names {
		if strings.TrimSpace(os.Getenv(n)) != "" {
			return true
		}
	}
	return false
}

// FromEnv builds the providers. With OTEL_SDK_DISABLED=true, or no OTEL_*
// variable for a signal, that signal is off. Call Shutdown before exiting.
func FromEnv(ctx context.Context, opts Options) (p *Providers, err error) {
	p = &Providers{}
	defer func() {
		if err != nil {
			_ = p.Shutdown(context.Background())
		}
	}()
	disabled := strings.EqualFold(strings.TrimSpace(os.Getenv("OTEL_SDK_DISABLED")), "true")
	traces := !disabled && anySet(traceVars)
	metrics := !disabled && anySet(metricVars)
	if !traces && !metrics && !opts.Prometheus {
		return p, nil
	}
	res, err := resourceFor(ctx, opts)
	if err != nil {
		return p, err
	}
	if traces {
		exp, err := autoexport.NewSpanExporter(ctx)
		if err != nil {
			return p, err
		}
		if !autoexport.IsNoneSpanExporter(exp) {
			spans := sdktrace.WithSyncer(exp)
			if opts.BatchSpans {
				spans = sdktrace.WithBatcher(exp)
			}
			p.tracer = sdktrace.NewTracerProvider(spans, sdktrace.WithResource(res))
			p.TracerProvider = p.tracer
		}
	}
	var readers []sdkmetric.Option
	if metrics {
		reader, err := autoexport.NewMetricReader(ctx)
		if err != nil {
			return p, err
		}
		if !autoexport.IsNoneMetricReader(reader) {
			readers = append(readers, sdkmetric.WithReader(reader))
		}
	}
	if opts.Prometheus {
		p.registry = prometheus.NewRegistry()
		reader, err := promexporter.New(promexporter.WithRegisterer(p.registry))
		if err != nil {
			return p, err
		}
		readers = append(readers, sdkmetric.WithReader(reader))
	}
	if len(readers) > 0 {
		p.meter = sdkmetric.NewMeterProvider(append(readers, sdkmetric.WithResource(res))...)
		p.MeterProvider = p.meter
	}
	return p, nil
}

// resourceFor describes this process: service.name and version, the SDK,
// and OTEL_SERVICE_NAME / OTEL_RESOURCE_ATTRIBUTES, which win.
func resourceFor(ctx context.Context, opts Options) (*resource.Resource, error) {
	name := opts.ServiceName
	if name == "" {
		name = "mcpexec"
	}
	attrs := resource.WithAttributes(semconv.ServiceName(name))
	if opts.ServiceVersion != "" {
		attrs = resource.WithAttributes(semconv.ServiceName(name), semconv.ServiceVersion(opts.ServiceVersion))
	}
	return resource.New(ctx, attrs, resource.WithTelemetrySDK(), resource.WithFromEnv())
}

// MetricsHandler serves the metrics in the Prometheus text format, when
// Options.Prometheus asked for it; nil otherwise.
func (p *Providers) MetricsHandler() http.Handler {
	if p == nil || p.registry == nil {
		return nil
	}
	return promhttp.HandlerFor(p.registry, promhttp.HandlerOpts{})
}

// ForceFlush exports what is buffered now, and collects and exports the
// metrics: a one-shot run calls it while what the metrics observe is still
// there.
func (p *Providers) ForceFlush(ctx context.Context) error {
	if p == nil {
		return nil
	}
	var errs []error
	if p.tracer != nil {
		errs = append(errs, p.tracer.ForceFlush(ctx))
	}
	if p.meter != nil {
		errs = append(errs, p.meter.ForceFlush(ctx))
	}
	return errors.Join(errs...)
}

// Shutdown exports what is still buffered and stops the exporters. A
// one-shot run calls it before exiting, so it loses no span.
func (p *Providers) Shutdown(ctx context.Context) error {
	if p == nil {
		return nil
	}
	var errs []error
	if p.tracer != nil {
		errs = append(errs, p.tracer.Shutdown(ctx))
	}
	if p.meter != nil {
		errs = append(errs, p.meter.Shutdown(ctx))
	}
	return errors.Join(errs...)
}
