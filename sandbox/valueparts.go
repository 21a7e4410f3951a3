package sandbox

import (
	"encoding/json"

	"github.com/mcpexec/mcpexec/state"
)

// valueParts gathers, on a worker run's host side, the parts of the large
// values a worker sends ahead of the frames they belong to: a store's value
// (under the store's call id) and the return value (returnValueID), which
// goes on to the run's Reference as it comes. The worker runs model code,
// so the host bounds what it gathers itself: a store's parts by the state's
// bound, the return value by MaxKeptBytes. Only the connection's reader
// uses it, until the run's done frame.
type valueParts struct {
	stores  map[uint64][]byte // a store's value so far, by call id
	over    map[uint64]bool   // stores whose parts went past the bound
	pending int64             // bytes in stores

	returned     int64 // bytes of the return value passed on
	returnedOver bool  // the return value went past MaxKeptBytes
}

func (v *valueParts) add(h *hostSide, f frame) {
	if f.ID == returnValueID {
		ref := h.req.Reference
		switch {
		case ref == nil || ref.Sink == nil || v.returnedOver:
		case v.returned+int64(len(f.Value)) > h.limits.MaxKeptBytes:
			v.returnedOver = true
		default:
			v.returned += int64(len(f.Value))
			if _, err := ref.Sink.Write(f.Value); err != nil {
				v.returnedOver = true
			}
		}
		return
	}
	if v.stores == nil {
		v.stores, v.over = map[uint64][]byte{}, map[uint64]bool{}
	}
	if len(f.Value) == 0 {
		v.take(f.ID) // the worker gave the value up
		return
	}
	if v.over[f.ID] {
		return
	}
	if v.pending+int64(len(f.Value)) > h.limits.MaxStateBytes {
		v.take(f.ID)
		v.over[f.ID] = true
		return
	}
	v.stores[f.ID] = append(v.stores[f.ID], f.Value...)
	v.pending += int64(len(f.Value))
}

// take returns the parts gathered for the store id and forgets them; over
// reports that they went past the state's bound.
func (v *valueParts) take(id uint64) (parts []byte, over bool) {
	parts, over = v.stores[id], v.over[id]
	v.pending -= int64(len(parts))
	delete(v.stores, id)
	delete(v.over, id)
	return parts, over
}

// returnedWhole reports whether the return value's bytes all reached the
// Reference.
func (v *valueParts) returnedWhole(bytes int64) bool {
	return !v.returnedOver && v.returned == bytes
}

// serveState serves a store or a load of the run's state for the worker:
// parts are the store's value before the frame's own, over that they went
// past the bound.
func (h *hostSide) serveState(f frame, parts []byte, over bool) {
	res, err := safeHostCall(h.logger(), func() (CallResult, error) {
		switch {
		case h.req.State == nil:
			return CallResult{}, plainError(msgNoState(f.Kind))
		case f.Kind == callKindLoad:
			value, ok, err := h.req.State.Load(f.Name)
			if !ok || err != nil {
				return CallResult{}, err
			}
			if len(value) == 0 {
				value = json.RawMessage("null")
			}
			return CallResult{Value: value}, nil
		case over:
			return CallResult{}, &state.FullError{Limit: h.limits.MaxStateBytes}
		}
		value := append(parts, f.Args...)
		if len(value) > 0 && !json.Valid(value) {
			return CallResult{}, plainError(msgCrashed + ": the value to store did not arrive whole.")
		}
		return CallResult{}, h.req.State.Store(f.Name, value)
	})
	h.answer(f.ID, f.Kind, res, err)
}
