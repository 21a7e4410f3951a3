package sandbox

import (
	"bytes"
	"context"
	"encoding/json"
	"strings"
	"testing"

	"github.com/mcpexec/mcpexec/state"
)

// stateRunner runs scripts against one state, the way a conversation's
// Execs do: in this process, in an in-memory worker, and in a worker
// process, so that every path store and load take is covered. start makes
// what the runner needs for one subtest.
type stateRunner struct {
	name  string
	start func(t *testing.T) func(req Request) Result
}

func withWorkers(opts WorkerOptions) func(t *testing.T) func(req Request) Result {
	return func(t *testing.T) func(req Request) Result {
		p := newTestWorkers(t, opts)
		return func(req Request) Result { return p.Run(context.Background(), req) }
	}
}

var stateRunners = []stateRunner{
	{"in process", func(*testing.T) func(req Request) Result {
		return func(req Request) Result { return Run(context.Background(), req) }
	}},
	{"in-memory worker", withWorkers(WorkerOptions{InProcess: true, Warm: 1})},
	{"worker process", withWorkers(WorkerOptions{Warm: 1})},
}

func stateRequest(st State, code string) Request {
	h := newFakeHost().value("mcp__s__list", `{"items":[{"id":1,"title":"a"},{"id":2,"title":"b"}]}`)
	return Request{Code: code, Host: h, Tools: NewToolSet(h.names()), State: st}
}

// A value stored in one run is loaded in the next, as a fresh copy that
// crosses like a tool result; a missing key is undefined, store(key,
// undefined) removes a key, and the functions are synchronous (awaiting
// them does no harm).
func TestStoreInOneRunLoadInTheNext(t *testing.T) {
	for _, r := range stateRunners {
		t.Run(r.name, func(t *testing.T) {
			run := r.start(t)
			st := state.NewMemory(state.Limits{})
			res := run(stateRequest(st, `
				const list = await tools.mcp__s__list({});
				store("issues", list.items);
				store("when", new Date(0));
				store("gone", 1);
				await store("gone", undefined);
				return load("issues").length;`))
			wantValue(t, res, `2`)
			res = run(stateRequest(st, `
				const issues = load("issues");
				issues[0].title = "changed here only";
				return {
					titles: issues.map((i) => i.title),
					again: load("issues")[0].title,
					proto: Object.getPrototypeOf(issues[0]) === null,
					ctor: typeof issues[0].constructor,
					when: load("when"),
					missing: load("missing") === undefined,
					gone: await load("gone"),
				};`))
			wantValue(t, res, `{"titles":["changed here only","b"],"again":"a","proto":true,"ctor":"undefined",
				"when":"1970-01-01T00:00:00.000Z","missing":true}`)
		})
	}
}

// Past the bound a store throws a catchable error naming the limit with
// its unit; the keys stored before stay, and the script goes on.
func TestStorePastTheBoundThrowsACatchableError(t *testing.T) {
	for _, r := range stateRunners {
		t.Run(r.name, func(t *testing.T) {
			run := r.start(t)
			st := state.NewMemory(state.Limits{MaxBytes: 1 << 20})
			req := stateRequest(st, `
				store("first", "x".repeat(600 * 1024));
				const caught = [];
				for (const key of ["second", "huge"]) {
					try {
						store(key, "y".repeat(key === "huge" ? 2 * 1024 * 1024 : 600 * 1024));
					} catch (e) {
						caught.push(e instanceof Error ? e.message : "not an Error");
					}
				}
				return { caught, first: load("first").length, second: load("second") === undefined };`)
			req.Limits.MaxStateBytes = st.Limits().MaxBytes
			res := run(req)
			wantOK(t, res)
			var got struct {
				Caught []string
				First  int
				Second bool
			}
			if err := json.Unmarshal(res.Value, &got); err != nil {
				t.Fatal(err)
			}
			if len(got.Caught) != 2 || got.First != 600*1024 || !got.Second {
				t.Fatalf("result %s", res.Value)
			}
			for _, msg := range got.Caught {
				if !strings.Contains(msg, "1 MiB") {
					t.Errorf("error %q does not name the limit with its unit", msg)
				}
			}
		})
	}
}

