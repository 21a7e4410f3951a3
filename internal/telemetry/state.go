package telemetry

import (
	"context"

	"go.opentelemetry.io/otel/metric"
)

// The kinds of bytes a conversation's state takes, as
// mcpexec.state.stored counts them.
const (
	// StateKey is a value a script stored under a key.
	StateKey = "key"
	// StateResult is a return value kept by reference.
	StateResult = "result"
)

// StateStored counts bytes put in a conversation's state: a value a script
// stored (kind StateKey) or a return value kept by reference
// (StateResult).
func (t *Telemetry) StateStored(kind string, bytes int) {
	if t == nil || t.metrics == nil {
		return
	}
	t.metrics.stateStored.Add(context.Background(), int64(bytes), metric.WithAttributes(keyStateKind.String(kind)))
}
