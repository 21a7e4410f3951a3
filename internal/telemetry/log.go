package telemetry

import (
	"context"

	"github.com/rs/zerolog"
	"go.opentelemetry.io/otel/trace"
)

// LogHook adds trace_id and span_id to a zerolog line logged with the
// context of a traced call (Event.Ctx), so that logs and traces join.
type LogHook struct{}

// Run implements zerolog.Hook.
func (LogHook) Run(e *zerolog.Event, _ zerolog.Level, _ string) {
	if sc := trace.SpanContextFromContext(e.GetCtx()); sc.IsValid() {
		e.Str("trace_id", sc.TraceID().String()).Str("span_id", sc.SpanID().String())
	}
}

// Logger returns logger with the trace_id and span_id of ctx's span as
// fields of every line, or logger itself when ctx carries none.
func Logger(ctx context.Context, logger zerolog.Logger) zerolog.Logger {
	sc := trace.SpanContextFromContext(ctx)
	if !sc.IsValid() {
		return logger
	}
	return logger.With().Str("trace_id", sc.TraceID().String()).Str("span_id", sc.SpanID().String()).Logger()
}
