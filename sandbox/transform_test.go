package sandbox

import (
	"context"
	"encoding/json"
	"errors"
	"strings"
	"testing"

	"github.com/mcpexec/mcpexec/jsplatform"
)

// TestTypeScriptRuns runs the TypeScript models write after reading the
// catalog's signatures: every construct must run with JavaScript's meaning.
func TestTypeScriptRuns(t *testing.T) {
	h := newFakeHost().value("mcp__srv__fetch", `{"id":2,"title":"two"}`)
	cases := map[string]struct{ code, want string }{
		"annotation and as": {
			`const r: {id: number} = await tools.mcp__srv__fetch({id: 2}) as any; return r.id;`, `2`},
		"interface and generics": {`
			interface Item { id: number; title?: string }
			function first<T extends Item>(items: T[]): T | undefined { return items[0]; }
			const got = first<Item>([await tools.mcp__srv__fetch({ id: 2 })]);
			return got!.title;`, `"two"`},
		"enum": {`enum Color { Red, Green = "g" } return [Color.Red, Color.Green, Color[0]];`, `[0,"g","Red"]`},
		"as const and satisfies": {`
			const config = { retries: 3, mode: "fast" } as const satisfies Record<string, unknown>;
			type Mode = typeof config.mode;
			const m: Mode = config.mode;
			return m + config.retries;`, `"fast3"`},
		"type-only declarations": {`
			type Id = number | string;
			declare const ambient: number;
			abstract class Base { abstract name(): string; protected readonly n: number = 1; }
			class Impl extends Base implements Object { name(): string { return "impl" + this.n; } }
			return new Impl().name();`, `"impl1"`},
		"non-null and optional chaining": {`
			const m = new Map<string, number[]>([["a", [1]]]);
			return [m.get("a")!.length, m.get("b")?.length ?? -1];`, `[1,-1]`},
		"class fields and private members": {`
			class Counter { #n = 0; static made = 0; count = () => ++this.#n; constructor() { Counter.made++; } }
			const c = new Counter(); c.count(); c.count();
			return [c.count(), Counter.made];`, `[3,1]`},
	}
	for name, c := range cases {
		t.Run(name, func(t *testing.T) {
			wantValue(t, run(h, c.code), c.want)
		})
	}
}

// TestAsyncIterationRuns covers what goja cannot parse itself: async
// generators and for await, lowered by the transform.
func TestAsyncIterationRuns(t *testing.T) {
	h := newFakeHost().tool("mcp__srv__page", func(_ context.Context, args json.RawMessage) (CallResult, error) {
		var in struct{ Page int }
		_ = json.Unmarshal(args, &in)
		if in.Page >= 3 {
			return CallResult{Value: json.RawMessage(`{"items":[],"next":null}`)}, nil
		}
		return CallResult{Value: json.RawMessage(`{"items":["p` + string(rune('0'+in.Page)) + `"],"next":` + string(rune('1'+in.Page)) + `}`)}, nil
	})
	res := run(h, `
		async function* pages(): AsyncGenerator<string> {
			let page: number | null = 0;
			while (page !== null) {
				const r = await tools.mcp__srv__page({ page });
				yield* r.items;
				page = r.next;
			}
		}
		const seen: string[] = [];
		for await (const item of pages()) seen.push(item);
		for await (const v of [Promise.resolve(1), 2]) seen.push(String(v));
		const custom = { async *[Symbol.asyncIterator]() { yield "own"; } };
		for await (const v of custom) seen.push(v);
		return seen;`)
	wantValue(t, res, `["p0","p1","p2","1","2","own"]`)
}

