package hotreload

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"slices"
)

// member is one key of a JSON object with its value exactly as written.
type member struct {
	key   string
	value json.RawMessage
}

// withAllowRule returns the settings document data with rule appended to
// permissions.allow. Every other key, known or not, keeps its value and its
// place; the document is re-indented. changed is false when the rule is
// already there. A document that is not valid settings is an error and is
// not touched.
func withAllowRule(data []byte, rule string) (out []byte, changed bool, err error) {
	if _, err := ParseSettings(data); err != nil {
		return nil, false, err
	}
	top, err := objectMembers(data)
	if err != nil {
		return nil, false, err
	}
	perms, err := memberObject(top, "permissions")
	if err != nil {
		return nil, false, err
	}
	var allow []string
	if i := lastIndex(perms, "allow"); i >= 0 {
		if err := json.Unmarshal(perms[i].value, &allow); err != nil {
			return nil, false, err
		}
	}
	if slices.Contains(allow, rule) {
		return data, false, nil
	}
	allowJSON, err := marshalNoEscape(append(allow, rule))
	if err != nil {
		return nil, false, err
	}
	perms = setMember(perms, "allow", allowJSON)
	top = setMember(top, "permissions", encodeObject(perms))
	var indented bytes.Buffer
	if err := json.Indent(&indented, encodeObject(top), "", "  "); err != nil {
		return nil, false, err
	}
	indented.WriteByte('\n')
	return indented.Bytes(), true, nil
}

// objectMembers lists the members of the JSON object in data, in order;
// blank data is an empty object.
func objectMembers(data []byte) ([]member, error) {
	if len(bytes.TrimSpace(data)) == 0 {
		return nil, nil
	}
	dec := json.NewDecoder(bytes.NewReader(data))
	if tok, err := dec.Token(); err != nil || tok != json.Delim('{') {
		return nil, errors.New("settings must be a JSON object")
	}
	var members []member
	for dec.More() {
		tok, err := dec.Token()
		if err != nil {
			return nil, err
		}
		key, _ := tok.(string)
		var value json.RawMessage
		if err := dec.Decode(&value); err != nil {
			return nil, err
		}
		members = append(members, member{key: key, value: value})
	}
	if _, err := dec.Token(); err != nil {
		return nil, err
	}
	if _, err := dec.Token(); err != io.EOF {
		return nil, errors.New("settings have data after the JSON object")
	}
	return members, nil
}

// memberObject returns the members of the object under key (the last one
// when the key repeats, as encoding/json reads it); absent or null is empty.
func memberObject(members []member, key string) ([]member, error) {
	i := lastIndex(members, key)
	if i < 0 || string(members[i].value) == "null" {
		return nil, nil
	}
	inner, err := objectMembers(members[i].value)
	if err != nil {
		return nil, fmt.Errorf("%q: %w", key, err)
	}
	return inner, nil
}

func lastIndex(members []member, key string) int {
	for i := len(members) - 1; i >= 0; i-- {
		if members[i].key == key {
			return i
		}
	}
	return -1
}

// setMember replaces the effective (last) value of key, or appends it.
func setMember(members []member, key string, value json.RawMessage) []member {
	if i := lastIndex(members, key); i >= 0 {
		members = slices.Clone(members)
		members[i].value = value
		return members
	}
	return append(members, member{key: key, value: value})
}

func encodeObject(members []member) json.RawMessage {
	var b bytes.Buffer
	b.WriteByte('{')
	for i, m := range members {
		if i > 0 {
			b.WriteByte(',')
		}
		key, _ := marshalNoEscape(m.key)
		b.Write(key)
		b.WriteByte(':')
		b.Write(m.value)
	}
	b.WriteByte('}')
	return b.Bytes()
}

// marshalNoEscape is json.Marshal without HTML escaping, so rule strings and
// keys are written as a person would write them.
func marshalNoEscape(v any) (json.RawMessage, error) {
	var b bytes.Buffer
	enc := json.NewEncoder(&b)
	enc.SetEscapeHTML(false)
	if err := enc.Encode(v); err != nil {
		return nil, err
	}
	return bytes.TrimRight(b.Bytes(), "\n"), nil
}
