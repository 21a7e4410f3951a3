package actors

import (
	"math"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/mcpexec/mcpexec/pool"
	"github.com/mcpexec/mcpexec/sandbox"
)

// Proves ORCH-2: what a script's nested call resolves to and what a flat
// call's model reads, for each shape a projected result can take, including
// a result whose JSON the pool did not record (the value is encoded then).
func TestORCH2_PoolResultsBecomeScriptValuesAndFlatText(t *testing.T) {
	png := pool.Image{MIMEType: "image/png", Data: []byte{0x89, 'P', 'N', 'G'}}
	cases := []struct {
		name       string
		res        pool.Result
		wantScript string
		wantFlat   string
		wantImages []sandbox.Image
	}{
		{"structured, as recorded", pool.Result{Value: map[string]any{"b": 1.0, "a": 2.0}, JSON: []byte(`{"b":1,"a":2}`)}, `{"b":1,"a":2}`, `{"b":1,"a":2}`, nil},
		{"structured, not recorded", pool.Result{Value: map[string]any{"b": 1.0, "a": 2.0}}, `{"a":2,"b":1}`, `{"a":2,"b":1}`, nil},
		{"text", pool.Result{Value: "hello", JSON: []byte(`"hello"`)}, `"hello"`, "hello", nil},
		{"text, not recorded", pool.Result{Value: "hello"}, `"hello"`, "hello", nil},
		{"nothing", pool.Result{}, `null`, "", nil},
		{"image only", pool.Result{JSON: []byte(`null`), Images: []pool.Image{png}}, `null`, "",
			[]sandbox.Image{{MIMEType: "image/png", Data: png.Data}}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			script, err := scriptResult(c.res)
			if err != nil {
				t.Fatal(err)
			}
			if string(script.Value) != c.wantScript {
				t.Errorf("script value = %s, want %s", script.Value, c.wantScript)
			}
			if diff := cmp.Diff(c.wantImages, script.Images); diff != "" {
				t.Errorf("script images (-want +got):\n%s", diff)
			}
			flat, err := flatText(c.res)
			if err != nil || flat != c.wantFlat {
				t.Errorf("flat text = %q, %v; want %q", flat, err, c.wantFlat)
			}
		})
	}
}

// A value that cannot be encoded is a failure the model can read, for the
// script and for the flat call alike.
func TestAnUnreadableResultIsAReadableFailure(t *testing.T) {
	res := pool.Result{Value: map[string]any{"x": math.NaN()}}
	if _, err := scriptResult(res); err != errUnreadableResult {
		t.Errorf("script: %v, want %v", err, errUnreadableResult)
	}
	if _, err := flatText(res); err != errUnreadableResult {
		t.Errorf("flat: %v, want %v", err, errUnreadableResult)
	}
}
