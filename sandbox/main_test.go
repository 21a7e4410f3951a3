package sandbox

import (
	"os"
	"testing"
)

// TestMain lets this test binary serve as its own sandbox worker process.
func TestMain(m *testing.M) {
	MaybeRunWorker()
	os.Exit(m.Run())
}
