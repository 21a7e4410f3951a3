package sandbox

import (
	"context"
	"encoding/json"
	"errors"
	"strings"
	"testing"
	"time"
)

// Proves EDGE-1.
func TestEDGE1_OnlyUnknownMcpNamesAreIntercepted(t *testing.T) {
	h := newFakeHost().value("mcp__s__t", `1`)
	res := run(h, `
		const unknown = tools.mcp__other__thing;
		let message = "";
		try { await unknown({}); } catch (e) { message = e.message; }
		return {
			unknownType: typeof unknown,
			sameWrapper: tools.mcp__s__t === tools.mcp__s__t,
			then: typeof tools.then, catch: typeof tools.catch, constructor: tools.constructor === Object,
			plain: tools.somethingElse === undefined, keys: Object.keys(tools),
			message,
		};`)
	wantOK(t, res)
	var got struct {
		UnknownType string `json:"unknownType"`
		SameWrapper bool   `json:"sameWrapper"`
		Then        string `json:"then"`
		Catch       string `json:"catch"`
		Constructor bool   `json:"constructor"`
		Plain       bool   `json:"plain"`
		Keys        []string
		Message     string
	}
	if err := json.Unmarshal(res.Value, &got); err != nil {
		t.Fatal(err)
	}
	if got.UnknownType != "function" || !got.SameWrapper || got.Then != "undefined" || got.Catch != "undefined" ||
		!got.Constructor || !got.Plain || len(got.Keys) != 1 || got.Keys[0] != "mcp__s__t" {
		t.Errorf("tools object behaves unexpectedly: %+v", got)
	}
	if !strings.Contains(got.Message, "only MCP tools") || !strings.Contains(got.Message, `tools["$codemode"].search(...)`) {
		t.Errorf("message %q", got.Message)
	}
}

// Proves EDGE-1.
func TestEDGE1_ToolsObjectCannotBeRewritten(t *testing.T) {
	h := newFakeHost().value("mcp__s__t", `"real"`)
	res := run(h, `
		tools.mcp__s__t = () => "fake";
		delete tools.mcp__s__t;
		tools.mcp__s__new = () => "added";
		return [await tools.mcp__s__t({}), typeof tools.mcp__s__new];`)
	wantValue(t, res, `["real","function"]`)
	res = run(h, `"use strict"; tools.mcp__s__t = 1;`)
	wantFailure(t, res, "TypeError")
}

// Proves EDGE-3.
func TestEDGE3_ToolGoneAtRunTimeFailsThatCallOnly(t *testing.T) {
	h := newFakeHost().value("mcp__s__alive", `"alive"`)
	// The reachable set still names the tool, but the host no longer has it.
	req := Request{Host: h, Tools: NewToolSet([]string{"mcp__s__alive", "mcp__s__gone"}), Code: `
		let reason = "";
		try { await tools.mcp__s__gone({}); } catch (e) { reason = e.message; }
		return { reason, next: await tools.mcp__s__alive({}) };`}
	res := Run(context.Background(), req)
	wantValue(t, res, `{"reason":"tool mcp__s__gone vanished","next":"alive"}`)
}

// Proves EDGE-8.
func TestEDGE8_BlankCodeIsAnArgumentErrorAndStartsNothing(t *testing.T) {
	h := newFakeHost()
	for _, code := range []string{"", "   \n\t "} {
		res := run(h, code)
		wantFailure(t, res, "empty")
	}
}

// Proves EDGE-9.
func TestEDGE9_ThrowFailsAndKeepsEarlierLogs(t *testing.T) {
	res := run(newFakeHost(), `console.log("partial", 1); throw new RangeError("went wrong");`)
	wantFailure(t, res, "RangeError: went wrong")
	if res.Logs != "partial 1" || !strings.HasPrefix(res.Text, "partial 1") {
		t.Errorf("logs before the throw were not kept: %q", res.Text)
	}
	// Thrown values that are not Errors are described without running their
	// toString.
	res = run(newFakeHost(), `throw { code: 7, toString() { globalThis.ran = true; for (;;) {} } };`, shortBudget)
	wantFailure(t, res, `Uncaught {"code":7}`)
	res = run(newFakeHost(), `throw "plain string";`)
	wantFailure(t, res, "Uncaught plain string")
}

// Proves EDGE-9.
func TestEDGE9_SyntaxErrorsPointAtTheScript(t *testing.T) {
	res := run(newFakeHost(), "const a = 1;\nconst b = ;")
	wantFailure(t, res, "SyntaxError", "Line 2:")
	if strings.Contains(res.Text, scriptName) || strings.Contains(res.Text, "async function") {
		t.Errorf("wrapper details leaked: %q", res.Text)
	}
}

