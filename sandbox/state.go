package sandbox

import (
	"encoding/json"
	"io"

	"github.com/dop251/goja"

	"github.com/mcpexec/mcpexec/state"
)

// State is what a run's store(key, value) and load(key) reach: the
// conversation's state, kept by the host across runs (a *state.State is
// one). Its errors are shown to the script as they are.
type State interface {
	// Store stores value (JSON) under key; an empty value removes the key.
	Store(key string, value json.RawMessage) error
	// Load returns what key names; ok is false when nothing is there.
	Load(key string) (value json.RawMessage, ok bool, err error)
}

// Reference asks a run for a return value too long for the model's text:
// the text shows its first part and names it by ID, and the whole value's
// JSON goes to Sink as it is written, in pieces, never held whole in the
// sandbox (up to Limits.MaxKeptBytes; a longer value is only measured).
// Result.Whole says what was written.
type Reference struct {
	// ID names the value in the text (load(ID) in a later script); empty
	// when the run's conversation keeps no state to load it from.
	ID string
	// Sink receives the value's JSON. It is written on the run's
	// goroutine, or a worker connection's reader, never after Run
	// returns.
	Sink io.Writer
}

// Whole is a return value too long for Result.Text, when the run had a
// Reference.
type Whole struct {
	// Bytes is the size of its JSON; Chars that of its text as the model
	// reads it (a string's own characters, any other value's JSON).
	Bytes int64 `json:"bytes"`
	Chars int64 `json:"chars"`
	// Kept: all Bytes were written to the Reference's Sink. False when the
	// value is longer than Limits.MaxKeptBytes.
	Kept bool `json:"kept"`
}

// The script's state functions. Both are synchronous: a script writes
// load("issues").length, and awaiting either does no harm.

func (x *execution) installState() {
	vm := x.realm.vm
	_ = vm.Set("store", x.realm.newFunction("store", x.store))
	_ = vm.Set("load", x.realm.newFunction("load", x.load))
}

// hasState reports whether the run reaches a state: its own, or its
// host's across a worker's pipe.
func (x *execution) hasState() bool { return x.req.State != nil || x.req.stateOverPipe }

// store is store(key, value): the value crosses as a return value does
// (functions and "__proto__" keys left out, a Date as its ISO string), and
// undefined removes the key.
func (x *execution) store(call goja.FunctionCall) goja.Value {
	key := x.stateKey("store", call.Argument(0))
	value := call.Argument(1)
	if goja.IsUndefined(value) {
		x.throwIf(x.stateCall(callKindStore, key, nil))
		return goja.Undefined()
	}
	if x.req.stateOverPipe {
		x.throwIf(x.storeOverPipe(key, value))
		return goja.Undefined()
	}
	o := x.newOutbound(resultMode, int(x.limits.MaxStateBytes))
	o.limit = int(x.limits.MaxStateBytes)
	skipped, err := x.walkForState(o, value)
	if skipped {
		// A bare function has no JSON form: it is stored as undefined is.
		x.throwIf(x.stateCall(callKindStore, key, nil))
		return goja.Undefined()
	}
	x.throwIf(err)
	x.throwIf(x.req.State.Store(key, o.buf))
	return goja.Undefined()
}

// load is load(key): the value as a tool result crosses, or undefined.
func (x *execution) load(call goja.FunctionCall) goja.Value {
	key := x.stateKey("load", call.Argument(0))
	var (
		value json.RawMessage
		found bool
		err   error
	)
	if x.req.stateOverPipe {
		value, err = x.acrossPipe(callKindLoad, key, nil, nil)
		found = err == nil && len(value) > 0
	} else {
		value, found, err = x.req.State.Load(key)
	}
	x.throwIf(err)
	if !found {
		return goja.Undefined()
	}
	v, err := fromJSON(x.realm, value)
	if err != nil {
		x.logger.Warn().Err(err).Msg("sandbox: state returned a value that is not JSON")
		panic(x.realm.newError(msgStateUnreadable))
	}
	return v
}

