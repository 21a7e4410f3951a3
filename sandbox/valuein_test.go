package sandbox

import (
	"encoding/json"
	"testing"

	"github.com/dop251/goja"
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
		vm := goja.New()
		v, err := fromJSON(vm, json.RawMessage(doc))
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

// normalize maps numbers to float64, as a JSON round trip would.
func normalize(v any) any {
	switch x := v.(type) {
	case map[string]any:
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
