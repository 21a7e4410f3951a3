package exectool

import (
	"encoding/json"
	"sync"
	"time"
)

// The call audit is what an Exec run did, for the host and an operator:
// each nested call that reached the funnel, with its outcome, duration and
// the size of what it returned. It is never model input (the live summary
// and the result text are), and it holds no argument or result values.

// MaxAuditCalls bounds the calls an audit lists. A run may make many more
// (a loop of 10,000 calls): past the first MaxAuditCalls, calls are only
// counted (Audit.Omitted), so the audit of any run stays a few tens of KB.
const MaxAuditCalls = 256

// Outcomes of a nested call in the audit and in telemetry, besides the
// pool's own failure kinds.
const (
	OutcomeOK = "ok"
	// OutcomeUnfinished is a call still running when its Exec returned (an
	// abort or a timeout ended the run first).
	OutcomeUnfinished = "unfinished"
)

// Audit lists an Exec run's nested calls in the order they were started.
type Audit struct {
	Calls []CallRecord `json:"calls"`
	// Omitted counts the calls made past MaxAuditCalls, which are not
	// listed.
	Omitted int `json:"omitted,omitempty"`
}

// CallRecord is one nested call.
type CallRecord struct {
	// Tool is the full name the script called (mcp__server__tool), or
	// SearchTool for the in-sandbox search.
	Tool string `json:"tool"`
	// Outcome is "ok", a low-cardinality failure class ("tool_error",
	// "denied", "server_down", "unknown_tool", "timeout", "cancelled",
	// "connection_lost", "protocol_error", "reply_too_large", "failed"), or
	// "unfinished".
	Outcome string `json:"outcome"`
	// Duration runs from the moment the host received the call to its
	// answer (the permission wait included).
	Duration time.Duration `json:"-"`
	// Bytes is the size of the value handed to the script plus the images
	// beside it; 0 for a failure.
	Bytes int `json:"bytes"`
}

// SearchTool names the in-sandbox search in an audit.
const SearchTool = "$codemode.search"

// MarshalJSON writes Duration as durationMs, a number of milliseconds.
func (r CallRecord) MarshalJSON() ([]byte, error) {
	type plain CallRecord
	return json.Marshal(struct {
		plain
		DurationMs float64 `json:"durationMs"`
	}{plain(r), float64(r.Duration.Microseconds()) / 1000})
}

// AuditLog collects a run's audit while its calls run concurrently. The
// zero value is ready; a nil *AuditLog records nothing.
type AuditLog struct {
	mu    sync.Mutex
	audit Audit
}

// Begin records a call as started and returns its slot for Finish (-1 past
// the cap).
func (l *AuditLog) Begin(tool string) int {
	if l == nil {
		return -1
	}
	l.mu.Lock()
	defer l.mu.Unlock()
	if len(l.audit.Calls) >= MaxAuditCalls {
		l.audit.Omitted++
		return -1
	}
	l.audit.Calls = append(l.audit.Calls, CallRecord{Tool: tool, Outcome: OutcomeUnfinished})
	return len(l.audit.Calls) - 1
}

// Finish records how the call in slot ended.
func (l *AuditLog) Finish(slot int, outcome string, d time.Duration, bytes int) {
	if l == nil || slot < 0 {
		return
	}
	l.mu.Lock()
	defer l.mu.Unlock()
	c := &l.audit.Calls[slot]
	c.Outcome, c.Duration, c.Bytes = outcome, d, bytes
}

// Audit returns a copy of the audit as it is now.
func (l *AuditLog) Audit() Audit {
	if l == nil {
		return Audit{}
	}
	l.mu.Lock()
	defer l.mu.Unlock()
	return Audit{Calls: append([]CallRecord(nil), l.audit.Calls...), Omitted: l.audit.Omitted}
}
