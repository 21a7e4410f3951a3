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

// Audit lists an Exec run's nested calls in the order they were started,
// what the script stored in its conversation's state, and the return value
// kept by reference.
type Audit struct {
	Calls []CallRecord `json:"calls"`
	// Omitted counts the calls made past MaxAuditCalls, which are not
	// listed.
	Omitted int `json:"omitted,omitempty"`
	// State counts the script's stores and loads; nil when it made none.
	State *StateRecord `json:"state,omitempty"`
	// Result is the return value kept by reference; nil when the text
	// held the whole value.
	Result *ResultRecord `json:"result,omitempty"`
}

// StateRecord is what a run did with its conversation's state.
type StateRecord struct {
	// Stores counts store calls that succeeded (removals included),
	// StoredBytes the bytes of the values they stored.
	Stores      int   `json:"stores"`
	StoredBytes int64 `json:"storedBytes"`
	// Loads counts load calls that found a value, LoadedBytes its bytes.
	Loads       int   `json:"loads"`
	LoadedBytes int64 `json:"loadedBytes"`
}

// ResultRecord names a return value kept by reference.
type ResultRecord struct {
	// URI names it (mcpexec://results/<id>); empty when the call had no
	// state to keep it in and only the host received it.
	URI   string `json:"uri,omitempty"`
	Bytes int64  `json:"bytes"`
	// Dropped are the results dropped from the state to make room for it.
	Dropped []string `json:"dropped,omitempty"`
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

// Stored records a store call that succeeded, of bytes.
func (l *AuditLog) Stored(bytes int) {
	l.state(func(r *StateRecord) { r.Stores++; r.StoredBytes += int64(bytes) })
}

// Loaded records a load call that found a value of bytes.
func (l *AuditLog) Loaded(bytes int) {
	l.state(func(r *StateRecord) { r.Loads++; r.LoadedBytes += int64(bytes) })
}

func (l *AuditLog) state(update func(*StateRecord)) {
	if l == nil {
		return
	}
	l.mu.Lock()
	defer l.mu.Unlock()
	if l.audit.State == nil {
		l.audit.State = &StateRecord{}
	}
	update(l.audit.State)
}

// Kept records the return value kept by reference.
func (l *AuditLog) Kept(r ResultRecord) {
	if l == nil {
		return
	}
	l.mu.Lock()
	defer l.mu.Unlock()
	l.audit.Result = &r
}

// Audit returns a copy of the audit as it is now.
func (l *AuditLog) Audit() Audit {
	if l == nil {
		return Audit{}
	}
	l.mu.Lock()
	defer l.mu.Unlock()
	a := Audit{Calls: append([]CallRecord(nil), l.audit.Calls...), Omitted: l.audit.Omitted}
	if l.audit.State != nil {
		s := *l.audit.State
		a.State = &s
	}
	if l.audit.Result != nil {
		r := *l.audit.Result
		a.Result = &r
	}
	return a
}
