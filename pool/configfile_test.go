package pool_test

import (
	"strings"
	"testing"

	"github.com/mcpexec/mcpexec/pool"
)

// A servers file's problems name the file, the line and the column, in
// JSON's words: no Go type or field name, no bare "EOF".
func TestServersFileErrorsNameFileLineAndColumn(t *testing.T) {
	for _, c := range []struct {
		file, want string
	}{
		{"{\n  \"mcpServers\": {\n    \"a\": {\"command\": \"x\",}\n  }\n}\n", `mcp.json:3:26: invalid JSON: invalid character '}' looking for beginning of object key string`},
		{"", `mcp.json: the file is empty; it needs {"mcpServers": {...}}`},
		{" \n", `mcp.json: the file is empty; it needs {"mcpServers": {...}}`},
		{"[]", `mcp.json:1:1: the file must be a JSON object, {"mcpServers": {...}}, not an array`},
		{`{"servers": {}}`, `mcp.json:1:1: no "mcpServers" key: the file needs {"mcpServers": {...}}`},
		{`{"mcpServers": 3}`, `mcp.json:1:16: "mcpServers" must be an object of servers by name, not a number`},
		{`{"mcpServers": {}} {}`, `mcp.json:1:20: unexpected text after the JSON object`},
		{"{\"mcpServers\": {\n", `mcp.json:1:17: invalid JSON: the file ends before the JSON does`},
	} {
		_, err := pool.ParseConfigFile("mcp.json", []byte(c.file))
		if err == nil || err.Error() != c.want {
			t.Errorf("%q: %v\nwant %s", c.file, err, c.want)
		}
	}
}

// A server entry of the wrong shape fails alone, saying which key is wrong
// and what it takes, where it is.
func TestServersFileEntryErrorsSayWhichKey(t *testing.T) {
	file := `{
  "mcpServers": {
    "a": {"command": 3},
    "b": {"command": "y", "args": ["x", 2]},
    "c": "nope",
    "d": {"url": "https://x.example", "oauth": {"clientId": 5}},
    "e": {"command": "y", "disabled": "yes"},
    "f": {"command": "y", "env": {"A": 1}},
    "ok": {"command": "y"}
  }
}`
	servers, err := pool.ParseConfigFile("mcp.json", []byte(file))
	if err != nil {
		t.Fatal(err)
	}
	want := map[string]string{
		"a":  `mcp.json:3:22: mcp server "a": "command" must be a string, not a number`,
		"b":  `mcp.json:4:35: mcp server "b": "args" must be an array of strings, not a number`,
		"c":  `mcp.json:5:10: mcp server "c": its entry must be an object, not a string`,
		"d":  `mcp.json:6:48: mcp server "d": "oauth.clientId" must be a string, not a number`,
		"e":  `mcp.json:7:39: mcp server "e": "disabled" must be true or false, not a string`,
		"f":  `mcp.json:8:34: mcp server "f": "env" must be an object of strings, not a number`,
		"ok": "",
	}
	for _, s := range servers {
		got := ""
		if s.Err != nil {
			got = s.Err.Error()
		}
		if got != want[s.Name] {
			t.Errorf("%s: %q\nwant %q", s.Name, got, want[s.Name])
		}
		for _, goName := range []string{"Go ", "fileEntry", "struct", "json: "} {
			if strings.Contains(got, goName) {
				t.Errorf("%s: %q names the decoder's %q", s.Name, got, goName)
			}
		}
	}
}
