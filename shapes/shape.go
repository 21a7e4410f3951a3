package shapes

import (
	"encoding/json"
	"slices"
	"strings"
)

// Bounds keep a note small and make the number of times it can change
// finite whatever a tool returns.
const (
	// maxDepth is how many levels of objects and arrays a shape describes;
	// deeper values are described by their kind alone.
	maxDepth = 4
	// maxFields is how many fields one object shows; an object observed
	// with more keys than this is taken as a map.
	maxFields = 16
	// maxNoteFields is how many fields a whole shape holds; fields seen
	// after that are marked as more.
	maxNoteFields = 48
	// maxElements is how many elements of one array are read.
	maxElements = 32
	// maxKeyLen is the longest key read as a field name.
	maxKeyLen = 40
)

// kinds is a set of JSON types.
type kinds uint8

const (
	kindNull kinds = 1 << iota
	kindBool
	kindNumber
	kindString
	kindObject
	kindArray
)

// Shape is the merged type of the values seen at one place of a result:
// the JSON types seen there and, for objects and arrays, what they held. It
// holds names and types, never a value. The zero Shape has seen nothing.
type Shape struct {
	Kinds kinds `json:"k"`
	// Fields are the object's fields by name, when its keys read as field
	// names.
	Fields []Field `json:"f,omitempty"`
	// Map is the shape of the object's values when its keys do not read as
	// field names (ids, dates) or are too many: { [key: string]: Map }.
	Map *Shape `json:"m,omitempty"`
	// More says fields were seen that the bounds leave out, or that the
	// object lies deeper than a shape describes.
	More bool `json:"x,omitempty"`
	// Elem is the shape of the array's elements (nil: only empty arrays).
	Elem *Shape `json:"e,omitempty"`
}

// Field is one field of an object shape.
type Field struct {
	Name     string `json:"n"`
	Optional bool   `json:"o,omitempty"`
	Shape    *Shape `json:"s"`
}

// merger merges values into a shape within the note's field budget.
type merger struct {
	fieldsLeft int
}

// add merges the decoded JSON value v (as encoding/json decodes into any)
// seen at depth into s.
func (m *merger) add(s *Shape, v any, depth int) {
	switch v := v.(type) {
	case nil:
		s.Kinds |= kindNull
	case bool:
		s.Kinds |= kindBool
	case json.Number, float64:
		s.Kinds |= kindNumber
	case string:
		s.Kinds |= kindString
	case []any:
		s.Kinds |= kindArray
		if depth >= maxDepth {
			return
		}
		for _, e := range v[:min(len(v), maxElements)] {
			if s.Elem == nil {
				s.Elem = &Shape{}
			}
			m.add(s.Elem, e, depth+1)
		}
	case map[string]any:
		m.addObject(s, v, depth)
	}
}

func (m *merger) addObject(s *Shape, obj map[string]any, depth int) {
	first := s.Kinds&kindObject == 0
	s.Kinds |= kindObject
	if depth >= maxDepth {
		if len(obj) > 0 {
			s.More = true
		}
		return
	}
	keys := make([]string, 0, len(obj))
	for k := range obj {
		keys = append(keys, k)
	}
	slices.Sort(keys) // the same value always merges the same way
	if s.Map == nil && !mapLike(keys) {
		m.addFields(s, obj, keys, first, depth)
		return
	}
	if s.Map == nil {
		// The object turns out to be a map.
		s.toMap(m)
	}
	for _, k := range keys[:min(len(keys), maxElements)] {
		m.add(s.Map, obj[k], depth+1)
	}
}

func (m *merger) addFields(s *Shape, obj map[string]any, keys []string, first bool, depth int) {
	for i := range s.Fields {
		if _, ok := obj[s.Fields[i].Name]; !ok {
			s.Fields[i].Optional = true
		}
	}
	for _, k := range keys {
		i, found := slices.BinarySearchFunc(s.Fields, k, byName)
		if !found {
			if len(s.Fields) >= maxFields || m.fieldsLeft <= 0 {
				s.More = true
				continue
			}
			m.fieldsLeft--
			s.Fields = slices.Insert(s.Fields, i, Field{Name: k, Optional: !first, Shape: &Shape{}})
		}
		m.add(s.Fields[i].Shape, obj[k], depth+1)
	}
}

// merge merges o into s. A field of o that s lacks is added while the
// bounds allow (m.fieldsLeft, maxFields), else s is marked as having more:
// nothing s holds is ever dropped, so merging only grows a shape.
func (m *merger) merge(s, o *Shape) {
	if o == nil {
		return
	}
	hadObject := s.Kinds&kindObject != 0
	s.Kinds |= o.Kinds
	s.More = s.More || o.More
	if o.Elem != nil {
		if s.Elem == nil {
			s.Elem = &Shape{}
		}
		m.merge(s.Elem, o.Elem)
	}
	if s.Map == nil && o.Map != nil {
		s.toMap(m)
	}
	if s.Map != nil {
		m.merge(s.Map, o.Map)
		for _, f := range o.Fields {
			m.merge(s.Map, f.Shape)
		}
		return
	}
	if o.Kinds&kindObject != 0 {
		for i := range s.Fields {
			if _, found := slices.BinarySearchFunc(o.Fields, s.Fields[i].Name, byName); !found {
				s.Fields[i].Optional = true
			}
		}
	}
	for _, f := range o.Fields {
		i, found := slices.BinarySearchFunc(s.Fields, f.Name, byName)
		if !found {
			if len(s.Fields) >= maxFields || m.fieldsLeft <= 0 {
				s.More = true
				continue
			}
			m.fieldsLeft--
			s.Fields = slices.Insert(s.Fields, i, Field{Name: f.Name, Optional: hadObject, Shape: &Shape{}})
		}
		s.Fields[i].Optional = s.Fields[i].Optional || f.Optional
		m.merge(s.Fields[i].Shape, f.Shape)
	}
}

func byName(f Field, name string) int { return strings.Compare(f.Name, name) }

// toMap turns an object shape into a map shape: what its fields held
// becomes the shape of its values.
func (s *Shape) toMap(m *merger) {
	s.Map = &Shape{}
	for _, f := range s.Fields {
		m.merge(s.Map, f.Shape)
	}
	m.fieldsLeft += len(s.Fields)
	s.Fields = nil
}

// fieldCount is how many fields the shape holds at every level.
func (s *Shape) fieldCount() int {
	if s == nil {
		return 0
	}
	n := s.Elem.fieldCount() + s.Map.fieldCount()
	for _, f := range s.Fields {
		n += 1 + f.Shape.fieldCount()
	}
	return n
}

// mapLike reports whether an object's keys are data rather than field
// names: too many of them, or one that does not read as a name.
func mapLike(keys []string) bool {
	if len(keys) > maxFields {
		return true
	}
	for _, k := range keys {
		if !fieldName(k) {
			return true
		}
	}
	return false
}

// fieldName reports whether k reads as a field name: an identifier of
// letters, digits, _ and $, not starting with a digit, of modest length and
// without a run of digits (an id or a date is a value, not a name).
func fieldName(k string) bool {
	if k == "" || len(k) > maxKeyLen {
		return false
	}
	digits := 0
	for i := 0; i < len(k); i++ {
		c := k[i]
		switch {
		case c >= '0' && c <= '9':
			if i == 0 {
				return false
			}
			digits++
			if digits >= 4 {
				return false
			}
			continue
		case c >= 'a' && c <= 'z', c >= 'A' && c <= 'Z', c == '_', c == '$':
		default:
			return false
		}
		digits = 0
	}
	return true
}
