package actors

import (
	"bytes"
	"encoding/json"
	"fmt"
	"strings"

	"github.com/rs/zerolog"

	"github.com/mcpexec/mcpexec/exectool"
	"github.com/mcpexec/mcpexec/internal/telemetry"
	"github.com/mcpexec/mcpexec/sandbox"
	"github.com/mcpexec/mcpexec/state"
)

// An Exec call's state: what its script stores and loads (the
// conversation's state.State, audited and measured), and its return value
// when too long for the model's text, gathered whole, kept in the state by
// reference and handed to the host.

// auditedState is the run's view of its conversation's state: every store
// and load that succeeds is counted in the call audit and the telemetry.
type auditedState struct {
	st        *state.State
	audit     *exectool.AuditLog
	telemetry *telemetry.Telemetry
}

func (a auditedState) Store(key string, value json.RawMessage) error {
	if err := a.st.Store(key, value); err != nil {
		return err
	}
	a.audit.Stored(len(value))
	a.telemetry.StateStored(telemetry.StateKey, len(value))
	return nil
}

func (a auditedState) Load(key string) (json.RawMessage, bool, error) {
	value, ok, err := a.st.Load(key)
	if ok && err == nil {
		a.audit.Loaded(len(value))
	}
	return value, ok, err
}

// wholeValue gathers one run's return value when it is too long for the
// text: the run's Reference, and what is done with the value after.
type wholeValue struct {
	st  *state.State // nil: the call has no state
	ref *sandbox.Reference
	buf bytes.Buffer
	// stored is the whole value once the run ended with one (finish).
	stored *exectool.Stored
}

// newWholeValue prepares a run's Reference, under an id reserved in st
// when the call has a state, and sets the limits the state's bounds
// decide.
func newWholeValue(st *state.State, limits *sandbox.Limits) *wholeValue {
	w := &wholeValue{st: st}
	w.ref = &sandbox.Reference{Sink: &w.buf}
	if st != nil {
		w.ref.ID = st.Reserve()
		bounds := st.Limits()
		limits.MaxStateBytes, limits.MaxKeptBytes = bounds.MaxBytes, bounds.MaxResultBytes
	}
	return w
}

// finish keeps the run's return value in the state when it is too long for
// the text, and sets w.stored to it for the host (nil when the text holds
// it all); it returns the result with the text as the model reads it: a
// result dropped to make room, or a value that could not be kept after
// all, is said there. The exec actor calls it once, as the run ends,
// whichever call (the one that started the run, or the one that resumed
// it) learns the end.
func (w *wholeValue) finish(run sandbox.Result, audit *exectool.AuditLog, tel *telemetry.Telemetry, logger zerolog.Logger) sandbox.Result {
	if !run.OK || run.Whole == nil || !run.Whole.Kept {
		if w.st != nil {
			w.st.Release(w.ref.ID)
		}
		return run
	}
	value := json.RawMessage(w.buf.Bytes())
	id := w.ref.ID
	var dropped []string
	if w.st != nil {
		var err error
		if dropped, err = w.st.Keep(id, value); err != nil {
			// The text names the reference: say it did not come about.
			logger.Warn().Err(err).Str("result", id).Msg("exec: the return value could not be kept")
			run.Text += "\n\n" + msgNotKept(id, err)
			w.st.Release(id)
			id = ""
		}
		if len(dropped) > 0 {
			run.Text += "\n\n" + msgDropped(dropped)
		}
	}
	w.stored = exectool.NewStored(id, value, run.Whole.Chars)
	record := exectool.ResultRecord{URI: w.stored.URI, Bytes: int64(len(value))}
	for _, d := range dropped {
		record.Dropped = append(record.Dropped, state.URI(d))
	}
	audit.Kept(record)
	if id != "" {
		tel.StateStored(telemetry.StateResult, len(value))
	}
	return run
}

// msgDropped tells the model which earlier results were dropped to make
// room for this one.
func msgDropped(ids []string) string {
	uris := make([]string, len(ids))
	for i, id := range ids {
		uris[i] = state.URI(id)
	}
	if len(uris) == 1 {
		return fmt.Sprintf("[to make room for it, the earlier result %s was dropped]", uris[0])
	}
	return fmt.Sprintf("[to make room for it, the earlier results %s were dropped]", strings.Join(uris, ", "))
}

// msgNotKept tells the model the value the text names could not be kept.
func msgNotKept(id string, err error) string {
	return fmt.Sprintf("[%s could not be kept after all (%v): only the first part above can be read]", state.URI(id), err)
}
