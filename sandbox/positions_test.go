package sandbox

import (
	"encoding/json"
	"fmt"
	"regexp"
	"strings"
	"testing"
	"unicode/utf8"
)

// positionOf is where the last occurrence of marker starts in code, as Node
// counts it: line from 1, column from 1 in UTF-16 code units.
func positionOf(t *testing.T, code, marker string) string {
	t.Helper()
	at := strings.LastIndex(code, marker)
	if at < 0 {
		t.Fatalf("marker %q not in the script", marker)
	}
	line, column := 1, 1
	for i := 0; i < at; {
		r, size := utf8.DecodeRuneInString(code[i:])
		switch {
		case r == '\r' && i+1 < len(code) && code[i+1] == '\n':
			size = 2
			fallthrough
		case r == '\n' || r == '\r' || r == '\u2028' || r == '\u2029':
			line, column = line+1, 1
		case r >= 0x10000:
			column += 2
		default:
			column++
		}
		i += size
	}
	return fmt.Sprintf("%d:%d", line, column)
}

var firstFrame = regexp.MustCompile(`\n\s*at (?:[^\n]*\()?script\.ts:(\d+:\d+)`)

// Proves EDGE-9 for what the script itself sees: the positions in an
// error's stack are those of the script as written, on the first line as on
// any other, with or without TypeScript, whatever characters come before.
// Each position is that of the token the error is reported at: the property
// read from null (x), or the new of new Error (Node reports the same tokens).
func TestScriptSeesPositionsAsWritten(t *testing.T) {
	catchNull := `try { null.x } catch (e) { return e.stack }`
	newError := `const e = new Error("boom"); return e.stack`
	cases := map[string]struct{ code, marker string }{
		"JS, line 1":                 {catchNull, "x }"},
		"JS, later line":             {"const a = 1;\n  " + catchNull, "x }"},
		"TS, line 1":                 {"const a: number = 1; " + catchNull, "x }"},
		"TS, later line":             {"const a: number = 1;\ninterface I { n: number }\n\t" + catchNull, "x }"},
		"JS, new Error on line 1":    {newError, "new Error"},
		"TS, new Error on line 3":    {"type T = string;\nconst s: T = 'a';\n" + newError, "new Error"},
		"JS, non-ASCII on line 1":    {`const s = "héllo 🙂"; ` + catchNull, "x }"},
		"JS, non-ASCII later":        {"const a = 1;\nconst s = \"🙂\";\nconst t = \"ü\"; " + catchNull, "x }"},
		"JS, after a non-ASCII line": {"const s = \"ü\";\nconst t = 2;\n  " + catchNull, "x }"},
		"TS, non-ASCII on the line":  {"const s: string = \"ü🙂\"; " + catchNull, "x }"},
		"JS, CRLF line ends":         {"const a = 1;\r\nconst b = 2; " + catchNull, "x }"},
		"TS, CRLF line ends":         {"const a: number = 1;\r\nconst b = 2; " + catchNull, "x }"},
	}
	for name, c := range cases {
		t.Run(name, func(t *testing.T) {
			res := run(newFakeHost(), c.code)
			wantOK(t, res)
			stack := stringValueOf(t, res)
			m := firstFrame.FindStringSubmatch(stack)
			if m == nil {
				t.Fatalf("no script frame in the stack %q", stack)
			}
			if want := positionOf(t, c.code, c.marker); m[1] != want {
				t.Errorf("stack says %s, want %s (where %q is in the script):\n%s", m[1], want, c.marker, stack)
			}
		})
	}
}

// TestStackHasNoWrapperFrame: the script's frames are all there is; the
// wrapper that makes the script an async function adds none of its own
// (Node's stack for a function body shows none either).
func TestStackHasNoWrapperFrame(t *testing.T) {
	for name, code := range map[string]string{
		"JS": "function f() {\n  return new Error('x').stack;\n}\nreturn f();",
		"TS": "function f(): string {\n  return new Error('x').stack!;\n}\nreturn f();",
	} {
		t.Run(name, func(t *testing.T) {
			res := run(newFakeHost(), code)
			wantOK(t, res)
			stack := stringValueOf(t, res)
			frames := regexp.MustCompile(`\bat .*script\.ts:(\d+):\d+`).FindAllStringSubmatch(stack, -1)
			var lines []string
			for _, f := range frames {
				lines = append(lines, f[1])
			}
			if strings.Join(lines, ",") != "2,4" {
				t.Errorf("frames on lines %v, want the throw in f (2) and the call (4):\n%s", lines, stack)
			}
		})
	}
}

// TestUncaughtErrorPositionOnEveryLine: the line:col the model reads for an
// uncaught error is the script's own, on line 1 too.
func TestUncaughtErrorPositionOnEveryLine(t *testing.T) {
	for name, code := range map[string]string{
		"JS, line 1":     `const r = null; r.title`,
		"JS, line 2":     "const r = null;\n  r.title",
		"TS, line 1":     `const r: {title: string} | null = null; r!.title`,
		"TS, line 2":     "const r: {title: string} | null = null;\n\t r!.title",
		"JS, non-ASCII":  `const s = "ü🙂"; const r = null; r.title`,
		"TS, non-ASCII2": "const s: string = \"ü🙂\";\nconst r: any = null; r.title",
	} {
		t.Run(name, func(t *testing.T) {
			res := run(newFakeHost(), code)
			wantFailure(t, res, "(at line "+positionOf(t, code, "title")+")")
		})
	}
}

// stringValueOf is a successful run's return value, a string.
func stringValueOf(t *testing.T, res Result) string {
	t.Helper()
	var s string
	if err := json.Unmarshal(res.Value, &s); err != nil {
		t.Fatalf("value %s is not a string: %v", res.Value, err)
	}
	return s
}
