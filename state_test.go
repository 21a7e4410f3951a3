package mcpexec_test

import (
	"context"
	"encoding/json"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/mcpexec/mcpexec"
	"github.com/mcpexec/mcpexec/permissions"
	"github.com/mcpexec/mcpexec/sandbox"
	"github.com/mcpexec/mcpexec/state"
)

func execIn(f *fixture, st *state.State, code string) mcpexec.ExecResult {
	args, _ := json.Marshal(map[string]string{"code": code})
	return f.sys.Exec(mcpexec.WithState(context.Background(), st), args, nil)
}

// The library keeps a script's state per conversation (WithState): a value
// stored in one Exec is loaded in the next of the same conversation and
// not in another's; past the bound a store throws a catchable error naming
// the limit; the audit counts what was stored.
func TestStateCarriesValuesAcrossExecsOfOneConversation(t *testing.T) {
	f := start(t, allowAll, permissions.Reject)
	mine, theirs := state.NewMemory(state.Limits{}), state.NewMemory(state.Limits{})

	res := execIn(f, mine, `const s = await tools.mcp__b__structured({});
		store("result", s);
		return Object.keys(s).length > 0;`)
	if !res.OK || res.Text != "true" {
		t.Fatalf("storing Exec: %v %q", res.OK, res.Text)
	}
	if a := res.Audit.State; a == nil || a.Stores != 1 || a.StoredBytes == 0 {
		t.Errorf("audit of the storing Exec: %+v", a)
	}
	stored, _, _ := mine.Load("result")
	res = execIn(f, mine, `return load("result")`)
	if !res.OK || res.Text != string(stored) {
		t.Errorf("loading Exec of the same conversation: %v %q, want %s", res.OK, res.Text, stored)
	}
	if a := res.Audit.State; a == nil || a.Loads != 1 || a.LoadedBytes != int64(len(stored)) {
		t.Errorf("audit of the loading Exec: %+v", a)
	}
	res = execIn(f, theirs, `return load("result") === undefined`)
	if !res.OK || res.Text != "true" {
		t.Errorf("another conversation loads the key: %v %q", res.OK, res.Text)
	}

	small := state.NewMemory(state.Limits{MaxBytes: 16 << 10})
	res = execIn(f, small, `store("a", "x".repeat(10000));
		try { store("b", "y".repeat(10000)); return "stored" } catch (e) { return e.message + " / " + load("a").length }`)
	if !res.OK || !strings.Contains(res.Text, "16 KiB") || !strings.HasSuffix(res.Text, " / 10000") {
		t.Errorf("store past the bound: %v %q", res.OK, res.Text)
	}

	res = execCode(f, `try { store("a", 1) } catch (e) { return e.message }`)
	if !res.OK || !strings.Contains(res.Text, "keeps no state") {
		t.Errorf("store without a state: %v %q", res.OK, res.Text)
	}
}

// A return value too long for the model's text: the text shows its first
// part and names it; the embedder gets the whole value (ExecResult.Stored);
// the conversation's next script loads it by id or URI. Without a state
// the embedder still gets it whole, and the text names nothing to load.
func TestLargeResultIsKeptByReference(t *testing.T) {
	f := start(t, allowAll, permissions.Reject)
	conv := state.NewMemory(state.Limits{})
	res := execIn(f, conv, `return "ab".repeat(100000)`)
	if !res.OK || res.Stored == nil {
		t.Fatalf("large result: ok=%v stored=%v text %.200q", res.OK, res.Stored, res.Text)
	}
	if !strings.HasPrefix(res.Text, strings.Repeat("ab", sandbox.DefaultMaxResultChars/2)+"\n") ||
		utf8.RuneCountInString(res.Text) > sandbox.DefaultMaxResultChars+300 {
		t.Errorf("the text is not the first part within the cap and a note (%d characters)", utf8.RuneCountInString(res.Text))
	}
	if !strings.Contains(res.Text, `mcpexec://results/r1, and load("r1") in a later script returns it`) {
		t.Errorf("the text does not name the kept value: %q", res.Text[sandbox.DefaultMaxResultChars:])
	}
	text, mime := res.Stored.Text()
	if res.Stored.ID != "r1" || res.Stored.URI != "mcpexec://results/r1" || len(text) != 200000 || mime != "text/plain" || res.Stored.Shape != "text" {
		t.Errorf("stored: id %q uri %q, %d characters of %s, shape %q", res.Stored.ID, res.Stored.URI, len(text), mime, res.Stored.Shape)
	}
	if r := res.Audit.Result; r == nil || r.URI != "mcpexec://results/r1" || r.Bytes != 200002 {
		t.Errorf("audit result: %+v", r)
	}
	res = execIn(f, conv, `return [load("r1").length, load("mcpexec://results/r1").slice(0, 4)]`)
	if !res.OK || res.Text != `[200000,"abab"]` {
		t.Errorf("loading the kept value: %v %q", res.OK, res.Text)
	}

	res = execCode(f, `return Array.from({length: 5000}, (_, i) => ({ id: i, title: "issue " + i }))`)
	if !res.OK || res.Stored == nil || res.Stored.ID != "" || res.Stored.Shape != "{ id: number; title: string }[]" {
		t.Fatalf("large result without a state: ok=%v stored=%+v", res.OK, res.Stored)
	}
	var whole []struct{ ID int }
	if err := json.Unmarshal(res.Stored.Value, &whole); err != nil || len(whole) != 5000 {
		t.Errorf("the embedder's whole value: %d items, %v", len(whole), err)
	}
	if strings.Contains(res.Text, "mcpexec://") || !strings.Contains(res.Text, "[return value truncated: ") {
		t.Errorf("without a state the text names a reference: %q", res.Text[len(res.Text)-200:])
	}
}

// A run that parks keeps its conversation's state: what it stored before
// the question is there after it, and a result too long for the text,
// ending on the call that resumed the run, is kept and handed over there.
func TestParkedRunKeepsItsStateAndItsLargeResult(t *testing.T) {
	sys, _ := parkSystem(t, `{"permissions": {"allow": ["mcp__l__ran"]}}`, mcpexec.Options{})
	conv := state.NewMemory(state.Limits{})
	ctx := mcpexec.WithState(context.Background(), conv)
	res := sys.StartRun(ctx, mcpexec.DeclareOptions{}, codeArgs(`
		store("before", 1);
		await tools.mcp__l__write({key: "k"});
		return "w".repeat(100000);`), nil)
	p := pending(t, res)
	if _, ok, _ := conv.Load("before"); !ok {
		t.Error("the store before the question is not in the state")
	}
	out, err := sys.ResumeRun(context.Background(), p.Run, allowAllOnce(p), nil)
	if err != nil || !out.OK {
		t.Fatalf("resumed: %+v, %v", out, err)
	}
	if out.Stored == nil || out.Stored.URI != "mcpexec://results/r1" || !strings.Contains(out.Text, `load("r1")`) {
		t.Fatalf("resumed result: stored %+v, text %q", out.Stored, out.Text[len(out.Text)-150:])
	}
	if v, ok, _ := conv.Load("r1"); !ok || len(v) != 100002 {
		t.Errorf("the state keeps %d bytes under r1 (%v)", len(v), ok)
	}
	if out.Audit.Result == nil || out.Audit.Result.URI != out.Stored.URI {
		t.Errorf("audit result %+v", out.Audit.Result)
	}
}
