package sandbox

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// Proves ISO-1.
func TestISO1_HostGlobalsAreUndefined(t *testing.T) {
	res := run(newFakeHost(), `return {
		require: typeof require, process: typeof process, Buffer: typeof Buffer,
		module: typeof module, fetch: typeof globalThis.fetch, XMLHttpRequest: typeof XMLHttpRequest,
		WebAssembly: typeof WebAssembly, exports: typeof exports, global: typeof global,
		importScripts: typeof importScripts, Deno: typeof Deno, Bun: typeof Bun,
		tools: typeof tools, console: typeof console,
	}`)
	wantValue(t, res, `{"require":"undefined","process":"undefined","Buffer":"undefined","module":"undefined",
		"fetch":"undefined","XMLHttpRequest":"undefined","WebAssembly":"undefined","exports":"undefined",
		"global":"undefined","importScripts":"undefined","Deno":"undefined","Bun":"undefined",
		"tools":"object","console":"object"}`)
}

// codeGenerationPaths are the ways a script might compile a string. Each must
// throw the sandbox's EvalError, and the compiled code must never run.
var codeGenerationPaths = map[string]string{
	"eval":                     `eval(src)`,
	"indirect eval":            `(0, eval)(src)`,
	"globalThis.eval":          `globalThis.eval(src)`,
	"Function":                 `Function(src)()`,
	"new Function":             `new Function(src)()`,
	"function constructor":     `(function () {}).constructor(src)()`,
	"arrow constructor":        `(() => 1).constructor(src)()`,
	"class constructor":        `(class A {}).constructor(src)()`,
	"async function ctor":      `(async function () {}).constructor(src)()`,
	"async arrow ctor":         `(async () => 1).constructor(src)()`,
	"generator function ctor":  `(function* () {}).constructor(src)().next()`,
	"getPrototypeOf async":     `Object.getPrototypeOf(async function () {}).constructor(src)()`,
	"getPrototypeOf generator": `Object.getPrototypeOf(function* () {}).constructor(src)().next()`,
	"Reflect.construct":        `Reflect.construct(Function, [src])()`,
	"bind":                     `Function.bind(null, src)()()`,
	"bound method ctor":        `Math.max.bind(null).constructor(src)()`,
	"tool wrapper ctor":        `tools.mcp__s__t.constructor(src)()`,
	"tool wrapper new":         `new tools.mcp__s__t.constructor(src)()`,
	"console method ctor":      `console.log.constructor(src)()`,
	"search ctor":              `tools["$codemode"].search.constructor(src)()`,
	"unknown tool ctor":        `tools.mcp__nope__x.constructor(src)()`,
	"descriptor":               `Object.getOwnPropertyDescriptor(Function.prototype, "constructor").value(src)()`,
	"apply":                    `Function.prototype.constructor.apply(null, [src])()`,
	"call":                     `Function.prototype.constructor.call(null, src)()`,
}

// Proves ISO-2.
func TestISO2_EveryCodeGenerationPathThrowsEvalError(t *testing.T) {
	h := newFakeHost().value("mcp__s__t", `null`)
	for name, expr := range codeGenerationPaths {
		t.Run(name, func(t *testing.T) {
			res := run(h, fmt.Sprintf(`
				const src = "globalThis.compiled = true; return 1";
				let caught = "nothing thrown";
				try { %s; } catch (e) { caught = e instanceof EvalError ? "EvalError" : String(e); }
				return { caught, compiledRan: typeof globalThis.compiled !== "undefined" };`, expr))
			wantValue(t, res, `{"caught":"EvalError","compiledRan":false}`)
		})
	}
}

// Proves ISO-2.
func TestISO2_LockdownCannotBeUndone(t *testing.T) {
	res := run(newFakeHost(), `
		const proto = Object.getPrototypeOf(function () {});
		const attempts = [];
		try { proto.constructor = function () {}; } catch (e) { attempts.push("assign"); }
		try { Object.defineProperty(proto, "constructor", { value: 1 }); } catch (e) { attempts.push("define"); }
		try { delete proto.constructor; } catch (e) { attempts.push("delete"); }
		try { globalThis.eval = 1; } catch (e) { attempts.push("eval"); }
		let still = "", evalStill = "";
		try { proto.constructor("return 1"); } catch (e) { still = e.name; }
		try { eval("1"); } catch (e) { evalStill = e.name; }
		return { still, evalStill, sameThrower: proto.constructor === Function };`)
	wantValue(t, res, `{"still":"EvalError","evalStill":"EvalError","sameThrower":true}`)
}

