package pool

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"reflect"
	"strings"
)

// ConfigError is a problem in an mcpServers file, with where it is: the
// file (when the configuration came with a name), the line and the column
// (when the problem has a place), in the form editors jump to
// ("mcp.json:3:26: ...").
type ConfigError struct {
	File         string
	Line, Column int // 1-based; 0 when the problem is the file as a whole
	Problem      string
}

func (e *ConfigError) Error() string {
	switch {
	case e.File != "" && e.Line > 0:
		return fmt.Sprintf("%s:%d:%d: %s", e.File, e.Line, e.Column, e.Problem)
	case e.File != "":
		return e.File + ": " + e.Problem
	case e.Line > 0:
		return fmt.Sprintf("line %d, column %d: %s", e.Line, e.Column, e.Problem)
	}
	return e.Problem
}

// ParseConfigFile is ParseConfig for the file named file: every problem it
// reports, the file's and each entry's, names the file, the line and the
// column.
func ParseConfigFile(file string, data []byte) ([]ServerConfig, error) {
	return parseConfig(configText{file: file, data: data}, lookupEnv)
}

// configText is an mcpServers document and the name of its file.
type configText struct {
	file string
	data []byte
}

// errorAt is a problem at byte offset off of the document.
func (t configText) errorAt(off int64, format string, a ...any) *ConfigError {
	line, col := lineColumn(t.data, off)
	return &ConfigError{File: t.file, Line: line, Column: col, Problem: fmt.Sprintf(format, a...)}
}

// lineColumn converts a byte offset into a 1-based line and column (in
// runes).
func lineColumn(data []byte, off int64) (line, col int) {
	off = min(max(off, 0), int64(len(data)))
	before := data[:off]
	line = bytes.Count(before, []byte("\n")) + 1
	lineStart := bytes.LastIndexByte(before, '\n') + 1
	return line, len([]rune(string(before[lineStart:]))) + 1
}

// serversFileShape is the shape a servers file must have, for messages.
const serversFileShape = `{"mcpServers": {...}}`

// checkDocument reports what keeps data from being one JSON object: empty,
// not JSON, another kind of value, or more after it. It returns the
// object's offset.
func (t configText) checkDocument() (int64, error) {
	if len(bytes.TrimSpace(t.data)) == 0 {
		return 0, &ConfigError{File: t.file, Problem: "the file is empty; it needs " + serversFileShape}
	}
	dec := json.NewDecoder(bytes.NewReader(t.data))
	var doc json.RawMessage
	if err := dec.Decode(&doc); err != nil {
		var syntax *json.SyntaxError
		switch {
		case errors.As(err, &syntax):
			return 0, t.errorAt(syntax.Offset-1, "invalid JSON: %s", syntax.Error())
		case errors.Is(err, io.ErrUnexpectedEOF):
			return 0, t.errorAt(int64(len(bytes.TrimRight(t.data, " \t\r\n"))), "invalid JSON: the file ends before the JSON does")
		}
		return 0, &ConfigError{File: t.file, Problem: "invalid JSON: " + err.Error()}
	}
	start := int64(len(t.data) - len(bytes.TrimLeft(t.data, " \t\r\n")))
	if kind := jsonKind(doc); kind != "an object" {
		return 0, t.errorAt(start, "the file must be a JSON object, %s, not %s", serversFileShape, kind)
	}
	if _, err := dec.Token(); err != io.EOF {
		end := int64(len(t.data) - len(bytes.TrimLeft(t.data[start+int64(len(doc)):], " \t\r\n")))
		return 0, t.errorAt(end, "unexpected text after the JSON object")
	}
	return start, nil
}

// jsonKind names the kind of a JSON value, for messages.
func jsonKind(v json.RawMessage) string {
	switch v = bytes.TrimSpace(v); {
	case len(v) == 0:
		return "nothing"
	case v[0] == '{':
		return "an object"
	case v[0] == '[':
		return "an array"
	case v[0] == '"':
		return "a string"
	case v[0] == 't' || v[0] == 'f':
		return "true or false"
	case v[0] == 'n':
		return "null"
	}
	return "a number"
}

// member is one key of a JSON object, with its value and where the value
// starts in the document.
type member struct {
	key   string
	value json.RawMessage
	at    int64
}

// members lists the keys of the valid JSON object obj, found at offset
// base of the document, in order.
func members(obj json.RawMessage, base int64) []member {
	dec := json.NewDecoder(bytes.NewReader(obj))
	if _, err := dec.Token(); err != nil { // {
		return nil
	}
	var out []member
	for dec.More() {
		tok, err := dec.Token()
		if err != nil {
			return out
		}
		key, _ := tok.(string)
		afterKey := dec.InputOffset()
		var value json.RawMessage
		if err := dec.Decode(&value); err != nil {
			return out
		}
		rest := obj[afterKey:]
		skip := len(rest) - len(bytes.TrimLeft(rest, " \t\r\n:"))
		out = append(out, member{key: key, value: value, at: base + afterKey + int64(skip)})
	}
	return out
}

// entryKeys say what each key of a server entry takes, where the value's
// Go type alone would say it less well.
var entryKeys = map[string]string{
	"args":    "an array of strings",
	"env":     "an object of strings",
	"headers": "an object of strings",
	"oauth":   "an object",
}

// typeProblem says which key of a server entry has the wrong type and what
// it takes, in JSON's words.
func typeProblem(e *json.UnmarshalTypeError) (key, problem string) {
	key, _, _ = strings.Cut(e.Field, ".")
	want, ok := entryKeys[e.Field]
	if !ok {
		want = jsonTypeOf(e.Type)
	}
	return key, fmt.Sprintf("%q must be %s, not %s", e.Field, want, jsonArticle(e.Value))
}

// jsonTypeOf names the JSON a Go type is decoded from.
func jsonTypeOf(t reflect.Type) string {
	switch t.Kind() {
	case reflect.String:
		return "a string"
	case reflect.Bool:
		return "true or false"
	case reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64,
		reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64,
		reflect.Float32, reflect.Float64:
		return "a number"
	case reflect.Slice, reflect.Array:
		return "an array"
	}
	return "an object"
}

// jsonArticle puts an article before the decoder's name of a JSON value
// ("number", "string", "array", "object", "bool").
func jsonArticle(value string) string {
	switch {
	case value == "bool":
		return "true or false"
	case value == "array" || value == "object":
		return "an " + value
	case strings.HasPrefix(value, "number"):
		return "a number"
	}
	return "a " + value
}
