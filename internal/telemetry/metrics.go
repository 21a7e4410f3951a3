package telemetry

import (
	"context"
	"errors"

	"go.opentelemetry.io/otel/attribute"
	"go.opentelemetry.io/otel/metric"
	"go.opentelemetry.io/otel/semconv/v1.41.0/mcpconv"
)

// durationBuckets are the boundaries, in seconds, of every duration
// histogram: from a fast tool call to a long script.
var durationBuckets = []float64{0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30, 60, 300}

// metrics are the instruments that are recorded synchronously. The
// observed ones (workers alive, server state) are registered by Observe.
type metrics struct {
	meter         metric.Meter
	execDuration  metric.Float64Histogram
	callDuration  metric.Float64Histogram
	mcpDuration   metric.Float64Histogram
	workersKilled metric.Int64Counter
	prompts       metric.Int64Counter
	catalogTokens metric.Int64Histogram
	stateStored   metric.Int64Counter
}

func newMetrics(meter metric.Meter) (*metrics, error) {
	m := &metrics{meter: meter}
	var err, e error
	seconds := []metric.Float64HistogramOption{metric.WithUnit("s"), metric.WithExplicitBucketBoundaries(durationBuckets...)}
	m.execDuration, e = meter.Float64Histogram("mcpexec.exec.duration",
		append(seconds, metric.WithDescription("Duration of Exec calls, by outcome."))...)
	err = errors.Join(err, e)
	m.callDuration, e = meter.Float64Histogram("mcpexec.call.duration",
		append(seconds, metric.WithDescription("Duration of nested tool calls, by server, tool and outcome."))...)
	err = errors.Join(err, e)
	m.mcpDuration, e = meter.Float64Histogram(mcpconv.ClientOperationDuration{}.Name(),
		append(seconds, metric.WithDescription(mcpconv.ClientOperationDuration{}.Description()))...)
	err = errors.Join(err, e)
	m.workersKilled, e = meter.Int64Counter("mcpexec.sandbox.workers.killed", metric.WithUnit("{worker}"),
		metric.WithDescription("Worker processes killed or lost during a run, by cause: budget, memory, crash, abort."))
	err = errors.Join(err, e)
	m.prompts, e = meter.Int64Counter("mcpexec.permission.prompts", metric.WithUnit("{prompt}"),
		metric.WithDescription("Permission questions put to a person, by answer."))
	err = errors.Join(err, e)
	m.catalogTokens, e = meter.Int64Histogram("mcpexec.catalog.tokens", metric.WithUnit("{token}"),
		metric.WithDescription("Estimated tokens of each catalog message broadcast, by kind."),
		metric.WithExplicitBucketBoundaries(0, 100, 250, 500, 1000, 2000, 4000, 8000, 16000))
	err = errors.Join(err, e)
	m.stateStored, e = meter.Int64Counter("mcpexec.state.stored", metric.WithUnit("By"),
		metric.WithDescription("Bytes put in conversations' state: values scripts stored, and return values kept by reference, by kind."))
	err = errors.Join(err, e)
	return m, err
}

// WorkerStats are the worker pool's counts, read when metrics are
// collected.
type WorkerStats struct {
	Alive, Idle int
	// Spawned counts worker processes started; Restarted those started to
	// replace a worker that was spent (killed, crashed or retired).
	Spawned, Restarted int64
}

// ServerState is one configured MCP server's connection state.
type ServerState struct {
	Server, State string
}

// Observe registers the instruments read at collection time: the worker
// pool's counts and each server's connection state. Either function may be
// nil. The returned function unregisters them.
func (t *Telemetry) Observe(workers func() WorkerStats, servers func() []ServerState) (unregister func(), err error) {
	if t == nil || t.metrics == nil {
		return func() {}, nil
	}
	meter := t.metrics.meter
	alive, e1 := meter.Int64ObservableGauge("mcpexec.sandbox.workers", metric.WithUnit("{worker}"),
		metric.WithDescription("Worker processes alive, by state: idle or busy."))
	spawned, e2 := meter.Int64ObservableCounter("mcpexec.sandbox.workers.spawned", metric.WithUnit("{worker}"),
		metric.WithDescription("Worker processes started."))
	restarted, e3 := meter.Int64ObservableCounter("mcpexec.sandbox.workers.restarted", metric.WithUnit("{worker}"),
		metric.WithDescription("Worker processes started to replace a spent one."))
	state, e4 := meter.Int64ObservableGauge("mcpexec.server.connection", metric.WithUnit("{server}"),
		metric.WithDescription("Configured MCP servers by connection state (1 for the state each server is in)."))
	if err := errors.Join(e1, e2, e3, e4); err != nil {
		return nil, err
	}
	idle, busy := attribute.NewSet(attribute.String("state", "idle")), attribute.NewSet(attribute.String("state", "busy"))
	reg, err := meter.RegisterCallback(func(_ context.Context, o metric.Observer) error {
		if workers != nil {
			s := workers()
			o.ObserveInt64(alive, int64(s.Idle), metric.WithAttributeSet(idle))
			o.ObserveInt64(alive, int64(s.Alive-s.Idle), metric.WithAttributeSet(busy))
			o.ObserveInt64(spawned, s.Spawned)
			o.ObserveInt64(restarted, s.Restarted)
		}
		if servers != nil {
			for _, s := range servers() {
				o.ObserveInt64(state, 1, metric.WithAttributes(keyServer.String(s.Server), keyServerState.String(s.State)))
			}
		}
		return nil
	}, alive, spawned, restarted, state)
	if err != nil {
		return nil, err
	}
	return func() { _ = reg.Unregister() }, nil
}
