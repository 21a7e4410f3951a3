package sandbox

import "testing"

// TestUncaughtJSONParseErrorSaysWhere: the platform's JSON.parse throws V8's
// SyntaxError (jsplatform's tests), and an uncaught one says where in the
// script it arose.
func TestUncaughtJSONParseErrorSaysWhere(t *testing.T) {
	res := run(newFakeHost(), "const text = '{\"items\": [1, 2], \"next\": nul}';\nconst page = JSON.parse(text);")
	wantFailure(t, res, `SyntaxError: Unexpected token '}', ..."next": nul}" is not valid JSON (at line 2:24)`)
}
