// Modern syntax as models write it, run as written (goja parses all of it)
// and transformed: both must read as Node does. This is the evidence that a
// script goja parses may skip the transform: esbuild, targeting what goja
// runs, leaves such syntax as it is, so the two programs only differ in
// layout.
const out = {};
const t = (name, f) => { try { out[name] = f(); } catch (e) { out[name] = "threw " + e.name; } };
t("class fields", () => { class A { x = 1; static s = 2; #p = 3; get p() { return this.#p; } static #sp() { return 4; } static sp() { return A.#sp(); } } const a = new A(); return [a.x, A.s, a.p, A.sp(), Object.keys(a)]; });
t("private in", () => { class A { #x; static has(o) { return #x in o; } } return [A.has(new A()), A.has({})]; });
t("static block", () => { class A { static v; static { A.v = 42; } } return A.v; });
t("optional chaining", () => { const o = { a: { b() { return this.c; }, c: 5 } }; return [o?.a?.b(), o.x?.y, o.a.b?.(), o.x?.(), (o?.a).c]; });
t("nullish assign", () => { let a = null, b = 0, c = 1; a ??= 2; b ||= 3; c &&= 4; let n = 0; const o = { get x() { n++; return 1; }, set x(v) { n += 10; } }; o.x ??= 5; return [a, b, c, n]; });
t("destructuring", () => { const { a = 1, b: { c } = { c: 2 }, ...rest } = { d: 4, e: 5 }; const [x, , y = 3, ...z] = [1, 2, undefined, 4, 5]; return [a, c, rest, x, y, z]; });
t("spread and rest", () => { const f = (...args) => args.length; return [f(...[1, 2], 3), { ...{ a: 1 }, b: 2 }, [..."héllo"].length, Math.max(...[1, 5, 3])]; });
t("generators", () => { function* g() { const x = yield 1; try { yield x; } finally { yield 99; } } const it = g(); return [it.next().value, it.next(7).value, it.return(5), it.next(), it.next()]; });
t("labels", () => { const r = []; outer: for (const i of [1, 2, 3]) { for (const j of [1, 2, 3]) { if (j === 2) continue outer; if (i === 3) break outer; r.push(`${i}${j}`); } } return r; });
t("closures in loops", () => { const fs = []; for (let i = 0; i < 3; i++) fs.push(() => i); return fs.map((f) => f()); });
t("tagged templates", () => { const tag = (s, ...v) => s.raw.join("|") + v.join(","); const same = (s) => s; const f = () => same`x`; return [tag`a${1}b\n${2}c`, f() === f()]; });
t("getters setters", () => { const o = { _v: 1, get v() { return this._v * 2; }, set v(x) { this._v = x; } }; o.v = 5; return [o.v, Object.getOwnPropertyDescriptor(o, "v").get.name]; });
t("super in object", () => { const base = { hi() { return "base"; } }; const o = { __proto__: base, hi() { return "o+" + super.hi(); } }; return o.hi(); });
t("regexp", () => { const m = "2024-03-10".match(/(?<y>\d{4})-(?<m>\d\d)-(?<d>\d\d)/); return [m.groups.y, "a1b2".replace(/(?<=a)\d/g, "X"), /a.b/s.test("a\nb"), [..."a1b2c3".matchAll(/\d/g)].map((x) => x[0]), "aaa".replaceAll("a", "b")]; });
t("regexp unicode", () => [/^.$/u.test("🙂"), "🙂".length, [..."🙂"].length, /\u{1F642}/u.test("🙂")]);
t("bigint", () => [(2n ** 64n).toString(), typeof 1n, String(10n / 3n)]);
t("numeric separators", () => 1_000_000 + 0xf_f);
t("exponent", () => [2 ** 10, (-2) ** 2, 2 ** -1]);
t("symbols iterators", () => { const o = { *[Symbol.iterator]() { yield 1; yield 2; } }; return [...o, Array.from(o), Symbol.iterator.toString()]; });
t("arrow this", () => { const o = { v: 1, f() { return [1].map(() => this.v); } }; return o.f(); });
t("default params scope", () => { const f = (a, b = a * 2, c = () => a + b) => c(); return f(1); });
t("computed keys", () => { const k = "x"; return { [k + 1]: 1, [`${k}2`]() { return 2; } }; });
t("class inheritance", () => { class A { constructor() { this.n = new.target.name; } static who() { return "A"; } } class B extends A { static who() { return super.who() + "B"; } } return [new B().n, B.who(), Object.getPrototypeOf(B) === A]; });
t("function names", () => { const f = () => 1; const o = { m() {}, ["c" + 1]: () => 1 }; class K { static s() {} } return [f.name, o.m.name, o.c1.name, K.s.name, (() => {}).name]; });
t("array methods", () => [[1, [2, [3, [4]]]].flat(Infinity), [3, 1, 2].toSorted?.() ?? "no toSorted", [1, 2, 3].at(-1), Object.fromEntries([["a", 1]]), [1, 2, 3].findLast((x) => x < 3), Object.hasOwn({ a: 1 }, "a")]);
t("string methods", () => ["abc".at(-1), " x ".trimStart(), "a-b".split("-"), "x".padStart(3, "ab"), "Straße".normalize("NFD").length]);
t("json", () => [JSON.stringify({ a: [1, { b: undefined }], c: "é\u2028" }), JSON.stringify("\ud800"), JSON.parse('{"__proto__": 1}').__proto__]);
t("date", () => [new Date(Date.UTC(2020, 0, 1)).toISOString(), new Date("2024-03-10").getTime(), typeof Date.now()]);
t("number format", () => [(1234.5678).toFixed(2), (0.1 + 0.2).toPrecision(3), (255).toString(16), Number("0x1f"), parseFloat("1e3x"), (1e21).toString(), (123.456).toExponential(1)]);
t("sort stability", () => [{ k: 1, v: "a" }, { k: 0, v: "b" }, { k: 1, v: "c" }, { k: 0, v: "d" }].sort((a, b) => a.k - b.k).map((x) => x.v).join(""));
t("map set", () => { const m = new Map([[1, "a"]]); m.set(NaN, "n"); const s = new Set([1, 1, 2]); return [m.get(NaN), [...s], [...m.keys()], new WeakMap() instanceof WeakMap]; });
t("error cause", () => { const e = new Error("outer", { cause: new Error("inner") }); return [e.cause.message, e instanceof Error, Object.prototype.toString.call(e)]; });
t("optional catch", () => { try { throw 1; } catch { return "caught"; } });
t("getter on class static", () => { class A { static get x() { return 1; } } return A.x; });
t("typeof undeclared", () => typeof notDeclaredAnywhere);
t("var hoisting", () => { const r = typeof hoisted; var hoisted = 1; return r; });
t("let tdz", () => { try { tdz; let tdz = 1; } catch (e) { return e.name; } });
t("this at top", () => typeof this);
t("arguments", () => (function () { return arguments.length; })(1, 2, 3));
t("getter enumerability", () => { class A { get x() { return 1; } m() {} } return [Object.keys(new A()), Object.getOwnPropertyNames(A.prototype)]; });
t("proto literal", () => { const o = { __proto__: null }; return Object.getPrototypeOf(o); });
t("label block", () => { let r = 0; blk: { r = 1; break blk; } return r; });
t("comma and void", () => [(1, 2), void 0]);
t("in operator", () => ["a" in { a: 1 }, 0 in [1]]);
t("delete", () => { const o = { a: 1 }; delete o.a; return Object.keys(o); });
t("string raw", () => String.raw`a\nb${1}`);
t("unicode escapes ids", () => { const \u0061bc = 5; return abc; });
return out;
