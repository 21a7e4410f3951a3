package tests

import (
	"strings"
	"testing"
)

// What a script can see stays honest and bounded, run through the built
// binary and its worker processes.

// A failure's text is capped as a return value is, and says where it was
// cut: a script can throw a string of any length.
func TestFailureTextIsCapped(t *testing.T) {
	res, _ := execJSONStatus(t, 1, `throw new Error("x".repeat(6_000_000));`, "")
	if res.OK {
		t.Fatal("the script succeeded")
	}
	if len(res.Text) > 50_000 {
		t.Errorf("the failure text is %d characters long, want it capped", len(res.Text))
	}
	// "Error: ", the message, and where it was thrown.
	if want := "[error text truncated: 6000021 characters in all]"; !strings.HasSuffix(res.Text, want) {
		t.Errorf("the failure text does not say where it was cut (%q): ...%s", want, res.Text[max(0, len(res.Text)-200):])
	}
}

// A conversion error the script catches reads as V8's, whole or in part:
// no Go pointer or type name is in it to slice out.
func TestCaughtConversionErrorCarriesNoGoInternals(t *testing.T) {
	script := `const seen = [];
for (const make of [() => Object.create(null), () => ({ __proto__: null, a: { b: 1 } }), () => ({ toString() { return {}; } })]) {
  try { seen.push("" + make()); } catch (e) { seen.push(e.message.slice(0, 30), e.message.slice(30)); }
}
return seen.join("|");`
	res, _ := execJSON(t, script, "")
	want := strings.Repeat("Cannot convert object to primi|tive value|", 3)
	if !res.OK || res.Text != strings.TrimSuffix(want, "|") {
		t.Errorf("got ok=%v %q, want %q", res.OK, res.Text, want)
	}
}

// structuredClone defines a clone's keys: an own "__proto__" key stays an
// own key, as in Node.
func TestStructuredCloneKeepsAnOwnProtoKey(t *testing.T) {
	script := `const c = structuredClone(JSON.parse('{"__proto__": {"polluted": true}, "a": 1}'));
return [Object.keys(c).join(","), c.polluted === undefined, Object.getPrototypeOf(c) === Object.prototype];`
	res, _ := execJSON(t, script, "")
	if want := `["__proto__,a",true,true]`; !res.OK || res.Text != want {
		t.Errorf("got ok=%v %q, want %s", res.OK, res.Text, want)
	}
}

// atob, btoa and TextDecoder take a long input in one pass: two megabytes
// decode well inside the run's budget (built by appending a character at a
// time, the same took longer than any budget).
func TestLongBase64AndTextDecodeInOnePass(t *testing.T) {
	script := `const text = "héllo wörld ".repeat(200_000);
const bytes = new TextEncoder().encode(text);
const decoded = new TextDecoder().decode(bytes);
const latin1 = atob(btoa(String.fromCharCode(...bytes.subarray(0, 60_000))));
const big = atob(btoa("x".repeat(2_000_000)));
return [decoded === text, latin1.length, big.length];`
	res, _ := execJSON(t, script, "")
	if want := `[true,60000,2000000]`; !res.OK || res.Text != want {
		t.Errorf("got ok=%v %q, want %s", res.OK, res.Text, want)
	}
}
