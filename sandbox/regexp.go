package sandbox

import (
	"math"
	"time"

	"github.com/dlclark/regexp2/v2"
)

// goja runs patterns that Go's regexp cannot (backreferences, lookaround) on
// regexp2, whose matcher ignores Interrupt. A catastrophic pattern therefore
// runs past any deadline unless regexp2 bounds the match itself, and a match
// that hits regexp2's bound silently finds nothing.
//
// In a worker process the deadline kill is the bound, so matches are never
// cut short and never give a wrong answer (unboundedRegexpMatches). In this
// process, where nothing can kill a runaway goroutine, one match is bounded
// by inProcessRegexpMatchTimeout: generous enough that ordinary patterns
// never reach it, short enough that an abandoned runtime ends soon.
//
// regexp2 reads its default when a pattern is compiled, and it is process
// wide; nothing else in this module uses regexp2.
const inProcessRegexpMatchTimeout = 5 * time.Second

func init() {
	regexp2.DefaultMatchTimeout = inProcessRegexpMatchTimeout
}

// unboundedRegexpMatches lifts the match bound; workers call it at start.
func unboundedRegexpMatches() {
	regexp2.DefaultMatchTimeout = time.Duration(math.MaxInt64)
}
