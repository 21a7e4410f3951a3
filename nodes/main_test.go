package nodes_test

import (
	"os"
	"testing"

	"github.com/mcpexec/mcpexec/sandbox"
)

// TestMain lets this test binary serve as its own sandbox worker process.
func TestMain(m *testing.M) {
	sandbox.MaybeRunWorker()
	os.Exit(m.Run())
}
