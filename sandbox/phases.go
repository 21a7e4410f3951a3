package sandbox

import (
	"sync"
	"time"

	"github.com/mcpexec/mcpexec/internal/telemetry"
)

// A worker whose host traces the run (the start frame carries a sampled
// trace context) times the stretches of the run the host cannot see, and
// sends them back in the done frame; the host makes them child spans of the
// run. Nothing is timed or sent otherwise, and call frames never carry
// trace context: a nested call's span is the host's own.

// Phases of a run, as span names.
const (
	phasePrepare  = "mcpexec.script.prepare"  // the runtime, its lockdown and globals
	phaseCompile  = "mcpexec.script.compile"  // transform (TypeScript, lowering) and compile
	phaseEvaluate = "mcpexec.script.evaluate" // the script, until it settles
)

// phaseRecord is one phase as it crosses in a done frame: Unix nanoseconds
// on the worker's clock (the host's, on the same machine).
type phaseRecord struct {
	Name   string `json:"n"`
	Start  int64  `json:"s"`
	End    int64  `json:"e"`
	Failed bool   `json:"f,omitempty"`
}

// phaseLog collects a run's phases; a nil *phaseLog times nothing.
type phaseLog struct {
	mu      sync.Mutex
	records []phaseRecord
}

// phase is one phase being timed.
type phase struct {
	log   *phaseLog
	name  string
	start time.Time
}

func (l *phaseLog) begin(name string) phase {
	if l == nil {
		return phase{}
	}
	return phase{log: l, name: name, start: time.Now()}
}

func (p phase) end(failed bool) {
	if p.log == nil {
		return
	}
	p.log.mu.Lock()
	defer p.log.mu.Unlock()
	p.log.records = append(p.log.records, phaseRecord{Name: p.name, Start: p.start.UnixNano(), End: time.Now().UnixNano(), Failed: failed})
}

func (l *phaseLog) taken() []phaseRecord {
	if l == nil {
		return nil
	}
	l.mu.Lock()
	defer l.mu.Unlock()
	return append([]phaseRecord(nil), l.records...)
}

// spansOf turns a done frame's phases into what telemetry records.
func spansOf(records []phaseRecord) []telemetry.Phase {
	out := make([]telemetry.Phase, len(records))
	for i, r := range records {
		out[i] = telemetry.Phase{Name: r.Name, Start: time.Unix(0, r.Start), End: time.Unix(0, r.End), Failed: r.Failed}
	}
	return out
}