// Proves EDGE-10.
func TestEDGE10_NoValueAndNoOutputIsStated(t *testing.T) {
	for _, code := range []string{`1 + 1;`, `return;`, `return undefined;`, `return () => 1;`} {
		res := run(newFakeHost(), code)
		wantOK(t, res)
		if res.Text != msgNoOutput {
			t.Errorf("%s: text %q", code, res.Text)
		}
	}
	// Logs alone are output; a null return is a value.
	if res := run(newFakeHost(), `console.log("only logs")`); res.Text != "only logs" {
		t.Errorf("text %q", res.Text)
	}
	if res := run(newFakeHost(), `return null`); res.Text != "null" {
		t.Errorf("text %q", res.Text)
	}
}

// Proves EDGE-11.
func TestEDGE11_ReturnValuesAreDeepCopiesWithoutProtoOrFunctions(t *testing.T) {
	res := run(newFakeHost(), `
		const o = JSON.parse('{"__proto__": {"admin": true}, "keep": 1}');
		o.fn = () => 1;
		o.nested = { method() {}, deep: [() => 2, 3] };
		o.when = new Date(0);
		o.err = new TypeError("bad input");
		o.instance = new (class P { constructor() { this.x = 1; } m() {} })();
		return o;`)
	wantValue(t, res, `{"keep":1,"nested":{"deep":[null,3]},"when":"1970-01-01T00:00:00.000Z","err":"TypeError: bad input","instance":{"x":1}}`)
	for _, bad := range []string{`const o = {}; o.self = o; return o;`, `return { n: 1n }`, `return new Proxy({}, {})`} {
		res := run(newFakeHost(), bad)
		wantFailure(t, res, "return value cannot be given to the model")
	}
}

// Proves EDGE-18.
func TestEDGE18_SearchResultsAreBoundedByTheReturnCap(t *testing.T) {
	h := newFakeHost()
	big := `[{"name":"mcp__s__t","description":"` + strings.Repeat("d", 5000) + `","signature":"tools.mcp__s__t(): Promise<unknown>"}]`
	h.search = func(json.RawMessage) (json.RawMessage, error) { return json.RawMessage(big), nil }
	res := run(h, `const found = await tools["$codemode"].search({ query: "t" }); return found;`, Limits{MaxResultChars: 200})
	wantOK(t, res)
	if !strings.Contains(res.Text, "[return value truncated") || len([]rune(res.Text)) > 300 {
		t.Errorf("search result not bounded:\n%s", res.Text)
	}
}

// Proves EDGE-19, EDGE-20.
func TestEDGE19_EDGE20_ValueFallsBackAndImagesTravelBeside(t *testing.T) {
	h := newFakeHost().tool("mcp__s__image", func(context.Context, json.RawMessage) (CallResult, error) {
		return CallResult{Images: []Image{{MIMEType: "image/png", Data: []byte("png")}}}, nil
	})
	res := run(h, `const v = await tools.mcp__s__image({}); return { v, type: v === null ? "null" : typeof v };`)
	wantValue(t, res, `{"v":null,"type":"null"}`)
	if len(res.Images) != 1 || res.Images[0].MIMEType != "image/png" {
		t.Errorf("image not attached: %+v", res.Images)
	}
}

// Proves EDGE-24.
func TestEDGE24_SearchTakesOnlyAPlainObject(t *testing.T) {
	h := newFakeHost()
	h.search = func(json.RawMessage) (json.RawMessage, error) { return json.RawMessage(`[]`), nil }
	for _, args := range []string{`"github"`, `["github"]`, `42`, `null`} {
		res := run(h, `try { await tools["$codemode"].search(`+args+`); return "accepted"; } catch (e) { return e.message; }`)
		if !strings.HasPrefix(res.Text, msgNotPlainObject) {
			t.Errorf("search(%s): %q", args, res.Text)
		}
	}
	if len(h.recorded()) != 0 {
		t.Errorf("rejected searches reached the host: %v", h.recorded())
	}
}

// Proves EDGE-27.
func TestEDGE27_UnknownNamesAreNotCountedButRejectedCallsAre(t *testing.T) {
	h := newFakeHost().
		value("mcp__s__t", `1`).
		tool("mcp__s__denied", func(context.Context, json.RawMessage) (CallResult, error) {
			return CallResult{}, errors.New("denied by the user")
		})
	res := run(h, `
		for (const name of ["mcp__s__notInPool", "mcp__s__denied", "mcp__s__t", "mcp__s__t"]) {
			try { await tools[name]({}); } catch (e) {}
		}`, Limits{MaxCalls: 2})
	wantOK(t, res)
	// The unknown name never reached the host and is not a call; the denied
	// call and the capped call did reach the host side and are listed.
	want := []string{"mcp__s__denied", "mcp__s__t", "mcp__s__t"}
	if strings.Join(res.Calls, ",") != strings.Join(want, ",") {
		t.Errorf("calls = %v, want %v", res.Calls, want)
	}
}

