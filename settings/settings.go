package settings

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"reflect"

	"github.com/mcpexec/mcpexec/permissions"
)

// Settings is a settings file as written. Pointers and omitempty keep
// "absent" apart from "false" or "empty"; keys this type does not know are
// ignored when reading and kept when AddAllowRule rewrites the file.
type Settings struct {
	EnableExec      *bool           `json:"enableExec,omitempty"`
	Permissions     PermissionRules `json:"permissions"`
	DisallowedTools []string        `json:"disallowedTools,omitempty"`
}

// PermissionRules are the rule lists of the "permissions" object.
type PermissionRules struct {
	Allow []string `json:"allow,omitempty"`
	Ask   []string `json:"ask,omitempty"`
	Deny  []string `json:"deny,omitempty"`
}

// ParseSettings decodes a settings document. An empty document is empty
// settings. Anything else must be one JSON object whose known keys have the
// right types and whose rules are valid; the error says where it is not.
func ParseSettings(data []byte) (Settings, error) {
	var s Settings
	trimmed := bytes.TrimSpace(data)
	if len(trimmed) == 0 {
		return s, nil
	}
	if trimmed[0] != '{' {
		return s, errors.New("settings must be a JSON object")
	}
	if err := json.Unmarshal(trimmed, &s); err != nil {
		return Settings{}, describeJSONError(trimmed, err)
	}
	if err := s.validate(); err != nil {
		return Settings{}, err
	}
	return s, nil
}

func (s Settings) validate() error {
	lists := []struct {
		key   string
		rules []string
	}{
		{"permissions.allow", s.Permissions.Allow},
		{"permissions.ask", s.Permissions.Ask},
		{"permissions.deny", s.Permissions.Deny},
		{"disallowedTools", s.DisallowedTools},
	}
	for _, l := range lists {
		for i, r := range l.rules {
			if err := permissions.ValidateRule(r); err != nil {
				return fmt.Errorf("%s[%d]: %w", l.key, i, err)
			}
		}
	}
	return nil
}

// describeJSONError turns encoding/json's errors into a position or a key
// and the expected type.
func describeJSONError(data []byte, err error) error {
	var syntax *json.SyntaxError
	if errors.As(err, &syntax) {
		line, col := position(data, syntax.Offset)
		return fmt.Errorf("invalid JSON at line %d, column %d: %v", line, col, syntax)
	}
	var typ *json.UnmarshalTypeError
	if errors.As(err, &typ) {
		return fmt.Errorf("%q must be %s, not a JSON %s", typ.Field, describeType(typ.Type), typ.Value)
	}
	return fmt.Errorf("invalid settings: %w", err)
}

func describeType(t reflect.Type) string {
	switch t.Kind() {
	case reflect.Pointer:
		return describeType(t.Elem())
	case reflect.Bool:
		return "true or false"
	case reflect.String:
		return "a string"
	case reflect.Slice:
		return "an array of " + plural(t.Elem())
	case reflect.Struct:
		return "an object"
	default:
		return t.Kind().String()
	}
}

func plural(t reflect.Type) string {
	if t.Kind() == reflect.String {
		return "strings"
	}
	return describeType(t)
}

// position converts a byte offset into a 1-based line and column.
func position(data []byte, offset int64) (line, col int) {
	if offset > int64(len(data)) {
		offset = int64(len(data))
	}
	before := data[:offset]
	line = bytes.Count(before, []byte{'\n'}) + 1
	col = int(offset) - (bytes.LastIndexByte(before, '\n') + 1)
	return line, col
}