// Without a state, store and load say so; a key that is not a string and a
// value that cannot cross are errors the script can catch.
func TestStoreRefusals(t *testing.T) {
	for _, r := range stateRunners {
		t.Run(r.name, func(t *testing.T) {
			run := r.start(t)
			res := run(stateRequest(nil, `try { store("a", 1) } catch (e) { return e.message }`))
			wantValue(t, res, `"store is not available: this session keeps no state between scripts."`)
			st := state.NewMemory(state.Limits{})
			res = run(stateRequest(st, `
				const out = [];
				for (const f of [() => store(1, 2), () => load({}), () => { const a = {}; a.a = a; store("c", a) },
					() => store("g", { get x() { throw new RangeError("from a getter") } })]) {
					try { f() } catch (e) { out.push(e.name + ": " + e.message) }
				}
				return out;`))
			wantValue(t, res, `["TypeError: store(key, value): the key must be a string",
				"TypeError: load(key): the key must be a string",
				"Error: store failed: the value cannot be stored: its field \"a\" is a reference back to itself (a cycle).",
				"RangeError: from a getter"]`)
			if keys := st.Keys(); len(keys) != 0 {
				t.Errorf("refused stores left keys %v", keys)
			}
		})
	}
}

// A return value too long for the text reaches the Reference whole, and
// the text shows its first part and names it; a value larger than what is
// kept is measured and said to be too large.
func TestReturnValueOverTheCapIsKeptWhole(t *testing.T) {
	for _, r := range stateRunners {
		t.Run(r.name, func(t *testing.T) {
			run := r.start(t)
			for _, tc := range []struct {
				name, code string
				want       func(whole []byte) bool
			}{
				{"string", `return "ab".repeat(100000) + "é"`, func(b []byte) bool {
					var s string
					return json.Unmarshal(b, &s) == nil && len([]rune(s)) == 200001 && strings.HasSuffix(s, "bé")
				}},
				{"object", `return Array.from({length: 20000}, (_, i) => ({ id: i, f() {} }))`, func(b []byte) bool {
					var v []struct{ ID int }
					return json.Unmarshal(b, &v) == nil && len(v) == 20000 && v[19999].ID == 19999
				}},
			} {
				var sink bytes.Buffer
				req := stateRequest(nil, tc.code)
				req.Limits.MaxResultChars = 1000
				req.Reference = &Reference{ID: "r7", Sink: &sink}
				res := run(req)
				wantOK(t, res)
				if res.Whole == nil || !res.Whole.Kept || res.Whole.Bytes != int64(sink.Len()) || !tc.want(sink.Bytes()) {
					t.Errorf("%s: whole %+v, %d bytes reached the sink", tc.name, res.Whole, sink.Len())
				}
				if !strings.Contains(res.Text, `kept as mcpexec://results/r7, and load("r7") in a later script returns it`) || res.Value != nil {
					t.Errorf("%s: text does not name the kept value:\n%.300s", tc.name, res.Text[max(0, len(res.Text)-300):])
				}
			}

			var sink bytes.Buffer
			req := stateRequest(nil, `return "x".repeat(300000)`)
			req.Limits.MaxResultChars = 1000
			req.Limits.MaxKeptBytes = 100000
			req.Reference = &Reference{ID: "r8", Sink: &sink}
			res := run(req)
			wantOK(t, res)
			if res.Whole == nil || res.Whole.Kept || res.Whole.Bytes != 300002 || res.Whole.Chars != 300000 {
				t.Errorf("value over what is kept: whole %+v", res.Whole)
			}
			if !strings.Contains(res.Text, "the whole value (293 KiB) is too large to keep") {
				t.Errorf("text does not say the value is too large to keep:\n%s", res.Text[len(res.Text)-200:])
			}

			// Within the cap nothing reaches the sink.
			sink.Reset()
			req = stateRequest(nil, `return "short"`)
			req.Reference = &Reference{ID: "r9", Sink: &sink}
			res = run(req)
			if res.Whole != nil || sink.Len() != 0 {
				t.Errorf("a short value: whole %+v, %d bytes in the sink", res.Whole, sink.Len())
			}
		})
	}
}