// Proves ISO-3.
func TestISO3_ImportIsAPlainLanguageError(t *testing.T) {
	for _, code := range []string{
		`const fs = await import("node:fs"); return fs;`,
		`return import("fs").then(m => m.readFileSync("/etc/passwd"))`,
		`import fs from "node:fs";
		return 1;`,
	} {
		res := run(newFakeHost(), code)
		wantFailure(t, res, "not available", "cannot load modules")
		if strings.Contains(res.Text, "Line") || strings.Contains(res.Text, "Unexpected") {
			t.Errorf("engine message leaked: %q", res.Text)
		}
	}
}

// TestISO3_SourceMapCommentDoesNotReadHostFiles covers the goja parser's
// habit of following a sourceMappingURL comment to a host file: a map file
// that is not valid JSON would make parsing fail if it were read.
// Proves ISO-3.
func TestISO3_SourceMapCommentDoesNotReadHostFiles(t *testing.T) {
	dir := t.TempDir()
	mapFile := filepath.Join(dir, "secret.map")
	if err := os.WriteFile(mapFile, []byte("not a source map"), 0o600); err != nil {
		t.Fatal(err)
	}
	res := run(newFakeHost(), "return 7\n//# sourceMappingURL=file://"+mapFile)
	wantValue(t, res, `7`)
}

// Proves ISO-4.
func TestISO4_ReachableFunctionsBelongToTheSandboxRealm(t *testing.T) {
	h := newFakeHost().value("mcp__s__t", `{"nested":{"x":1},"list":[{"y":2}]}`)
	res := run(h, `
		const r = await tools.mcp__s__t({});
		let viaResult = "no throw";
		try { r.constructor("return process")(); } catch (e) { viaResult = e.constructor === TypeError ? "TypeError" : e.name; }
		return {
			resultCtor: typeof r.constructor,
			nestedCtor: typeof r.nested.constructor,
			resultProto: Object.getPrototypeOf(r) === null,
			arrayItemProto: Object.getPrototypeOf(r.list[0]) === null,
			viaResult,
			toolCtorIsSandboxFunction: tools.mcp__s__t.constructor === Function,
			resultOwnSymbols: Object.getOwnPropertySymbols(r).length,
			consoleCtorIsSandboxFunction: console.log.constructor === Function,
			toolName: tools.mcp__s__t.name,
			consoleName: console.log.name,
			searchName: tools["$codemode"].search.name,
		};`)
	wantValue(t, res, `{"resultCtor":"undefined","nestedCtor":"undefined","resultProto":true,"arrayItemProto":true,
		"viaResult":"TypeError","toolCtorIsSandboxFunction":true,"resultOwnSymbols":0,
		"consoleCtorIsSandboxFunction":true,
		"toolName":"mcp__s__t","consoleName":"log","searchName":"search"}`)
}

// Proves ISO-4.
func TestISO4_HostErrorsCarryOnlyAMessage(t *testing.T) {
	h := newFakeHost().tool("mcp__s__t", func(context.Context, json.RawMessage) (CallResult, error) {
		return CallResult{}, &secretError{token: "s3cr3t"}
	})
	res := run(h, `
		try { await tools.mcp__s__t({}); } catch (e) {
			return { keys: Object.getOwnPropertyNames(e).sort(), message: e.message, ctor: e.constructor === Error, value: typeof e.value };
		}`)
	wantValue(t, res, `{"keys":["message","stack"],"message":"permission check failed","ctor":true,"value":"undefined"}`)
	if strings.Contains(res.Text, "s3cr3t") {
		t.Errorf("host secret leaked: %s", res.Text)
	}
}

type secretError struct{ token string }

func (e *secretError) Error() string { return "permission check failed" }

// Proves ISO-5.
func TestISO5_ModifyingAResultDoesNotTouchTheHost(t *testing.T) {
	h := newFakeHost().value("mcp__s__t", `{"list":[1,2],"inner":{"v":"orig"}}`)
	res := run(h, `
		const a = await tools.mcp__s__t({});
		a.list.push(3); a.inner.v = "changed"; a.extra = true;
		const b = await tools.mcp__s__t({});
		const args = { keep: "sent" };
		const pending = tools.mcp__s__t(args);
		args.keep = "mutated after the call";
		await pending;
		return b;`)
	wantValue(t, res, `{"list":[1,2],"inner":{"v":"orig"}}`)
	if got := h.recorded()[2].Args; got != `{"keep":"sent"}` {
		t.Errorf("host saw %s: arguments were not copied at the call", got)
	}
}

