package actors

import (
	"errors"

	"github.com/mcpexec/mcpexec/pool"
)

// A tool's own isError text ("disk full") says what went wrong but not
// which call: a script that catches the rejection of one call of several
// (Promise.all, a loop with try/catch) and reports e.message would leave
// the model guessing. The script therefore sees the tool's text under the
// tool's full name, as `mcp__server__tool: text`. Every other failure of a
// call already names the tool (pool's CallError texts).

// scriptFailure is the error a nested call's script sees for err.
func scriptFailure(err error) error {
	var failed *pool.ToolError
	if errors.As(err, &failed) && failed.Text != "" {
		return namedToolError{failed}
	}
	return err
}

// namedToolError is a tool's isError reply as a script sees it.
type namedToolError struct{ *pool.ToolError }

func (e namedToolError) Error() string { return e.Tool + ": " + e.Text }

func (e namedToolError) Unwrap() error { return e.ToolError }
