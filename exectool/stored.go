package exectool

import (
	"encoding/json"

	"github.com/mcpexec/mcpexec/shapes"
	"github.com/mcpexec/mcpexec/state"
)

// Stored is an Exec call's return value when it was too long for the
// model's text, which shows its first part: the whole value, handed to the
// host beside the text, and where the conversation keeps it.
type Stored struct {
	// ID names the value in the conversation's state (load(ID) in a later
	// script), URI for a reader of the result (mcpexec://results/<id>).
	// Both are empty when the call had no state to keep it in: the host
	// alone has it then.
	ID, URI string
	// Value is the whole value as JSON, as the script returned it.
	Value json.RawMessage
	// Chars counts the characters of its text (Text), Size its bytes;
	// MIMEType is the text's type.
	Chars, Size int64
	MIMEType    string
	// Shape is the observed shape of the value, as the catalog writes
	// shapes ("{ id: number; title: string }[]", "text"); "" when none
	// could be read.
	Shape string
}

// NewStored describes value, kept as id ("" when it is not kept).
func NewStored(id string, value json.RawMessage, chars int64) *Stored {
	text, mimeType := state.Text(value)
	s := &Stored{ID: id, Value: value, Chars: chars, Size: int64(len(text)), MIMEType: mimeType}
	if mimeType == "text/plain" {
		s.Shape = shapes.Text(text).String()
	} else {
		s.Shape = shapes.Sample(value).String()
	}
	if id != "" {
		s.URI = state.URI(id)
	}
	return s
}

// Text returns the value as text, with its MIME type: a string's own text
// (text/plain), any other value's JSON (application/json). It is the whole
// of what the model was shown the first part of.
func (s *Stored) Text() (text, mimeType string) { return state.Text(s.Value) }

// Name is how the value is named in a link to it: "Exec result r1".
func (s *Stored) Name() string {
	if s.ID == "" {
		return "Exec result"
	}
	return "Exec result " + s.ID
}

// Description describes the value for a link to it: its size and shape.
func (s *Stored) Description() string {
	d := "The whole return value of an Exec script (" + state.FormatBytes(s.Size) + ")"
	if s.Shape != "" {
		d += "; observed shape: " + s.Shape
	}
	return d + "."
}
