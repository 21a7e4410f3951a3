package sandbox

import (
	"encoding/json"
	"errors"
	"strconv"
	"unicode/utf8"

	"github.com/dop251/goja"
)

// maxInboundDepth bounds the nesting of a value crossing into the sandbox, so
// a hostile server cannot make the decoder recurse without end.
const maxInboundDepth = 512

var errBadJSON = errors.New("invalid JSON")

// fromJSON builds a fresh sandbox value from JSON. Objects get a null
// prototype (ISO-4: their constructor is undefined, so no path leads from a
// tool result to a function that compiles code; converting one to a
// primitive throws V8's TypeError, as in Node), keys keep the order the server sent except "__proto__",
// which is skipped, and nothing of the host is shared with the script
// (ISO-5).
//
// It is a small recursive-descent decoder writing sandbox values directly:
// every nested call's result passes through here, and going through
// encoding/json's token stream cost more than the rest of the call.
func fromJSON(r *realm, data json.RawMessage) (goja.Value, error) {
	d := inbound{vm: r.vm, data: data}
	d.space()
	if d.pos == len(d.data) {
		return goja.Null(), nil
	}
	v, err := d.value(0)
	if err != nil {
		return nil, err
	}
	if d.space(); d.pos != len(d.data) {
		return nil, errBadJSON
	}
	return v, nil
}

type inbound struct {
	vm   *goja.Runtime
	data []byte
	pos  int
}

func (d *inbound) space() {
	for d.pos < len(d.data) {
		switch d.data[d.pos] {
		case ' ', '\t', '\n', '\r':
			d.pos++
		default:
			return
		}
	}
}

func (d *inbound) value(depth int) (goja.Value, error) {
	if depth > maxInboundDepth {
		return nil, errors.New("value nested too deeply")
	}
	d.space()
	if d.pos >= len(d.data) {
		return nil, errBadJSON
	}
	switch c := d.data[d.pos]; {
	case c == '{':
		return d.object(depth)
	case c == '[':
		return d.array(depth)
	case c == '"':
		s, err := d.str()
		if err != nil {
			return nil, err
		}
		return d.vm.ToValue(s), nil
	case c == 't':
		return d.literal("true", d.vm.ToValue(true))
	case c == 'f':
		return d.literal("false", d.vm.ToValue(false))
	case c == 'n':
		return d.literal("null", goja.Null())
	default:
		return d.number()
	}
}

func (d *inbound) literal(word string, v goja.Value) (goja.Value, error) {
	if len(d.data)-d.pos < len(word) || string(d.data[d.pos:d.pos+len(word)]) != word {
		return nil, errBadJSON
	}
	d.pos += len(word)
	return v, nil
}

func (d *inbound) number() (goja.Value, error) {
	start := d.pos
	integer := true
	for d.pos < len(d.data) {
		c := d.data[d.pos]
		switch {
		case c >= '0' && c <= '9', c == '-', c == '+':
		case c == '.' || c == 'e' || c == 'E':
			integer = false
		default:
			goto done
		}
		d.pos++
	}
done:
	text := string(d.data[start:d.pos])
	if !json.Valid(d.data[start:d.pos]) {
		return nil, errBadJSON
	}
	if integer {
		if i, err := strconv.ParseInt(text, 10, 64); err == nil && i >= -(1<<53) && i <= 1<<53 {
			return d.vm.ToValue(i), nil
		}
	}
	f, err := strconv.ParseFloat(text, 64)
	if err != nil && !errors.Is(err, strconv.ErrRange) {
		return nil, errBadJSON
	}
	return d.vm.ToValue(f), nil
}

// str decodes a string; only strings with escapes pay for encoding/json.
func (d *inbound) str() (string, error) {
	start := d.pos
	d.pos++ // opening quote
	escaped := false
	for d.pos < len(d.data) {
		switch c := d.data[d.pos]; {
		case c == '"':
			d.pos++
			raw := d.data[start:d.pos]
			if !escaped && utf8.Valid(raw) {
				return string(raw[1 : len(raw)-1]), nil
			}
			var s string
			if err := json.Unmarshal(raw, &s); err != nil {
				return "", errBadJSON
			}
			return s, nil
		case c == '\\':
			escaped = true
			d.pos += 2
			continue
		case c < 0x20:
			return "", errBadJSON
		}
		d.pos++
	}
	return "", errBadJSON
}

func (d *inbound) object(depth int) (goja.Value, error) {
	d.pos++ // '{'
	obj := d.vm.NewObject()
	if err := obj.SetPrototype(nil); err != nil {
		return nil, err
	}
	if d.space(); d.pos < len(d.data) && d.data[d.pos] == '}' {
		d.pos++
		return obj, nil
	}
	for {
		if d.space(); d.pos >= len(d.data) || d.data[d.pos] != '"' {
			return nil, errBadJSON
		}
		key, err := d.str()
		if err != nil {
			return nil, err
		}
		if d.space(); d.pos >= len(d.data) || d.data[d.pos] != ':' {
			return nil, errBadJSON
		}
		d.pos++
		v, err := d.value(depth + 1)
		if err != nil {
			return nil, err
		}
		// A "__proto__" key is skipped (ISO-5): as an own property it would
		// become the prototype of any object the script copies the result
		// into with Object.assign or a spread.
		if key != "__proto__" {
			if err := obj.DefineDataProperty(key, v, goja.FLAG_TRUE, goja.FLAG_TRUE, goja.FLAG_TRUE); err != nil {
				return nil, err
			}
		}
		if done, err := d.separator('}'); done || err != nil {
			return obj, err
		}
	}
}

func (d *inbound) array(depth int) (goja.Value, error) {
	d.pos++ // '['
	items := []any{}
	if d.space(); d.pos < len(d.data) && d.data[d.pos] == ']' {
		d.pos++
		return d.vm.NewArray(items...), nil
	}
	for {
		v, err := d.value(depth + 1)
		if err != nil {
			return nil, err
		}
		items = append(items, v)
		if done, err := d.separator(']'); done || err != nil {
			return d.vm.NewArray(items...), err
		}
	}
}

// separator consumes a comma (more to come) or the closer (done).
func (d *inbound) separator(closer byte) (done bool, err error) {
	d.space()
	if d.pos >= len(d.data) {
		return false, errBadJSON
	}
	switch d.data[d.pos] {
	case ',':
		d.pos++
		return false, nil
	case closer:
		d.pos++
		return true, nil
	}
	return false, errBadJSON
}
