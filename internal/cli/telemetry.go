package cli

import (
	"context"
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
	"time"

	"github.com/mcpexec/mcpexec"
	"github.com/mcpexec/mcpexec/internal/otelenv"
)

// flushTimeout bounds the export of what is buffered when a command ends.
const flushTimeout = 5 * time.Second

// telemetry is a command's OpenTelemetry providers, from the OTEL_*
// environment, and the Prometheus endpoint serve may add.
type telemetry struct {
	providers *otelenv.Providers
	metrics   *http.Server
	served    chan struct{}
	log       io.Writer
}

// startTelemetry builds the providers the environment asks for and sets
// them on opts; with none, it sets nothing and connects nowhere. A server
// batches its spans; a one-shot run exports each as it ends.
func startTelemetry(ctx context.Context, p *program, f telemetryFlags, server bool, opts *mcpexec.Options, log io.Writer) (*telemetry, error) {
	var ln net.Listener
	if f.metrics != "" {
		var err error
		if ln, err = net.Listen("tcp", listenAddr(f.metrics)); err != nil {
			return nil, fmt.Errorf("--metrics: %w", err)
		}
	}
	providers, err := otelenv.FromEnv(ctx, otelenv.Options{
		ServiceName: p.name, ServiceVersion: version(), Prometheus: ln != nil, BatchSpans: server})
	if err != nil {
		if ln != nil {
			ln.Close()
		}
		return nil, fmt.Errorf("OpenTelemetry configuration: %w", err)
	}
	t := &telemetry{providers: providers, log: log}
	opts.TracerProvider, opts.MeterProvider, opts.TraceArguments = providers.TracerProvider, providers.MeterProvider, f.traceArgs
	if ln != nil {
		mux := http.NewServeMux()
		mux.Handle("/metrics", providers.MetricsHandler())
		t.metrics = &http.Server{Handler: mux, ReadHeaderTimeout: 10 * time.Second}
		t.served = make(chan struct{})
		fmt.Fprintf(log, "%s: serving metrics on http://%s/metrics\n", p.name, ln.Addr())
		go func() {
			defer close(t.served)
			if err := t.metrics.Serve(ln); err != nil && !errors.Is(err, http.ErrServerClosed) {
				fmt.Fprintf(log, "%s: metrics endpoint: %v\n", p.name, err)
			}
		}()
	}
	return t, nil
}

// flush exports the metrics and the spans buffered so far. A one-shot run
// calls it before closing its System, whose worker pool and servers the
// metrics observe.
func (t *telemetry) flush() {
	ctx, cancel := context.WithTimeout(context.Background(), flushTimeout)
	defer cancel()
	if err := t.providers.ForceFlush(ctx); err != nil {
		fmt.Fprintf(t.log, "exporting telemetry: %v\n", err)
	}
}

// shutdown stops the metrics endpoint and exports what is still buffered,
// so a one-shot run loses no span.
func (t *telemetry) shutdown() {
	ctx, cancel := context.WithTimeout(context.Background(), flushTimeout)
	defer cancel()
	if t.metrics != nil {
		_ = t.metrics.Shutdown(ctx)
		<-t.served
	}
	if err := t.providers.Shutdown(ctx); err != nil {
		fmt.Fprintf(t.log, "exporting telemetry: %v\n", err)
	}
}
