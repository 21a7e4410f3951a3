package jsplatform

import (
	"encoding/json"
	"os"
	"testing"

	"github.com/dop251/goja"
	"github.com/google/go-cmp/cmp"
)

// newRuntime is a bare goja runtime with the platform installed, without
// timers (a sandbox run lends its own).
func newRuntime(t *testing.T) (*goja.Runtime, *Platform) {
	t.Helper()
	vm := goja.New()
	p, err := Install(vm, Config{OnError: func(part string, err error) { t.Errorf("%s: %v", part, err) }})
	if err != nil {
		t.Fatal(err)
	}
	return vm, p
}

// evaluate runs body as the body of an async function on a runtime with the
// platform prepared for it, drains its jobs, and returns the JSON of what
// it resolved to, or fails the test with what it threw.
func evaluate(t *testing.T, body string) string {
	t.Helper()
	vm, p := newRuntime(t)
	code := "(async () => {\n" + body + "\n})().then((v) => JSON.stringify(v), (e) => { throw e; })"
	if err := p.Prepare(code); err != nil {
		t.Fatalf("prepare: %v", err)
	}
	v, err := vm.RunString(code)
	if err != nil {
		t.Fatalf("run: %v", err)
	}
	promise := v.Export().(*goja.Promise)
	switch promise.State() {
	case goja.PromiseStateFulfilled:
		return promise.Result().String()
	case goja.PromiseStateRejected:
		t.Fatalf("threw: %v", promise.Result())
	}
	t.Fatal("the script's promise is still pending")
	return ""
}

// wantJSON compares two JSON texts structurally.
func wantJSON(t *testing.T, got, want string) {
	t.Helper()
	var g, w any
	if err := json.Unmarshal([]byte(got), &g); err != nil {
		t.Fatalf("result %q is not JSON: %v", got, err)
	}
	if err := json.Unmarshal([]byte(want), &w); err != nil {
		t.Fatalf("bad want %q: %v", want, err)
	}
	if diff := cmp.Diff(w, g); diff != "" {
		t.Errorf("result mismatch (-want +got):\n%s", diff)
	}
}

// checkMatchesNode evaluates each expression recorded in recordedPath (by a
// testdata/gen_*_node.js script) on a runtime with the platform, and
// compares its JSON value, or the name of what it threw, with Node's.
func checkMatchesNode(t *testing.T, recordedPath string) {
	t.Helper()
	data, err := os.ReadFile(recordedPath)
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
