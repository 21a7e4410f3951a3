package sandbox

import (
	"strconv"
	"testing"
)

const (
	objectConversion = "TypeError: Cannot convert object to primitive value"
	symbolToString   = "TypeError: Cannot convert a Symbol value to a string"
	symbolToNumber   = "TypeError: Cannot convert a Symbol value to a number"
)

// TestScriptCatchesConversionErrorsInJavaScriptsWords catches each failing
// conversion inside the script and compares the error it holds with the one
// Node gives for the same code: the script never reads goja's text, which
// shows Go pointers and the object's data.
func TestScriptCatchesConversionErrorsInJavaScriptsWords(t *testing.T) {
	h := newFakeHost().value("mcp__srv__fetch", `{"id":2,"title":"two","tags":[{"n":1}]}`)
	cases := map[string]struct{ expr, want string }{
		"result concatenated":          {`"id: " + r`, objectConversion},
		"result in a template":         {"`${r}`", objectConversion},
		"String of a result":           {`String(r)`, objectConversion},
		"result as a number":           {`+r`, objectConversion},
		"result compared":              {`r > 1`, objectConversion},
		"nested result in a join":      {`r.tags.join()`, objectConversion},
		"result as a property key":     {`({})[r]`, objectConversion},
		"atob of a bare object":        {`atob(Object.create(null))`, objectConversion},
		"btoa of a result":             {`btoa(r)`, objectConversion},
		"atob of a symbol":             {`atob(Symbol())`, symbolToString},
		"TextEncoder of a bare object": {`new TextEncoder().encode(Object.create(null))`, objectConversion},
		"encodeInto of a symbol":       {`new TextEncoder().encodeInto(Symbol(), new Uint8Array(4))`, symbolToString},
		"URL of a bare object":         {`new URL(Object.create(null))`, objectConversion},
		"URL base of a result":         {`new URL("/a", r)`, objectConversion},
		"URLSearchParams set":          {`new URLSearchParams().set("k", r)`, objectConversion},
		"TextDecoder label":            {`new TextDecoder(Object.create(null))`, objectConversion},
		"setTimeout symbol delay":      {`setTimeout(() => {}, Symbol())`, symbolToNumber},
		"setTimeout BigInt delay":      {`setTimeout(() => {}, 1n)`, "TypeError: Cannot mix BigInt and other types, use explicit conversions"},
		"setInterval result delay":     {`setInterval(() => {}, r)`, objectConversion},
		"toLocaleString options":       {`(1).toLocaleString("en", { minimumFractionDigits: r })`, objectConversion},
		"own bare object concatenated": {`"x" + Object.create(null)`, objectConversion},
		"own bare object as a string":  {`String({ __proto__: null, a: { b: 1 } })`, objectConversion},
		"toString returning an object": {`"" + { toString() { return {}; }, valueOf() { return {}; } }`, objectConversion},
		"array of bare objects joined": {`[Object.create(null)].join()`, objectConversion},
	}
	for name, c := range cases {
		t.Run(name, func(t *testing.T) {
			// The comparison is made in the script: text that leaves the
			// sandbox is cleaned of engine internals on the way out.
			want := strconv.Quote(c.want)
			res := run(h, `const r = await tools.mcp__srv__fetch({ id: 2 });
				try { const v = `+c.expr+`; return "no error: " + typeof v; }
				catch (e) { const seen = e.name + ": " + e.message; return [e instanceof TypeError, seen === `+want+`, seen]; }`)
			wantValue(t, res, `[true,true,`+want+`]`)
		})
	}
}

// TestConvertibleValuesStillConvert: what converts in Node converts here,
// script code included, and clearing a timer never throws, as in Node.
func TestConvertibleValuesStillConvert(t *testing.T) {
	res := run(newFakeHost(), `
		const fired = await new Promise((resolve) => setTimeout(() => resolve("fired"), { valueOf: () => 2 }));
		const text = { toString: () => "aGk=" };
		return [fired, atob(text), btoa({ toString: () => "hi" }),
			clearTimeout(Symbol()), clearInterval(1n), clearTimeout(Object.create(null)), clearTimeout("7")];`)
	wantValue(t, res, `["fired","hi","aGk=",null,null,null,null]`)
}