// Proves ISO-5.
func TestISO5_ProtoKeyOfAResultIsSkipped(t *testing.T) {
	h := newFakeHost().value("mcp__s__t", `{"__proto__":{"polluted":true},"constructor":{"prototype":{"polluted":true}}}`)
	res := run(h, `
		const r = await tools.mcp__s__t({});
		const assigned = Object.assign({}, r), spread = { ...r };
		return {
			own: Object.keys(r), polluted: ({}).polluted === true || r.polluted === true,
			protoIsNull: Object.getPrototypeOf(r) === null,
			copies: [assigned.polluted, spread.polluted, Object.getPrototypeOf(assigned) === Object.prototype],
		};`)
	wantValue(t, res, `{"own":["constructor"],"polluted":false,"protoIsNull":true,"copies":[null,null,true]}`)
}

// TestISO6_OnlyPlainDataCrossesOut tries every kind of value that is not plain
// data; each call must reject with an error the script catches, and none may
// reach the host.
// Proves ISO-6.
func TestISO6_OnlyPlainDataCrossesOut(t *testing.T) {
	cases := map[string]string{
		"function field":          `({ cb: () => 1 })`,
		"nested function":         `({ a: [{ f: function () {} }] })`,
		"class instance":          `new (class Point { constructor() { this.x = 1; } })()`,
		"class instance field":    `({ p: new (class P {})() })`,
		"Map":                     `({ m: new Map([[1, 2]]) })`,
		"Set":                     `({ s: new Set([1]) })`,
		"Date":                    `({ when: new Date(0) })`,
		"RegExp":                  `({ re: /x/ })`,
		"Error":                   `({ e: new Error("x") })`,
		"typed array":             `({ b: new Uint8Array(2) })`,
		"boxed string":            `({ s: new String("x") })`,
		"Promise":                 `({ p: Promise.resolve(1) })`,
		"cycle":                   `(() => { const o = { a: {} }; o.a.back = o; return o; })()`,
		"symbol value":            `({ s: Symbol("x") })`,
		"BigInt":                  `({ n: 10n })`,
		"__proto__ payload":       `JSON.parse('{"__proto__": {"isAdmin": true}}')`,
		"nested __proto__":        `({ a: JSON.parse('{"__proto__": {"x": 1}}') })`,
		"Proxy":                   `new Proxy({}, {})`,
		"Proxy field":             `({ p: new Proxy({ a: 1 }, { get: () => 2 }) })`,
		"array subclass":          `({ a: new (class L extends Array {})() })`,
		"positional string":       `"just a string"`,
		"positional number":       `42`,
		"array as arguments":      `[1, 2]`,
		"null":                    `null`,
		"function as arguments":   `() => 1`,
		"object with null proto?": `Object.assign(Object.create({ inherited: 1 }), { a: 1 })`,
	}
	h := newFakeHost().value("mcp__s__t", `null`)
	for name, expr := range cases {
		t.Run(name, func(t *testing.T) {
			res := run(h, fmt.Sprintf(`
				try { await tools.mcp__s__t(%s); return "accepted"; }
				catch (e) { return e.message; }`, expr))
			wantOK(t, res)
			if !strings.HasPrefix(res.Text, msgNotPlainObject) {
				t.Errorf("got %q, want a rejection starting %q", res.Text, msgNotPlainObject)
			}
		})
	}
	if calls := h.recorded(); len(calls) != 0 {
		t.Errorf("rejected arguments reached the host: %v", calls)
	}
	// The rejection names the offending field.
	res := run(h, `try { await tools.mcp__s__t({ a: { list: [1, () => 2] } }); } catch (e) { return e.message; }`)
	if !strings.Contains(res.Text, `"a.list[1]"`) {
		t.Errorf("rejection does not name the field: %q", res.Text)
	}
}

// Proves ISO-6.
func TestISO6_PlainDataCrossesWhole(t *testing.T) {
	h := newFakeHost().tool("mcp__s__echo", func(_ context.Context, args json.RawMessage) (CallResult, error) {
		return CallResult{Value: args}, nil
	})
	res := run(h, `
		const nullProto = Object.create(null); nullProto.k = "v";
		const shared = { s: 1 };
		const args = { nullProto, a: shared, b: shared, skip: undefined, nan: NaN, nested: [[[]]], unicode: "😀 ü" };
		return await tools.mcp__s__echo(args);`)
	wantValue(t, res, `{"nullProto":{"k":"v"},"a":{"s":1},"b":{"s":1},"nan":null,"nested":[[[]]],"unicode":"😀 ü"}`)
}
