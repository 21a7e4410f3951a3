package jsplatform

import (
	"strings"
	"testing"

	"github.com/dop251/goja"
)

// TestEncodingsMatchNode compares the decoders with what Node 22 gives for
// the same calls (recorded here): each maximal invalid UTF-8 subsequence is
// one U+FFFD, fatal decoding refuses it, and base64 is the forgiving
// decode of the HTML standard.
func TestEncodingsMatchNode(t *testing.T) {
	got := evaluate(t, `
		const dec = (bytes, opts) => { try { return new TextDecoder('utf-8', opts).decode(new Uint8Array(bytes)); } catch (e) { return e.name + ': ' + e.message; } };
		const at = (s) => { try { return atob(s); } catch (e) { return e.name; } };
		const bt = (s) => { try { return btoa(s); } catch (e) { return e.name; } };
		return {
			lenient: [[0xe2, 0x82], [0xe2, 0x82, 0x41], [0xe0, 0x80, 0x41], [0xed, 0xa0, 0x80], [0xf0, 0x9f, 0x98], [0xf4, 0x90, 0x80, 0x80], [0xc0, 0x80], [0xef, 0xbb, 0xbf, 0x41], [0xf0, 0x9f, 0x98, 0x80]].map((b) => dec(b)),
			fatal: dec([0xe2, 0x82, 0x41], { fatal: true }),
			view: new TextDecoder().decode(new Uint8Array([0x78, 0xc3, 0xa9, 0x79]).subarray(1, 3)),
			atob: ['aGk=', 'aGk', 'aG k=\n', 'a', 'ab==', 'ab=', 'ab=c', '/w==', 'aGk=='].map(at),
			btoa: ['', 'h', '\xff\xfe', 'é', '€'].map(bt),
		};`)
	wantJSON(t, got, `{
		"lenient": ["\ufffd", "\ufffdA", "\ufffd\ufffdA", "\ufffd\ufffd\ufffd", "\ufffd", "\ufffd\ufffd\ufffd\ufffd", "\ufffd\ufffd", "A", "😀"],
		"fatal": "TypeError: The encoded data was not valid for encoding utf-8",
		"view": "é",
		"atob": ["hi", "hi", "hi", "InvalidCharacterError", "i", "InvalidCharacterError", "InvalidCharacterError", "ÿ", "InvalidCharacterError"],
		"btoa": ["", "aA==", "//4=", "6Q==", "InvalidCharacterError"]
	}`)
}

// TestStructuredCloneDefinesKeys: a clone's keys are its own, as the
// original's were; an own "__proto__" key never becomes the prototype.
func TestStructuredCloneDefinesKeys(t *testing.T) {
	got := evaluate(t, `
		const c = structuredClone(JSON.parse('{"__proto__": {"x": 1}, "a": [{"__proto__": 2}]}'));
		return [Object.keys(c), Object.getPrototypeOf(c) === Object.prototype, c.x === undefined, Object.keys(c.a[0]), JSON.stringify(c)];`)
	wantJSON(t, got, `[["__proto__", "a"], true, true, ["__proto__"], "{\"__proto__\":{\"x\":1},\"a\":[{\"__proto__\":2}]}"]`)
}

// The decoders are linear: 100 KB is one pass, not one copy per character.
func BenchmarkDecode100KB(b *testing.B) {
	vm := goja.New()
	p, err := Install(vm, Config{})
	if err != nil {
		b.Fatal(err)
	}
	text := strings.Repeat("héllo wörld ", 100_000/12)
	if err := vm.Set("text", text); err != nil {
		b.Fatal(err)
	}
	setup := `const bytes = new TextEncoder().encode(text), encoded = btoa(unescape(encodeURIComponent(text))), decoder = new TextDecoder();`
	if err := p.Prepare(setup); err != nil {
		b.Fatal(err)
	}
	if _, err := vm.RunString(setup); err != nil {
		b.Fatal(err)
	}
	for _, c := range []struct{ name, code string }{
		{"TextDecoder", `decoder.decode(bytes).length`},
		{"atob", `atob(encoded).length`},
		{"btoa", `btoa(atob(encoded)).length`},
	} {
		prog := goja.MustCompile(c.name, c.code, true)
		b.Run(c.name, func(b *testing.B) {
			for b.Loop() {
				if _, err := vm.RunProgram(prog); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}
