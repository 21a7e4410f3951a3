package jsplatform

import "testing"

// TestWebGlobalsWork checks each global against the results the web
// platform defines (the corpus in tests/ compares many more against Node).
func TestWebGlobalsWork(t *testing.T) {
	cases := map[string]struct{ code, want string }{
		"URL building": {`
			const u = new URL("/v1/search", "https://API.example.com:443/base/");
			u.searchParams.set("q", "a b&c"); u.searchParams.append("page", "2");
			return [u.href, u.host, u.origin, u.pathname, u.search, String(new URL("../x?y#z", "http://h/a/b/c"))];`,
			`["https://api.example.com/v1/search?q=a+b%26c&page=2","api.example.com","https://api.example.com","/v1/search","?q=a+b%26c&page=2","http://h/a/x?y#z"]`},
		"invalid URL": {`try { new URL("not a url"); } catch (e) { return [e.name, e.message, e instanceof TypeError]; }`,
			`["TypeError","Invalid URL",true]`},
		"URLSearchParams": {`
			const p = new URLSearchParams("?a=1&b=x%20y&a=2&c=%E2%9C%93");
			return [p.getAll("a"), p.get("b"), p.get("c"), p.has("d"), [...p.keys()], new URLSearchParams([["k", "v w"]]).toString()];`,
			`[["1","2"],"x y","✓",false,["a","b","a","c"],"k=v+w"]`},
		"base64": {`return [btoa("hello, world"), atob("aGVsbG8sIHdvcmxk"), atob(" aGk= ")];`,
			`["aGVsbG8sIHdvcmxk","hello, world","hi"]`},
		"btoa of non-Latin-1": {`try { btoa("✓"); } catch (e) { return e.name; }`, `"InvalidCharacterError"`},
		"text encoding": {`
			const bytes = new TextEncoder().encode("é😀");
			return [Array.from(bytes), new TextDecoder().decode(bytes), new TextDecoder().decode(new Uint8Array([0xff, 0x41]))];`,
			`[[195,169,240,159,152,128],"é😀","\ufffdA"]`},
		"structuredClone": {`
			const o = { d: new Date(0), m: new Map([["k", [1]]]), s: new Set([1]) }; o.self = o;
			const c = structuredClone(o);
			let fn = "";
			try { structuredClone({ f() {} }); } catch (e) { fn = e.name; }
			return [c !== o, c.self === c, c.d.getTime(), c.m.get("k"), c.s.has(1), fn];`,
			`[true,true,0,[1],true,"DataCloneError"]`},
		"crypto": {`
			const ids = new Set(Array.from({ length: 50 }, () => crypto.randomUUID()));
			const bytes = crypto.getRandomValues(new Uint8Array(32));
			return [ids.size, /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/.test([...ids][0]), bytes.some((b) => b !== 0)];`,
			`[50,true,true]`},
	}
	for name, c := range cases {
		t.Run(name, func(t *testing.T) {
			wantJSON(t, evaluate(t, c.code), c.want)
		})
	}
}

// TestNumbersFormatAsNodeDoesInEnglish covers the repair of goja's
// Number.prototype.toLocaleString, which ignores the locale.
func TestNumbersFormatAsNodeDoesInEnglish(t *testing.T) {
	got := evaluate(t, `
		const two = { minimumFractionDigits: 2, maximumFractionDigits: 2 };
		return [
			(1234567.891).toLocaleString(), (1234.5).toLocaleString("en-US", two), (1.005).toLocaleString(undefined, two),
			(-0.0004).toLocaleString(), (2.5).toLocaleString("en-GB", { maximumFractionDigits: 0 }),
			(1e-7).toLocaleString(), (999.9995).toLocaleString(), (1234).toLocaleString("en", { useGrouping: false }),
		];`)
	wantJSON(t, got, `["1,234,567.891","1,234.50","1.01","-0","3","0","1,000","1234"]`)
}