// Proves ISO-3.
func TestISO3_ModuleSyntaxIsAPlainLanguageError(t *testing.T) {
	cases := map[string]string{
		`import { readFileSync } from "node:fs";`:       "import statements are not available",
		`import * as fs from "fs"; return fs;`:          "import statements are not available",
		`export const answer = 42;`:                     "export statements are not available",
		`export default 1`:                              "export statements are not available",
		`return import.meta.url;`:                       "import.meta is not available",
		`const fs = require("fs"); return fs.readFile;`: "require is not available",
	}
	for code, want := range cases {
		res := run(newFakeHost(), code)
		wantFailure(t, res, want)
		if strings.Contains(res.Text, "Unexpected") {
			t.Errorf("%s: engine message leaked: %q", code, res.Text)
		}
	}
	// Text that merely mentions module syntax is not refused.
	wantValue(t, run(newFakeHost(), `const s: string = "import.meta and import x from y"; return s;`),
		`"import.meta and import x from y"`)
}

// TestISO3_NoSourceMapCommentSurvivesTheTransform checks the transform's
// output itself: goja must never see a sourceMappingURL comment.
// Proves ISO-3.
func TestISO3_NoSourceMapCommentSurvivesTheTransform(t *testing.T) {
	for _, code := range []string{
		"return 1\n//# sourceMappingURL=/etc/passwd",
		"return 1 //# sourceMappingURL=file:///etc/passwd",
		"return 1\n//@ sourceMappingURL=x.map",
		"return 1\n/*# sourceMappingURL=x.map */",
		"return 1\n/*! legal comment //# sourceMappingURL=x.map */",
	} {
		out, err := transform(code)
		if err != nil {
			t.Fatalf("%q: %v", code, err)
		}
		if strings.Contains(out.code, "sourceMappingURL") {
			t.Errorf("%q: transform kept the comment:\n%s", code, out.code)
		}
	}
}

// Proves EDGE-9.
func TestEDGE9_TransformErrorsPointAtTheScriptAsWritten(t *testing.T) {
	cases := map[string]string{
		"const a = 1;\nconst b = ;":               "SyntaxError: Line 2:11 ",
		"const x: number = );":                    "SyntaxError: Line 1:19 ",
		"const é = 'ü'; const y = ;":              "SyntaxError: Line 1:26 ",
		"const a = 1;\n\nconst b = a +* 2;\n":     "SyntaxError: Line 3:14 ",
		"const list = [1, 2\nreturn list":         "SyntaxError: Line 2:",
		"return (1 +":                             "SyntaxError: Unexpected end of script",
		"interface A { x: number }\nlet a: A = {": "SyntaxError: Unexpected end of script",
	}
	for code, want := range cases {
		res := run(newFakeHost(), code)
		wantFailure(t, res, want)
		if strings.Contains(res.Text, scriptName) || strings.Contains(res.Text, "async function") {
			t.Errorf("%q: wrapper details leaked: %q", code, res.Text)
		}
	}
}

// TestUncaughtErrorsSayWhereAndWhichTool checks the failure text of an
// uncaught error: the position in the script as written (through the
// transform), and for a rejected nested call the tool that rejected.
func TestUncaughtErrorsSayWhereAndWhichTool(t *testing.T) {
	h := newFakeHost().value("mcp__srv__ok", `{"id":1}`).
		tool("mcp__srv__fetch", func(context.Context, json.RawMessage) (CallResult, error) {
			return CallResult{}, errors.New("no record with id 99")
		}).
		tool("odd-name", func(context.Context, json.RawMessage) (CallResult, error) {
			return CallResult{}, errors.New("refused")
		})
	cases := map[string]string{
		"interface R { id: number }\nconst r: R = await tools.mcp__srv__ok({});\nthrow new Error(`bad ${r.id}`);": "Error: bad 1 (at line 3:",
		"const x: any = null;\n\nfunction f() {\n  return x.field;\n}\nf();":                                      "TypeError: Cannot read property 'field' of ",
		"type T = number;\nconst r = await tools.mcp__srv__fetch({ id: 99 });":                                    "Error: no record with id 99 (rejected by tools.mcp__srv__fetch called at line 2:",
		`await tools["odd-name"]({})`: `Error: refused (rejected by tools["odd-name"] called at line 1:`,
	}
	for code, want := range cases {
		res := run(h, code)
		wantFailure(t, res, want)
	}
	// Logged whole, a rejection names its tool too; its message stays the
	// tool's own.
	res := run(h, "try { await tools.mcp__srv__fetch({ id: 99 }); } catch (e) { console.log(e); return e.message; }")
	wantOK(t, res)
	if want := "Error: no record with id 99 (rejected by tools.mcp__srv__fetch called at line 1:"; !strings.HasPrefix(res.Text, want) {
		t.Errorf("logged rejection %q, want it to start %q", res.Text, want)
	}
	if !strings.HasSuffix(res.Text, "Return value:\nno record with id 99") {
		t.Errorf("message changed: %q", res.Text)
	}
	res = run(h, "const x: any = null;\n\nfunction f() {\n  return x.field;\n}\nf();")
	wantFailure(t, res, "(at line 4:")
	res = run(h, "  null.x")
	wantFailure(t, res, "(at line 1:")
}

