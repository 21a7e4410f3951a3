package sandbox

import (
	"context"
	"encoding/json"
	"testing"

	"github.com/google/go-cmp/cmp"
)

// FuzzFromJSON checks the inbound decoder against encoding/json: it accepts
// exactly the valid documents and decodes the same values.
func FuzzFromJSON(f *testing.F) {
	for _, seed := range []string{`{"a":[1,2.5,-3e2,"x\u00e9\n",true,false,null,{}]}`, `"plain"`, `[]`, `{"__proto__":{"x":1}}`,
		`12345678901234567890`, `{"a":1,}`, `[1 2]`, `"\ud83d\ude00"`, "\"\xff\"", ` null `, `-0`, `1e400`} {
		f.Add(seed)
	}
	f.Fuzz(func(t *testing.T, doc string) {
		r, err := newRealm()
		if err != nil {
			t.Fatal(err)
		}
		v, err := fromJSON(r, json.RawMessage(doc))
		if doc == "" || isSpace(doc) {
			return // empty means null by contract
		}
		if valid := json.Valid([]byte(doc)); (err == nil) != valid {
			t.Fatalf("%q: decoder err %v, valid JSON %v", doc, err, valid)
		}
		var want any
		if err != nil || json.Unmarshal([]byte(doc), &want) != nil {
			return // numbers beyond float64 become Infinity, as JSON.parse makes them
		}
		gotJSON, err := json.Marshal(v.Export())
		if err != nil {
			t.Skip("value not re-encodable by the reference")
		}
		var got any
		_ = json.Unmarshal(gotJSON, &got)
		if diff := cmp.Diff(normalize(want), normalize(got)); diff != "" {
			t.Fatalf("%q (-encoding/json +ours):\n%s", doc, diff)
		}
	})
}

func isSpace(s string) bool {
	for _, c := range s {
		if c != ' ' && c != '\t' && c != '\n' && c != '\r' {
			return false
		}
	}
	return true
}

// normalize maps numbers to float64, as a JSON round trip would, and drops
// "__proto__" keys, which the decoder skips by design (ISO-5).
func normalize(v any) any {
	switch x := v.(type) {
	case map[string]any:
		delete(x, "__proto__")
		for k, e := range x {
			x[k] = normalize(e)
		}
	case []any:
		for i, e := range x {
			x[i] = normalize(e)
		}
	}
	return v
}

// TestToolSetRefusesNamesThatChangeTheToolsObject builds a tool set by hand
// with names that would make tools a thenable or hijack its conversions:
// they are refused, and the tools object stays an ordinary object.
func TestToolSetRefusesNamesThatChangeTheToolsObject(t *testing.T) {
	names := []string{"then", "toString", "valueOf", "constructor", "__proto__", "toJSON", "Symbol.toPrimitive", "mcp__s__ok"}
	ts := NewToolSet(names)
	if diff := cmp.Diff([]string{"mcp__s__ok"}, ts.Names()); diff != "" {
		t.Errorf("reachable names (-want +got):\n%s", diff)
	}
	if diff := cmp.Diff(names[:7], ts.Refused()); diff != "" {
		t.Errorf("refused names (-want +got):\n%s", diff)
	}
	h := newFakeHost().value("then", `1`).value("toString", `2`).value("mcp__s__ok", `3`)
	res := Run(context.Background(), Request{Host: h, Tools: NewToolSet(h.names()), Code: `
		const t = await tools;
		return [t === tools, typeof tools.then, String(tools), await tools.mcp__s__ok()];`})
	wantValue(t, res, `[true,"undefined","[object Object]",3]`)
}
