package sandbox

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"strconv"

	"github.com/dop251/goja"
)

// maxInboundDepth bounds the nesting of a value crossing into the sandbox, so
// a hostile server cannot make the decoder recurse without end.
const maxInboundDepth = 512

// fromJSON builds a fresh sandbox value from JSON. Objects get a null
// prototype (ISO-4: their constructor is undefined, so no path leads from a
// tool result to a function that compiles code), keys keep the order the
// server sent, and nothing of the host is shared with the script (ISO-5).
func fromJSON(vm *goja.Runtime, data json.RawMessage) (goja.Value, error) {
	if len(bytes.TrimSpace(data)) == 0 {
		return goja.Null(), nil
	}
	dec := json.NewDecoder(bytes.NewReader(data))
	dec.UseNumber()
	b := inbound{vm: vm, dec: dec}
	v, err := b.value(0)
	if err != nil {
		return nil, err
	}
	if _, err := dec.Token(); err != io.EOF {
		return nil, errors.New("trailing data after the JSON value")
	}
	return v, nil
}

type inbound struct {
	vm  *goja.Runtime
	dec *json.Decoder
}

func (b *inbound) value(depth int) (goja.Value, error) {
	if depth > maxInboundDepth {
		return nil, errors.New("value nested too deeply")
	}
	tok, err := b.dec.Token()
	if err != nil {
		return nil, err
	}
	switch t := tok.(type) {
	case json.Delim:
		switch t {
		case '{':
			return b.object(depth)
		case '[':
			return b.array(depth)
		}
		return nil, fmt.Errorf("unexpected %q", t)
	case string:
		return b.vm.ToValue(t), nil
	case json.Number:
		if i, err := strconv.ParseInt(string(t), 10, 64); err == nil && i >= -(1<<53) && i <= 1<<53 {
			return b.vm.ToValue(i), nil
		}
		f, err := strconv.ParseFloat(string(t), 64)
		if err != nil && !errors.Is(err, strconv.ErrRange) {
			return nil, err
		}
		return b.vm.ToValue(f), nil
	case bool:
		return b.vm.ToValue(t), nil
	case nil:
		return goja.Null(), nil
	}
	return nil, fmt.Errorf("unexpected token %v", tok)
}

func (b *inbound) object(depth int) (goja.Value, error) {
	obj := b.vm.NewObject()
	if err := obj.SetPrototype(nil); err != nil {
		return nil, err
	}
	for b.dec.More() {
		tok, err := b.dec.Token()
		if err != nil {
			return nil, err
		}
		key, _ := tok.(string)
		v, err := b.value(depth + 1)
		if err != nil {
			return nil, err
		}
		// DefineDataProperty creates an own property even for "__proto__",
		// so a payload key can never reach the (null) prototype.
		if err := obj.DefineDataProperty(key, v, goja.FLAG_TRUE, goja.FLAG_TRUE, goja.FLAG_TRUE); err != nil {
			return nil, err
		}
	}
	if _, err := b.dec.Token(); err != nil { // closing '}'
		return nil, err
	}
	return obj, nil
}

func (b *inbound) array(depth int) (goja.Value, error) {
	var items []any
	for b.dec.More() {
		v, err := b.value(depth + 1)
		if err != nil {
			return nil, err
		}
		items = append(items, v)
	}
	if _, err := b.dec.Token(); err != nil { // closing ']'
		return nil, err
	}
	if items == nil {
		items = []any{}
	}
	return b.vm.NewArray(items...), nil
}