// TestErrorTextShowsNoGoValues converts a tool result (an object with a
// null prototype) to a string, which goja reports with a dump of its Go
// value: no text the model reads may carry it.
func TestErrorTextShowsNoGoValues(t *testing.T) {
	h := newFakeHost().value("mcp__srv__fetch", `{"id":2}`)
	for _, code := range []string{
		`const r = await tools.mcp__srv__fetch({}); return "id: " + r;`,
		`const r = await tools.mcp__srv__fetch({}); try { return "id: " + r; } catch (e) { return e.message; }`,
		`const r = await tools.mcp__srv__fetch({}); try { return +r; } catch (e) { console.log(e.message, e); return { e: String(e.message) }; }`,
		"const r = await tools.mcp__srv__fetch({}); return `${r}`;",
	} {
		res := run(h, code)
		for _, leak := range []string{"0x", "goja", "&{", "map["} {
			if strings.Contains(res.Text, leak) {
				t.Errorf("%s: text shows Go internals (%q):\n%s", code, leak, res.Text)
			}
		}
		if !strings.Contains(res.Text, jsplatform.ConversionText) {
			t.Errorf("%s: text lacks %q:\n%s", code, jsplatform.ConversionText, res.Text)
		}
	}
}

func TestOverlongScriptIsRefusedBeforeTheTransform(t *testing.T) {
	res := run(newFakeHost(), "return 1;"+strings.Repeat(" ", maxScriptBytes))
	wantFailure(t, res, msgScriptTooLong)
}

// TestPlainJavaScriptRunsAsWritten: a script goja parses skips the
// transform, so what it reads of its own source is the source as written,
// as in Node (the transform would drop the comment and change the layout).
func TestPlainJavaScriptRunsAsWritten(t *testing.T) {
	res := run(newFakeHost(), "function add(a, b) { /* sum */ return a + b; }\nreturn add.toString();")
	wantValue(t, res, `"function add(a, b) { /* sum */ return a + b; }"`)
}

// TestTransformFailureIsAPlainLanguageError: esbuild panics lowering an
// async generator with a parameter named arguments beside a default; the
// script's author reads what to change, not esbuild's panic.
func TestTransformFailureIsAPlainLanguageError(t *testing.T) {
	res := run(newFakeHost(), "async function* f(p = [], arguments) { yield p; }\nreturn 1;")
	wantFailure(t, res, msgTransformFailed)
	if strings.Contains(res.Text, "panic") || strings.Contains(res.Text, "index out of range") {
		t.Errorf("esbuild's panic leaked: %q", res.Text)
	}
	// The same function without the parameter named arguments runs.
	res = run(newFakeHost(), "async function* f(p = [], q) { yield p; }\nfor await (const v of f()) return v;")
	wantValue(t, res, "[]")
}
