package sandbox

import (
	"time"

	"github.com/mcpexec/mcpexec/state"
)

// Limits bound one run. Zero fields take the defaults below. None of these
// numbers ever appears in text the model reads: changing a limit is tuning,
// and tuning must not change the prompt.
type Limits struct {
	// Timeout is the wall-clock budget of the whole run.
	Timeout time.Duration
	// MaxCalls caps nested calls (tool calls and searches); the call over the
	// cap is rejected, the script goes on.
	MaxCalls int
	// MaxLogChars caps the console output kept for the model.
	MaxLogChars int
	// MaxResultChars caps the serialized return value kept for the model.
	MaxResultChars int
	// MaxImages caps the images collected from nested calls.
	MaxImages int
	// MaxArgBytes caps the JSON size of one call's arguments.
	MaxArgBytes int
	// MaxStateBytes is what the run's state holds in all
	// (Request.State): a value larger than that is refused before it
	// leaves the sandbox.
	MaxStateBytes int64
	// MaxKeptBytes is the largest return value kept whole by reference
	// (Request.Reference): a larger one is only measured.
	MaxKeptBytes int64
	// Locale and TimeZone are no bounds but travel with them to the
	// worker: Intl's default locale (a BCP 47 tag) and time zone (an IANA
	// name) in the run's realm. Empty: en-US and UTC.
	Locale, TimeZone string
}

// Defaults used for zero Limits fields.
const (
	DefaultTimeout        = 30 * time.Second
	DefaultMaxCalls       = 100
	DefaultMaxLogChars    = 20_000
	DefaultMaxResultChars = 40_000
	DefaultMaxImages      = 8
	DefaultMaxArgBytes    = 4 << 20
)

// withDefaults fills zero fields.
func (l Limits) withDefaults() Limits {
	if l.Timeout <= 0 {
		l.Timeout = DefaultTimeout
	}
	if l.MaxCalls <= 0 {
		l.MaxCalls = DefaultMaxCalls
	}
	if l.MaxLogChars <= 0 {
		l.MaxLogChars = DefaultMaxLogChars
	}
	if l.MaxResultChars <= 0 {
		l.MaxResultChars = DefaultMaxResultChars
	}
	if l.MaxImages <= 0 {
		l.MaxImages = DefaultMaxImages
	}
	if l.MaxArgBytes <= 0 {
		l.MaxArgBytes = DefaultMaxArgBytes
	}
	if l.MaxStateBytes <= 0 {
		l.MaxStateBytes = state.DefaultMaxBytes
	}
	if l.MaxKeptBytes <= 0 {
		l.MaxKeptBytes = state.DefaultMaxResultBytes
	}
	return l
}
