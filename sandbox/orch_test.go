package sandbox

import (
	"context"
	"encoding/json"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
)

// Proves ORCH-1.
func TestORCH1_AwaitsChainRealCalls(t *testing.T) {
	checkNoGoroutineLeak(t)
	var stored string
	h := newFakeHost().
		tool("mcp__srv__fetch", func(_ context.Context, args json.RawMessage) (CallResult, error) {
			return CallResult{Value: json.RawMessage(`{"id":1,"title":"first"}`)}, nil
		}).
		tool("mcp__srv__store", func(_ context.Context, args json.RawMessage) (CallResult, error) {
			stored = string(args)
			return CallResult{Value: json.RawMessage(`{"stored":true}`)}, nil
		})
	res := run(h, `const a = await tools.mcp__srv__fetch({ id: 1 }); return await tools.mcp__srv__store({ value: a });`)
	wantValue(t, res, `{"stored":true}`)
	want := []hostCallRecord{
		{"mcp__srv__fetch", `{"id":1}`},
		{"mcp__srv__store", `{"value":{"id":1,"title":"first"}}`},
	}
	if diff := cmp.Diff(want, h.recorded()); diff != "" {
		t.Errorf("host calls (-want +got):\n%s", diff)
	}
	if stored != `{"value":{"id":1,"title":"first"}}` {
		t.Errorf("store got %s", stored)
	}
	if diff := cmp.Diff([]string{"mcp__srv__fetch", "mcp__srv__store"}, res.Calls); diff != "" {
		t.Errorf("calls (-want +got):\n%s", diff)
	}
}

// Proves ORCH-2.
func TestORCH2_ValueIsToolOutputWithoutEnvelope(t *testing.T) {
	h := newFakeHost().
		value("mcp__s__structured", `{"items":[1,2],"next":null}`).
		value("mcp__s__text", `"plain text"`).
		value("mcp__s__nothing", `null`).
		tool("mcp__s__empty", func(context.Context, json.RawMessage) (CallResult, error) { return CallResult{}, nil })
	res := run(h, `
		const s = await tools.mcp__s__structured({});
		const t = await tools.mcp__s__text({});
		const n = await tools.mcp__s__nothing({});
		const e = await tools.mcp__s__empty({});
		return {
			structured: s, sum: s.items[0] + s.items[1],
			text: t, textType: typeof t,
			nothing: n, empty: e,
			envelope: "content" in s || "images" in s,
		};`)
	wantValue(t, res, `{"structured":{"items":[1,2],"next":null},"sum":3,"text":"plain text","textType":"string","nothing":null,"empty":null,"envelope":false}`)
}

// Proves ORCH-3.
func TestORCH3_ArgumentsPassThroughUntouched(t *testing.T) {
	h := newFakeHost().value("mcp__s__t", `null`)
	res := run(h, `await tools.mcp__s__t({ zeta: 1, alpha: { list: [1, "two", null, true, 2.5], empty: {} }, "with space": "é\n\"q\"", n: -0, big: 1e21 });`)
	wantOK(t, res)
	got := h.recorded()[0].Args
	want := `{"zeta":1,"alpha":{"list":[1,"two",null,true,2.5],"empty":{}},"with space":"é\n\"q\"","n":0,"big":1e+21}`
	if got != want {
		t.Errorf("host received\n%s\nwant\n%s", got, want)
	}
	// No arguments at all is an empty argument object, not a missing one.
	res = run(h, `await tools.mcp__s__t();`)
	wantOK(t, res)
	if got := h.recorded()[1].Args; got != `{}` {
		t.Errorf("no-argument call sent %s", got)
	}
}

// Proves ORCH-4.
func TestORCH4_UnknownToolRejectsWithSearchGuidance(t *testing.T) {
	h := newFakeHost().value("mcp__s__known", `1`)
	res := run(h, `
		try { await tools.mcp__s__missing({}); return "no error"; }
		catch (e) { return e instanceof Error ? e.message : "not an Error"; }`)
	wantOK(t, res)
	msg := res.Text
	for _, f := range []string{"mcp__s__missing", "only MCP tools", `tools["$codemode"].search(...)`} {
		if !strings.Contains(msg, f) {
			t.Errorf("message %q lacks %q", msg, f)
		}
	}
	if len(h.recorded()) != 0 {
		t.Errorf("unknown tool reached the host: %v", h.recorded())
	}
	// Interception is limited to mcp__ names: then and other reads are
	// ordinary, so tools is no thenable and awaiting it yields itself.
	res = run(h, `return [typeof tools.then, typeof tools.toString, tools.other, (await tools) === tools, "mcp__s__missing" in tools, "mcp__s__known" in tools]`)
	wantValue(t, res, `["undefined","function",null,true,false,true]`)
}

// Proves ORCH-5.
func TestORCH5_CaughtRejectionLetsTheScriptContinue(t *testing.T) {
	h := newFakeHost().
		tool("mcp__s__fail", func(context.Context, json.RawMessage) (CallResult, error) {
			return CallResult{}, errorString("the tool said no")
		}).
		value("mcp__s__ok", `"fine"`)
	res := run(h, `
		let reason;
		try { await tools.mcp__s__fail({}); } catch (e) { reason = e.message; }
		const after = await tools.mcp__s__ok({});
		return { reason, after };`)
	wantValue(t, res, `{"reason":"the tool said no","after":"fine"}`)
}

// Proves ORCH-6.
func TestORCH6_ConsoleOutputReturnedWithTheValue(t *testing.T) {
	res := run(newFakeHost(), `
		console.log("step", 1, { a: [1, 2] }, null, undefined, true);
		console.error("warning:", "low");
		return 42;`)
	wantOK(t, res)
	wantLogs := "step 1 {\"a\":[1,2]} null undefined true\nwarning: low"
	if res.Logs != wantLogs {
		t.Errorf("logs = %q, want %q", res.Logs, wantLogs)
	}
	if !strings.Contains(res.Text, wantLogs) || !strings.HasSuffix(res.Text, "42") {
		t.Errorf("text does not carry logs and value:\n%s", res.Text)
	}
}

// Proves ORCH-7.
func TestORCH7_ReturnValueSerializedOrNoOutputStated(t *testing.T) {
	res := run(newFakeHost(), `return { ok: true, list: ["a", 1] };`)
	if res.Text != `{"ok":true,"list":["a",1]}` {
		t.Errorf("text = %q", res.Text)
	}
	res = run(newFakeHost(), `const x = 1;`)
	wantOK(t, res)
	if res.Text != msgNoOutput || res.Value != nil {
		t.Errorf("no value, no output: text %q value %q", res.Text, res.Value)
	}
	if !strings.Contains(strings.ToLower(res.Text), "no return value") || !strings.Contains(res.Text, "no output") {
		t.Errorf("text %q does not say there was no return value and no output", res.Text)
	}
}

type errorString string

func (e errorString) Error() string { return string(e) }