// stateKey checks a state function's key: the run must have a state, and
// the key must be a string.
func (x *execution) stateKey(function string, v goja.Value) string {
	if !x.hasState() {
		panic(x.realm.newError(msgNoState(function)))
	}
	key, isString := stringValue(v)
	if !isString {
		panic(x.realm.vm.NewTypeError(msgStateKey(function)))
	}
	return key
}

// walkForState writes value to o; skipped is true when value has no JSON
// form. What its getters throw comes back as a *thrownError, for throwIf to
// throw again.
func (x *execution) walkForState(o *outbound, value goja.Value) (skipped bool, err error) {
	err = x.guard(func() (err error) {
		skipped, err = o.value(value, 0)
		return err
	})
	switch err.(type) {
	case nil:
		return skipped, nil
	case *stopError, *thrownError:
		return false, err
	}
	if err == errTooLarge {
		return false, &state.FullError{Limit: x.limits.MaxStateBytes}
	}
	return false, plainError("store failed: the value cannot be stored: " + describeStateValue(err))
}

func describeStateValue(err error) string {
	if e, ok := err.(*exportError); ok && len(e.path) == 0 {
		return "it is " + e.reason + "."
	}
	return "its " + err.Error() + "."
}

// stateCall stores (value; nil removes) or loads key, in this process or
// across the worker's pipe.
func (x *execution) stateCall(kind, key string, value json.RawMessage) error {
	if x.req.stateOverPipe {
		_, err := x.acrossPipe(kind, key, value, nil)
		return err
	}
	return x.req.State.Store(key, value)
}

// throwIf throws err's message in the script, as an Error of its realm; a
// stop interrupts the run instead.
func (x *execution) throwIf(err error) {
	if err == nil {
		return
	}
	// A stop has already interrupted the runtime: the Error thrown here
	// ends the run as soon as the engine looks.
	if t, ok := err.(*thrownError); ok {
		panic(t.value)
	}
	panic(x.realm.newError(err.Error()))
}

// storeOverPipe stores value in the host's state across a worker's pipe:
// its JSON goes in parts as it is written, the last in the call frame.
func (x *execution) storeOverPipe(key string, value goja.Value) error {
	h := x.req.Host.(*pipeHost)
	_, err := x.acrossPipe(callKindStore, key, nil, func(id uint64) (json.RawMessage, error) {
		o := x.newOutbound(resultMode, 0)
		o.limit = int(x.limits.MaxStateBytes)
		o.tee = newValueStream(func(piece []byte) error { return h.part(id, piece) }, 0, x.limits.MaxStateBytes)
		skipped, err := x.walkForState(o, value)
		if err != nil || skipped {
			// Nothing to store (a bare function removes the key, as
			// undefined does).
			return nil, err
		}
		return o.tee.rest(), nil
	})
	return err
}

// acrossPipe sends a state call to the host and waits for its answer. The
// run's loop is the one that reads the host's frames, and the script is
// blocked in a synchronous call: so it pumps them itself until the answer
// is in, settling any nested call answered meanwhile as usual (their
// promises' reactions run once the script goes on). parts, when set,
// sends the value's parts under the call's id first and returns the last.
func (x *execution) acrossPipe(kind, key string, value json.RawMessage, parts func(id uint64) (json.RawMessage, error)) (json.RawMessage, error) {
	h := x.req.Host.(*pipeHost)
	id := h.d.newID()
	if parts != nil {
		last, err := parts(id)
		if err != nil {
			h.forget(id)
			return nil, err
		}
		value = last
	}
	var (
		answered bool
		got      json.RawMessage
		failed   error
	)
	h.d.startAs(h.c, id, frame{Type: frameCall, Kind: kind, Name: key, Args: value}, func(f frame, err error) {
		answered, got, failed = true, f.Value, err
	})
	for !answered {
		if err := x.stopped(); err != nil {
			return nil, err
		}
		x.req.pump()
	}
	return got, failed
}