// Proves SEARCH-6.
func TestSEARCH6_TopLevelSearchPointsToTheReservedNamespace(t *testing.T) {
	h := newFakeHost()
	res := run(h, `try { await tools.search({ query: "x" }); } catch (e) { return e.message; }`)
	wantOK(t, res)
	for _, f := range []string{"not reachable", `tools["$codemode"].search(...)`} {
		if !strings.Contains(res.Text, f) {
			t.Errorf("message %q lacks %q", res.Text, f)
		}
	}
	if len(h.recorded()) != 0 || len(res.Calls) != 0 {
		t.Errorf("tools.search reached the host or was counted")
	}
}

// Proves SEARCH-5.
func TestSEARCH5_SearchesCountTowardTheCallCap(t *testing.T) {
	h := newFakeHost()
	h.search = func(json.RawMessage) (json.RawMessage, error) { return json.RawMessage(`[]`), nil }
	res := run(h, `
		const out = [];
		for (let i = 0; i < 3; i++) {
			try { await tools["$codemode"].search({ query: "q" + i }); out.push("ok"); }
			catch (e) { out.push("capped"); }
		}
		return out;`, Limits{MaxCalls: 2})
	wantValue(t, res, `["ok","ok","capped"]`)
	if len(res.Calls) != 3 || res.Calls[0] != SearchCallName {
		t.Errorf("calls = %v", res.Calls)
	}
}

// Proves SEARCH-2.
func TestSEARCH2_SearchResolvesToTheEntryArray(t *testing.T) {
	h := newFakeHost()
	var sent string
	h.search = func(args json.RawMessage) (json.RawMessage, error) {
		sent = string(args)
		return json.RawMessage(`[{"name":"mcp__s__a","description":"A","signature":"tools.mcp__s__a(): Promise<unknown>"}]`), nil
	}
	res := run(h, `const r = await tools["$codemode"].search({ query: "A" }); return { isArray: Array.isArray(r), first: r[0].name };`)
	wantValue(t, res, `{"isArray":true,"first":"mcp__s__a"}`)
	if sent != `{"query":"A"}` {
		t.Errorf("host got %s", sent)
	}
	// A search error (for example a wrong argument shape) reaches the script.
	h.search = func(json.RawMessage) (json.RawMessage, error) { return nil, errors.New("expected { query?: string }") }
	res = run(h, `try { await tools["$codemode"].search({ q: "A" }); } catch (e) { return e.message; }`)
	if res.Text != "expected { query?: string }" {
		t.Errorf("text %q", res.Text)
	}
}

// Proves EDGE-9, EDGE-10, BUDGET-9: values the host reads by running getters
// or that would be huge if copied whole end as clear results, never as a
// crash of the runtime or the process.
func TestEDGE9_HostileReturnAndThrowValues(t *testing.T) {
	cases := []struct {
		code string
		ok   bool
		want string
	}{
		{`const a = []; a.length = 4294967295; return a.length;`, true, "4294967295"},
		{`return { get a() { throw new Error("from a getter"); } };`, false, "Error: from a getter"},
		{`const o = { get a() { throw o; } }; return o;`, false, "Uncaught exception"},
		{`throw { get a() { throw new Error("inner"); } };`, false, "Uncaught exception"},
		{`const o = { get a() { throw o; } }; throw o;`, false, "Uncaught exception"},
		{`throw { get a() { for (;;) {} } };`, false, "budget"},
		{`return "";`, true, `""`},
	}
	for _, c := range cases {
		// Only the run that never ends on its own gets the short budget; on
		// a loaded machine it would race the others' work.
		limits := Limits{}
		if c.want == "budget" {
			limits = shortBudget
		}
		res := run(newFakeHost(), c.code, limits)
		if res.OK != c.ok || !strings.Contains(res.Text, c.want) {
			t.Errorf("%s: ok=%v text=%q; want ok=%v and %q", c.code, res.OK, res.Text, c.ok, c.want)
		}
		if strings.Contains(res.Text, msgCrashed) {
			t.Errorf("%s: reported as a crash: %q", c.code, res.Text)
		}
	}
}

// Proves BUDGET-9: a sparse array returned whole is walked within the
// budget, never exported as a 64 GB Go slice.
func TestBUDGET9_SparseArrayReturnIsBounded(t *testing.T) {
	res := run(newFakeHost(), `const a = []; a.length = 4294967295; return a;`, Limits{Timeout: 300 * time.Millisecond, MaxResultChars: 50})
	if res.OK && !strings.Contains(res.Text, "truncated") {
		t.Errorf("text = %q", res.Text)
	}
}
