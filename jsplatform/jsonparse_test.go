package jsplatform

import (
	"strconv"
	"testing"
)

// TestJSONParseErrorsReadAsNodes: malformed text fails with the message
// Node 22 gives (taken from Node), never with the Go decoder's words; the
// corpus (json_errors.ts) compares many more against a live Node.
func TestJSONParseErrorsReadAsNodes(t *testing.T) {
	cases := map[string]string{
		``:                                       `Unexpected end of JSON input`,
		`{"a":1} x`:                              `Unexpected non-whitespace character after JSON at position 8 (line 1 column 9)`,
		`{"a" 1}`:                                `Expected ':' after property name in JSON at position 5 (line 1 column 6)`,
		`abc`:                                    `Unexpected token 'a', "abc" is not valid JSON`,
		`{"a":` + "\n" + ` [1,` + "\n" + ` 2,]}`: `Unexpected token ']', "{"a":` + "\n" + ` [1,` + "\n" + ` 2,]}" is not valid JSON`,
		`[01]`:                                   `Unexpected number in JSON at position 2 (line 1 column 3)`,
		`"abc`:                                   `Unterminated string in JSON at position 4 (line 1 column 5)`,
		`{"k":"\q"}`:                             `Bad escaped character in JSON at position 7 (line 1 column 8)`,
		"{}\r\n{}":                               `Unexpected non-whitespace character after JSON at position 4 (line 2 column 1)`,
		`this is a long text that is not json`:   `Unexpected token 'h', "this is a l"... is not valid JSON`,
	}
	for text, want := range cases {
		t.Run(text, func(t *testing.T) {
			got := evaluate(t, `try { JSON.parse(`+strconv.Quote(text)+`); return "parsed"; }
				catch (e) { return [e instanceof SyntaxError, e.message]; }`)
			wantJSON(t, got, `[true,`+strconv.Quote(want)+`]`)
		})
	}
	t.Run("valid text and revivers are untouched", func(t *testing.T) {
		got := evaluate(t, `
			let own = "none";
			try { JSON.parse("[1]", () => { throw new SyntaxError("mine"); }); } catch (e) { own = e.message; }
			return [JSON.parse('{"n":"7"}', (k, v) => (k === "n" ? Number(v) : v)), own, JSON.parse.name, JSON.parse.length];`)
		wantJSON(t, got, `[{"n":7},"mine","parse",2]`)
	})
}
