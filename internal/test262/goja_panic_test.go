package test262

import (
	"context"
	"strings"
	"testing"
)

// An engine panic (here goja's lexer, on a string it mis-measures) fails
// that file; the run goes on.
func TestGojaPanicFailsTheFile(t *testing.T) {
	out := Goja{}.Run(context.Background(), `throw new Error("not reached"); 'a\u{20BB7}b\u{10FFFF}c'`)
	if out.Phase != "runtime" || !strings.Contains(out.Message, "panicked") {
		t.Errorf("outcome %+v, want a runtime failure saying the engine panicked", out)
	}
}
