package telemetry

import (
	"context"
	"time"

	"go.opentelemetry.io/otel/attribute"
	"go.opentelemetry.io/otel/codes"
	"go.opentelemetry.io/otel/metric"
	semconv "go.opentelemetry.io/otel/semconv/v1.41.0"
	"go.opentelemetry.io/otel/trace"
)

// Scope is the instrumentation scope of every span and instrument.
const Scope = "github.com/mcpexec/mcpexec"

// Options choose where telemetry goes. Nil providers switch that signal off.
type Options struct {
	TracerProvider trace.TracerProvider
	MeterProvider  metric.MeterProvider
	// RecordArguments adds each nested call's arguments to its span. Off by
	// default: arguments may hold anything a script passes on.
	RecordArguments bool
}

// Telemetry instruments one System. A nil *Telemetry records nothing.
type Telemetry struct {
	tracer     trace.Tracer // nil: tracing off
	metrics    *metrics     // nil: metrics off
	recordArgs bool
}

// New returns the instrumentation for opts, or nil when both providers are
// nil.
func New(opts Options) (*Telemetry, error) {
	if opts.TracerProvider == nil && opts.MeterProvider == nil {
		return nil, nil
	}
	t := &Telemetry{recordArgs: opts.RecordArguments}
	if opts.TracerProvider != nil {
		t.tracer = opts.TracerProvider.Tracer(Scope)
	}
	if opts.MeterProvider != nil {
		m, err := newMetrics(opts.MeterProvider.Meter(Scope))
		if err != nil {
			return nil, err
		}
		t.metrics = m
	}
	return t, nil
}

// Attribute keys of mcpexec's own, beside the semantic conventions'.
const (
	keyExecOutcome   = attribute.Key("mcpexec.exec.outcome")
	keyExecCalls     = attribute.Key("mcpexec.exec.calls")
	keyCallOutcome   = attribute.Key("mcpexec.call.outcome")
	keyCallBytes     = attribute.Key("mcpexec.call.result_bytes")
	keyServer        = attribute.Key("mcpexec.server.name")
	keyWorkerReused  = attribute.Key("mcpexec.worker.reused")
	keyDecision      = attribute.Key("mcpexec.permission.decision")
	keyAnswer        = attribute.Key("mcpexec.permission.answer")
	keyWorkerCause   = attribute.Key("mcpexec.worker.cause")
	keyCatalogTools  = attribute.Key("mcpexec.catalog.tools")
	keyCatalogTokens = attribute.Key("mcpexec.catalog.tokens")
	keyCatalogKind   = attribute.Key("mcpexec.catalog.kind")
	keyServerState   = attribute.Key("mcpexec.server.state")
	keyWaited        = attribute.Key("mcpexec.person.wait_seconds")
	keyStateKind     = attribute.Key("mcpexec.state.kind")
)

// ExecToolName is the Exec tool's name as spans and metrics show it.
const ExecToolName = "Exec"

// Exec is one Exec call under observation.
type Exec struct {
	t     *Telemetry
	span  trace.Span
	start time.Time
}

// StartExec starts the span of one Exec call, a child of ctx's span (in the
// gateway, the client's). It is an execute_tool span (GenAI conventions);
// a call the gateway serves (WithServerRequest) is the MCP server span
// tools/call Exec instead, with the session's attributes.
func (t *Telemetry) StartExec(ctx context.Context) (context.Context, *Exec) {
	if t == nil {
		return ctx, nil
	}
	e := &Exec{t: t, start: time.Now()}
	if t.tracer != nil {
		name, kind := "execute_tool "+ExecToolName, trace.SpanKindInternal
		attrs := []attribute.KeyValue{semconv.GenAIOperationNameExecuteTool, semconv.GenAIToolName(ExecToolName)}
		if req, ok := ctx.Value(serverRequestKey{}).(ServerRequest); ok {
			name, kind = "tools/call "+ExecToolName, trace.SpanKindServer
			attrs = append(attrs, req.attributes()...)
		}
		ctx, e.span = t.tracer.Start(ctx, name, trace.WithSpanKind(kind), trace.WithAttributes(attrs...))
	}
	return ctx, e
}

