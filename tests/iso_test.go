package tests

import (
	"encoding/json"
	"testing"

	"github.com/google/go-cmp/cmp"
)

// ISO-1, ISO-2 and ISO-4 through the binary: the script finds no host
// capability, and every way to compile a string throws EvalError.
func TestISO1_ISO2_ISO4_ScriptsReachNothingOfTheHost(t *testing.T) {
	script := `const found = {};
for (const name of ["require", "process", "Buffer", "module", "fetch", "XMLHttpRequest"]) {
  found[name] = typeof globalThis[name];
}
const attempts = {
  eval: () => eval("1"),
  Function: () => new Function("return 1")(),
  toolConstructor: () => tools.mcp__text__echo.constructor("return 1")(),
  asyncConstructor: () => (async () => {}).constructor("return 1")(),
};
for (const [name, attempt] of Object.entries(attempts)) {
  try { attempt(); found[name] = "ran"; } catch (e) { found[name] = e.name; }
}
return found;`
	res, _ := execJSON(t, script, "")
	if !res.OK {
		t.Fatalf("probe failed: %s", res.Text)
	}
	var got map[string]string
	if err := json.Unmarshal([]byte(res.Text), &got); err != nil {
		t.Fatalf("result %q: %v", res.Text, err)
	}
	want := map[string]string{
		"require": "undefined", "process": "undefined", "Buffer": "undefined", "module": "undefined",
		"fetch": "undefined", "XMLHttpRequest": "undefined",
		"eval": "EvalError", "Function": "EvalError", "toolConstructor": "EvalError", "asyncConstructor": "EvalError",
	}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("what the script could reach (-want +got):\n%s", diff)
	}
	if len(res.Calls) != 0 {
		t.Errorf("calls = %q, want none: nothing here called a tool", res.Calls)
	}
}
