package shapes

import (
	"bytes"
	"encoding/json"
)

// maxSampleTokens bounds the JSON tokens Sample reads of a large value: its
// shape comes from a prefix, whatever the value's size.
const maxSampleTokens = 1 << 16

// Sample observes a value kept whole, as JSON, however large: a JSON
// string is observed as text (Text), anything else as structured content.
// A value too large to decode at once has its shape read from what a
// bounded number of its tokens show (the first elements of each array, the
// first fields of each object), which is what a shape holds anyway.
func Sample(doc []byte) Note {
	doc = bytes.TrimSpace(doc)
	if len(doc) == 0 {
		return Note{}
	}
	if doc[0] == '"' {
		var text string
		if err := json.Unmarshal(doc, &text); err != nil {
			return Note{}
		}
		return Text(text)
	}
	if len(doc) <= maxJSONText {
		return Structured(doc)
	}
	d := json.NewDecoder(bytes.NewReader(doc))
	d.UseNumber()
	s := sampler{d: d, left: maxSampleTokens}
	v, ok := s.value(0)
	if !ok {
		return Note{}
	}
	shape := &Shape{}
	m := merger{fieldsLeft: maxNoteFields}
	m.add(shape, v, 0)
	return Note{Structured: shape}
}

// sampler decodes a value token by token, keeping the first maxElements
// elements of each array and the first maxFields+1 fields of each object
// (one more than a shape shows, so an object that has more is still taken
// as a map), until its token budget runs out; what was read by then is the
// sample.
type sampler struct {
	d    *json.Decoder
	left int
	done bool // the budget ran out or the document ended
}

func (s *sampler) token() (json.Token, bool) {
	if s.done || s.left == 0 {
		s.done = true
		return nil, false
	}
	s.left--
	t, err := s.d.Token()
	if err != nil {
		s.done = true
		return nil, false
	}
	return t, true
}

// value reads one value; ok is false when there was none to read.
func (s *sampler) value(depth int) (any, bool) {
	t, ok := s.token()
	if !ok {
		return nil, false
	}
	switch t {
	case json.Delim('['):
		var out []any
		for !s.done && s.d.More() {
			v, ok := s.value(depth + 1)
			if ok && len(out) < maxElements && depth < maxDepth {
				out = append(out, v)
			}
		}
		s.token() // ]
		if out == nil {
			out = []any{}
		}
		return out, true
	case json.Delim('{'):
		out := map[string]any{}
		for !s.done && s.d.More() {
			k, ok := s.token()
			key, isKey := k.(string)
			if !ok || !isKey {
				break
			}
			v, ok := s.value(depth + 1)
			if ok && len(out) <= maxFields && depth < maxDepth {
				out[key] = v
			}
		}
		s.token() // }
		return out, true
	}
	return t, true
}
