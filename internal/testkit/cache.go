package testkit

import (
	"fmt"
	"os"
)

// WithTempCache runs run (a TestMain's m.Run) with MCPEXEC_CACHE_DIR set to
// a fresh directory, removed afterwards, so Systems started with default
// options, and the processes the tests start, keep what they learn there
// and never in the user's cache. It returns run's exit code.
func WithTempCache(run func() int) int {
	dir, err := os.MkdirTemp("", "mcpexec-cache-")
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		return 1
	}
	defer os.RemoveAll(dir)
	os.Setenv("MCPEXEC_CACHE_DIR", dir)
	return run()
}
