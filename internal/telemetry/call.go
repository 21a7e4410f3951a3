package telemetry

import (
	"context"
	"strings"
	"time"

	"go.opentelemetry.io/otel/attribute"
	"go.opentelemetry.io/otel/metric"
	semconv "go.opentelemetry.io/otel/semconv/v1.41.0"
	"go.opentelemetry.io/otel/trace"
)

// Call is one nested call under observation.
type Call struct {
	t      *Telemetry
	span   trace.Span
	start  time.Time
	tool   string
	server string
}

// StartCall starts the span of one nested call, a child of the run span in
// ctx: an execute_tool span named after the tool the script called. args
// are recorded only with Options.RecordArguments.
func (t *Telemetry) StartCall(ctx context.Context, tool string, args []byte) (context.Context, *Call) {
	if t == nil {
		return ctx, nil
	}
	c := &Call{t: t, start: time.Now(), tool: tool, server: ServerOf(tool)}
	if t.tracer != nil {
		attrs := []attribute.KeyValue{semconv.GenAIOperationNameExecuteTool, semconv.GenAIToolName(tool)}
		if c.server != "" {
			attrs = append(attrs, keyServer.String(c.server))
		}
		if t.recordArgs && len(args) > 0 {
			attrs = append(attrs, semconv.GenAIToolCallArgumentsKey.String(string(args)))
		}
		ctx, c.span = t.tracer.Start(ctx, "execute_tool "+tool, trace.WithAttributes(attrs...))
	}
	return ctx, c
}

// End ends the call with its outcome ("ok" or a failure class) and the
// bytes it handed back.
func (c *Call) End(outcome string, bytes int) {
	if c == nil {
		return
	}
	if c.span != nil {
		c.span.SetAttributes(keyCallOutcome.String(outcome), keyCallBytes.Int(bytes))
		failed(c.span, outcome, "the tool call failed: "+outcome)
		c.span.End()
	}
	if m := c.t.metrics; m != nil {
		m.callDuration.Record(context.Background(), time.Since(c.start).Seconds(), metric.WithAttributeSet(attribute.NewSet(
			keyServer.String(c.server), semconv.GenAIToolName(c.tool), keyCallOutcome.String(outcome))))
	}
}

// ServerOf is the server part of a full tool name (mcp__server__tool), the
// pool's grouping key; "" for other names.
func ServerOf(tool string) string {
	rest, ok := strings.CutPrefix(tool, "mcp__")
	if !ok {
		return ""
	}
	server, _, _ := strings.Cut(rest, "__")
	return server
}

// PermissionDecided records the permission gate's decision about a call on
// the call's span: "allow" or "deny" by a rule, or "ask".
func PermissionDecided(ctx context.Context, decision string) {
	span := trace.SpanFromContext(ctx)
	if !span.IsRecording() {
		return
	}
	span.AddEvent("permission", trace.WithAttributes(keyDecision.String(decision)))
}

// Prompt is the time a call waits for the person's answer.
type Prompt struct {
	t    *Telemetry
	span trace.Span
}

// StartPrompt starts the span of a permission question, a child of the
// call's span in ctx.
func (t *Telemetry) StartPrompt(ctx context.Context) (context.Context, *Prompt) {
	if t == nil {
		return ctx, nil
	}
	p := &Prompt{t: t}
	if t.tracer != nil && trace.SpanFromContext(ctx).IsRecording() {
		ctx, p.span = t.tracer.Start(ctx, "mcpexec.permission.prompt")
	}
	return ctx, p
}

// End ends the wait with the person's answer ("allow_once",
// "allow_always", "deny"), or "none" when no answer came (cancelled,
// failed).
func (p *Prompt) End(answer string) {
	if p == nil {
		return
	}
	if p.span != nil {
		p.span.SetAttributes(keyAnswer.String(answer))
		p.span.End()
	}
	if m := p.t.metrics; m != nil {
		m.prompts.Add(context.Background(), 1, metric.WithAttributeSet(attribute.NewSet(keyAnswer.String(answer))))
	}
}

// PersonAnswered records, on the span of a call in ctx, that the call waited
// for a person (a server's question: what) and how it was answered.
func PersonAnswered(ctx context.Context, what, answer string, waited time.Duration) {
	span := trace.SpanFromContext(ctx)
	if !span.IsRecording() {
		return
	}
	span.AddEvent(what, trace.WithAttributes(keyAnswer.String(answer), keyWaited.Float64(waited.Seconds())))
}
