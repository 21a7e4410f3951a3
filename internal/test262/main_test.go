package test262

import (
	"os"
	"testing"

	"github.com/mcpexec/mcpexec/sandbox"
)

// TestMain lets this test binary serve as the sandbox engine's workers.
func TestMain(m *testing.M) {
	sandbox.MaybeRunWorker()
	os.Exit(m.Run())
}
