package test262

import (
	"context"
	"testing"
)

// A string literal ending in the last code point's escape ('\u{10FFFF}')
// made goja's lexer panic, which ended the whole bare-goja run; it now
// parses, and a panic of the engine would fail only its file (Goja.Run).
func TestGojaRunsAstralEscapes(t *testing.T) {
	out := Goja{}.Run(context.Background(), `if ('a\u{20BB7}b\u{10FFFF}c'.length !== 7) throw new Error("wrong length");`)
	if out.Phase != "" {
		t.Errorf("outcome %+v, want the script to complete", out)
	}
}
