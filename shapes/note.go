package shapes

import (
	"bytes"
	"encoding/json"
	"strings"
)

// maxJSONText is the longest text read as JSON; a longer text is noted as
// text holding JSON without its shape being read.
const maxJSONText = 4 << 20

// Note is what was observed of a tool's results, merged over calls: the
// shape of its structuredContent, the shape of the JSON its text held, and
// whether it returned other text. The zero Note has observed nothing.
type Note struct {
	Structured *Shape `json:"structured,omitempty"`
	JSONText   *Shape `json:"json,omitempty"`
	Text       bool   `json:"text,omitempty"`
}

// Structured observes a structuredContent value (JSON).
func Structured(doc []byte) Note {
	v, ok := decode(doc)
	if !ok {
		return Note{}
	}
	s := &Shape{}
	m := merger{fieldsLeft: maxNoteFields}
	m.add(s, v, 0)
	return Note{Structured: s}
}

// Text observes a text result: JSON's shape when the text is a JSON object
// or array, else just text.
func Text(text string) Note {
	trimmed := strings.TrimSpace(text)
	if trimmed == "" || (trimmed[0] != '{' && trimmed[0] != '[') || len(trimmed) > maxJSONText {
		return Note{Text: true}
	}
	v, ok := decode([]byte(trimmed))
	if !ok {
		return Note{Text: true}
	}
	s := &Shape{}
	m := merger{fieldsLeft: maxNoteFields}
	m.add(s, v, 0)
	return Note{JSONText: s}
}

// Empty reports whether nothing was observed.
func (n Note) Empty() bool {
	return n.Structured == nil && n.JSONText == nil && !n.Text
}

// Merge merges o into n. Merging only grows a note.
func (n *Note) Merge(o Note) {
	n.Structured = mergeShape(n.Structured, o.Structured)
	n.JSONText = mergeShape(n.JSONText, o.JSONText)
	n.Text = n.Text || o.Text
}

func mergeShape(s, o *Shape) *Shape {
	if o == nil {
		return s
	}
	if s == nil {
		s = &Shape{}
	}
	m := merger{fieldsLeft: maxNoteFields - s.fieldCount()}
	m.merge(s, o)
	return s
}

// String renders the note as the catalog shows it after "observed: ":
// "text, JSON { ... }" for text holding JSON, the shape itself for
// structured content, "text" for other text; the forms seen are joined with
// " or ". It is "" for an empty note.
func (n Note) String() string {
	var parts []string
	if n.Structured != nil {
		parts = append(parts, n.Structured.String())
	}
	if n.JSONText != nil {
		parts = append(parts, "text, JSON "+n.JSONText.String())
	}
	if n.Text {
		if n.JSONText != nil {
			parts = append(parts, "other text")
		} else {
			parts = append(parts, "text")
		}
	}
	return strings.Join(parts, " or ")
}

// decode decodes a JSON document, numbers kept as json.Number (their
// values are never read, only their kind).
func decode(doc []byte) (any, bool) {
	d := json.NewDecoder(bytes.NewReader(doc))
	d.UseNumber()
	var v any
	if err := d.Decode(&v); err != nil || d.More() {
		return nil, false
	}
	return v, true
}
