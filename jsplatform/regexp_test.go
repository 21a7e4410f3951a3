package jsplatform

import (
	"encoding/json"
	"os"
	"testing"
)

// TestRegExpMatchesNode runs regular expressions as models write them
// (Unicode property escapes, the u and v flags, match indices) and compares
// each answer with Node 22's, recorded in testdata/regexp_node.json by
// testdata/gen_regexp_node.js: a property escape never quietly matches
// something else.
func TestRegExpMatchesNode(t *testing.T) {
	data, err := os.ReadFile("testdata/regexp_node.json")
	if err != nil {
		t.Fatal(err)
	}
	var recorded struct {
		Answers []struct {
			Expr   string `json:"expr"`
			Value  string `json:"value"`
			Throws string `json:"throws"`
		} `json:"answers"`
	}
	if err := json.Unmarshal(data, &recorded); err != nil {
		t.Fatal(err)
	}
	vm, p := newRuntime(t)
	if err := vm.Set("expressions", func() []string {
		exprs := make([]string, len(recorded.Answers))
		for i, a := range recorded.Answers {
			exprs[i] = a.Expr
		}
		return exprs
	}()); err != nil {
		t.Fatal(err)
	}
	const code = `expressions.map((expr) => {
		try {
			return { value: JSON.stringify((0, eval)(expr)) ?? "undefined" };
		} catch (e) {
			return { throws: e.name };
		}
	})`
	if err := p.Prepare(code); err != nil {
		t.Fatal(err)
	}
	v, err := vm.RunString("JSON.stringify(" + code + ")")
	if err != nil {
		t.Fatal(err)
	}
	var got []struct {
		Value  string `json:"value"`
		Throws string `json:"throws"`
	}
	if err := json.Unmarshal([]byte(v.String()), &got); err != nil {
		t.Fatal(err)
	}
	for i, want := range recorded.Answers {
		if got[i].Value != want.Value || got[i].Throws != want.Throws {
			t.Errorf("%s\n  got  value=%s throws=%s\n  node value=%s throws=%s", want.Expr, got[i].Value, got[i].Throws, want.Value, want.Throws)
		}
	}
}
