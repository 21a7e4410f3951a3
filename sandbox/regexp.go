package sandbox

import (
	"time"

	"github.com/dlclark/regexp2/v2"
)

// regexpMatchTimeout bounds one backtracking match. goja runs patterns that
// Go's regexp cannot (backreferences, lookaround) on regexp2, whose matcher
// ignores Interrupt; without a bound, a catastrophic pattern runs past any
// deadline. A match that times out finds nothing, and the interrupt already
// set by the deadline then ends the script at its next instruction.
//
// regexp2 reads this default when a pattern is compiled, and it is process
// wide; nothing else in this module uses regexp2.
const regexpMatchTimeout = 500 * time.Millisecond

func init() {
	regexp2.DefaultMatchTimeout = regexpMatchTimeout
}
