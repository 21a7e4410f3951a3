package sandbox

import (
	"strconv"
	"strings"
	"testing"
)

// TestScriptRunAgainTakesItsProgramFromTheCache: the second run of a script
// uses the program the first compiled, and behaves the same to the byte,
// positions in its stack included (JavaScript and TypeScript alike).
func TestScriptRunAgainTakesItsProgramFromTheCache(t *testing.T) {
	for name, code := range map[string]string{
		"JavaScript": "const a = 1;\n  try { null.x } catch (e) { return a + ' ' + e.stack }",
		"TypeScript": "const a: number = 1;\ninterface I { n: number }\n\ttry { null.x } catch (e) { return a + ' ' + e.stack }",
	} {
		t.Run(name, func(t *testing.T) {
			first := run(newFakeHost(), code)
			wantOK(t, first)
			cached, ok := compiled.get(code)
			if !ok {
				t.Fatal("the script's program was not kept")
			}
			second := run(newFakeHost(), code)
			if second.Text != first.Text {
				t.Errorf("run again: %q, first run: %q", second.Text, first.Text)
			}
			if again, _ := compiled.get(code); again.prog != cached.prog {
				t.Error("the second run compiled the script again")
			}
			if want := positionOf(t, code, "x }"); !strings.Contains(second.Text, "script.ts:"+want) {
				t.Errorf("stack of the run from the cache does not point at %s: %s", want, second.Text)
			}
		})
	}
}

// TestCompileCacheStaysWithinItsBound: the oldest programs go first, the
// kept source never exceeds the bound, and a script too large for the cache
// is compiled without being kept.
func TestCompileCacheStaysWithinItsBound(t *testing.T) {
	c := compileCache{maxBytes: 64 << 10}
	script := func(i int) string { return "return " + strconv.Itoa(i) + "; //" + strings.Repeat("x", 1000) }
	for i := range 200 {
		prog, js, err := compile(script(i))
		if err != nil {
			t.Fatal(err)
		}
		c.put(script(i), compiledScript{prog: prog, js: js})
		if c.bytes > c.maxBytes {
			t.Fatalf("after %d scripts the cache holds %d bytes, over its bound of %d", i+1, c.bytes, c.maxBytes)
		}
	}
	if _, ok := c.get(script(0)); ok {
		t.Error("the oldest script is still kept")
	}
	if _, ok := c.get(script(199)); !ok {
		t.Error("the newest script is not kept")
	}
	large := "return 1; //" + strings.Repeat("x", c.maxBytes/8)
	prog, js, err := compile(large)
	if err != nil {
		t.Fatal(err)
	}
	c.put(large, compiledScript{prog: prog, js: js})
	if _, ok := c.get(large); ok {
		t.Error("a script over an eighth of the bound was kept")
	}
}