// End ends the Exec call: outcome is "ok" or its failure class ("error",
// "timeout", "aborted", "out_of_memory", "crash", "unavailable",
// "refused"), calls the number of nested calls it made.
func (e *Exec) End(outcome string, calls int) {
	if e == nil {
		return
	}
	if e.span != nil {
		e.span.SetAttributes(keyExecOutcome.String(outcome), keyExecCalls.Int(calls))
		failed(e.span, outcome, describeExecOutcome(outcome))
		e.span.End()
	}
	if m := e.t.metrics; m != nil {
		m.execDuration.Record(context.Background(), time.Since(e.start).Seconds(),
			metric.WithAttributeSet(attribute.NewSet(keyExecOutcome.String(outcome))))
	}
}

// failed marks span as failed when outcome is not "ok": error.type names
// the class and the status says what it means.
func failed(span trace.Span, outcome, description string) {
	if outcome == OutcomeOK || outcome == OutcomeInputRequired {
		return
	}
	span.SetAttributes(semconv.ErrorTypeKey.String(outcome))
	span.SetStatus(codes.Error, description)
}

// OutcomeOK is the outcome of everything that succeeded.
const OutcomeOK = "ok"

// OutcomeInputRequired is the outcome of an Exec call that returned
// because its run waits for a person's answers: not a failure.
const OutcomeInputRequired = "input_required"

// describeExecOutcome is the status description of a failed Exec or run:
// the cause in words, never the script's own error text (which may carry
// values).
func describeExecOutcome(outcome string) string {
	switch outcome {
	case "timeout":
		return "timeout: the script ran over its time budget"
	case "aborted":
		return "aborted: the call was cancelled before the script finished"
	case "expired":
		return "expired: the run waited for a person's answer longer than it may"
	case "out_of_memory":
		return "out_of_memory: the worker process was killed over its memory cap"
	case "crash":
		return "crash: the worker process stopped unexpectedly"
	case "unavailable":
		return "unavailable: no worker process could be had for the script"
	case "refused":
		return "refused: the call was not run (arguments, settings or permissions)"
	case "error":
		return "error: the script threw or did not compile"
	}
	return outcome
}

// Run is one script run on one worker.
type Run struct {
	t        *Telemetry
	span     trace.Span
	start    time.Time
	acquired bool // the run had a worker
}

// StartRun starts the span of a script run, a child of the Exec span in
// ctx. The run's context (the returned ctx) is what crosses to the worker.
func (t *Telemetry) StartRun(ctx context.Context) (context.Context, *Run) {
	if t == nil {
		return ctx, nil
	}
	r := &Run{t: t, start: time.Now()}
	if t.tracer != nil {
		ctx, r.span = t.tracer.Start(ctx, "mcpexec.sandbox.run")
	}
	return ctx, r
}

// Acquired records that the run got its worker: a fresh one (spawned, or
// warm and never used) or one reused after earlier runs.
func (r *Run) Acquired(reused bool) {
	if r == nil {
		return
	}
	r.acquired = true
	if r.span == nil {
		return
	}
	r.span.SetAttributes(keyWorkerReused.Bool(reused))
	r.span.AddEvent("worker acquired")
}

// End ends the run with its outcome (see Exec.End). A run that had a worker
// and cost it (timeout, out of memory, crash, abort) counts the worker as
// killed, by cause.
func (r *Run) End(outcome string) {
	if r == nil {
		return
	}
	if r.span != nil {
		failed(r.span, outcome, describeExecOutcome(outcome))
		r.span.End()
	}
	if m := r.t.metrics; m != nil && r.acquired {
		if cause := killCause(outcome); cause != "" {
			m.workersKilled.Add(context.Background(), 1, metric.WithAttributeSet(attribute.NewSet(keyWorkerCause.String(cause))))
		}
	}
}

// killCause is why a run's outcome cost its worker, or "".
func killCause(outcome string) string {
	switch outcome {
	case "timeout":
		return "budget"
	case "out_of_memory":
		return "memory"
	case "crash":
		return "crash"
	case "aborted":
		return "abort"
	}
	return ""
}

// Phase is a stretch of a run that the worker process timed: the host turns
// each into a child span of the run.
type Phase struct {
	Name       string
	Start, End time.Time
	Failed     bool
}

// RecordPhases adds the worker's phases to the run span in ctx, with the
// worker's own timestamps.
func RecordPhases(ctx context.Context, phases []Phase) {
	parent := trace.SpanFromContext(ctx)
	if len(phases) == 0 || !parent.IsRecording() {
		return
	}
	tracer := parent.TracerProvider().Tracer(Scope)
	for _, p := range phases {
		_, span := tracer.Start(ctx, p.Name, trace.WithTimestamp(p.Start))
		if p.Failed {
			span.SetStatus(codes.Error, "")
		}
		span.End(trace.WithTimestamp(p.End))
	}
}
