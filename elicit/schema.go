package elicit

import (
	"bytes"
	"encoding/json"
	"fmt"
)

// Field is one property of a form, as a person is shown it.
type Field struct {
	Name        string
	Title       string
	Description string
	// Type is the JSON Schema type: string, number, integer, boolean, or
	// array (a multiple choice among Options).
	Type string
	// Format is a string's format (email, uri, date, date-time), if any.
	Format string
	// Options are the allowed values of a choice (enum, oneOf/anyOf
	// consts, or an array's items), with OptionTitles beside them when
	// the schema names them.
	Options      []string
	OptionTitles []string
	// Default is the schema's default, when HasDefault.
	Default    any
	HasDefault bool
	Required   bool
	// Minimum and Maximum bound a number, when set.
	Minimum, Maximum *float64
}

// schemaProperty is the part of a property's schema a form uses.
type schemaProperty struct {
	Type        string          `json:"type"`
	Title       string          `json:"title"`
	Description string          `json:"description"`
	Format      string          `json:"format"`
	Enum        []any           `json:"enum"`
	EnumNames   []string        `json:"enumNames"`
	OneOf       []constOption   `json:"oneOf"`
	AnyOf       []constOption   `json:"anyOf"`
	Items       *schemaProperty `json:"items"`
	Default     json.RawMessage `json:"default"`
	Minimum     *float64        `json:"minimum"`
	Maximum     *float64        `json:"maximum"`
}

type constOption struct {
	Const any    `json:"const"`
	Title string `json:"title"`
}

// Fields lists the properties of a form schema in the order the server
// wrote them.
func Fields(schema json.RawMessage) ([]Field, error) {
	var top struct {
		Properties json.RawMessage `json:"properties"`
		Required   []string        `json:"required"`
	}
	if len(schema) == 0 {
		return nil, nil
	}
	if err := json.Unmarshal(schema, &top); err != nil {
		return nil, fmt.Errorf("elicitation schema: %w", err)
	}
	names, props, err := orderedMembers(top.Properties)
	if err != nil {
		return nil, fmt.Errorf("elicitation schema properties: %w", err)
	}
	required := map[string]bool{}
	for _, r := range top.Required {
		required[r] = true
	}
	fields := make([]Field, 0, len(names))
	for i, name := range names {
		var p schemaProperty
		if err := json.Unmarshal(props[i], &p); err != nil {
			return nil, fmt.Errorf("elicitation schema property %q: %w", name, err)
		}
		f := Field{Name: name, Title: p.Title, Description: p.Description, Type: p.Type, Format: p.Format,
			Required: required[name], Minimum: p.Minimum, Maximum: p.Maximum}
		choice := &p
		if p.Type == "array" && p.Items != nil {
			choice = p.Items
		}
		f.Options, f.OptionTitles = options(choice)
		if len(p.Default) > 0 && string(p.Default) != "null" {
			f.HasDefault = json.Unmarshal(p.Default, &f.Default) == nil
		}
		fields = append(fields, f)
	}
	return fields, nil
}

// options reads the choices of an enum, a oneOf/anyOf of consts, with
// their titles.
func options(p *schemaProperty) (values, titles []string) {
	for i, v := range p.Enum {
		values = append(values, fmt.Sprint(v))
		if i < len(p.EnumNames) {
			titles = append(titles, p.EnumNames[i])
		}
	}
	for _, o := range append(p.OneOf, p.AnyOf...) {
		values = append(values, fmt.Sprint(o.Const))
		titles = append(titles, o.Title)
	}
	if len(titles) != len(values) {
		titles = nil
	}
	return values, titles
}

// ApplyDefaults returns content with every property the schema gives a
// default and content leaves out set to that default. content itself is not
// changed; nil content is an empty form.
func ApplyDefaults(schema json.RawMessage, content map[string]any) map[string]any {
	fields, err := Fields(schema)
	out := make(map[string]any, len(content)+len(fields))
	for k, v := range content {
		out[k] = v
	}
	if err != nil {
		return out
	}
	for _, f := range fields {
		if _, given := out[f.Name]; !given && f.HasDefault {
			out[f.Name] = f.Default
		}
	}
	return out
}

// orderedMembers splits a JSON object into its member names and values in
// document order (a Go map would lose the order the server chose for its
// form).
func orderedMembers(obj json.RawMessage) ([]string, []json.RawMessage, error) {
	if len(bytes.TrimSpace(obj)) == 0 {
		return nil, nil, nil
	}
	dec := json.NewDecoder(bytes.NewReader(obj))
	if tok, err := dec.Token(); err != nil || tok != json.Delim('{') {
		return nil, nil, fmt.Errorf("not an object")
	}
	var names []string
	var values []json.RawMessage
	for dec.More() {
		tok, err := dec.Token()
		if err != nil {
			return nil, nil, err
		}
		name, _ := tok.(string)
		var v json.RawMessage
		if err := dec.Decode(&v); err != nil {
			return nil, nil, err
		}
		names = append(names, name)
		values = append(values, v)
	}
	return names, values, nil
}
