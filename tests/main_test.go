package tests

import (
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"testing"

	"github.com/mcpexec/mcpexec"
	"github.com/mcpexec/mcpexec/internal/testkit"
	"github.com/mcpexec/mcpexec/internal/testservers"
)

// demoBin and mcpexecBin are the binaries built for this run.
var demoBin, mcpexecBin string

func TestMain(m *testing.M) {
	// A System started with default worker options re-executes this test
	// binary as its sandbox workers.
	mcpexec.MaybeRunWorker()
	// The test servers of the fault cases run as this binary, re-executed.
	testservers.MaybeServe()
	os.Exit(testkit.WithTempCache(func() int { return runTests(m) }))
}

func runTests(m *testing.M) int {
	dir, err := os.MkdirTemp("", "mcpexec-e2e-")
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		return 1
	}
	defer os.RemoveAll(dir)
	if demoBin, err = build(dir, "demo"); err != nil {
		fmt.Fprintln(os.Stderr, err)
		return 1
	}
	if mcpexecBin, err = build(dir, "mcpexec"); err != nil {
		fmt.Fprintln(os.Stderr, err)
		return 1
	}
	return m.Run()
}

// build builds cmd/NAME into dir, from the module root.
func build(dir, name string) (string, error) {
	root, err := moduleRoot()
	if err != nil {
		return "", err
	}
	bin := filepath.Join(dir, name)
	cmd := exec.Command("go", "build", "-o", bin, "./cmd/"+name)
	cmd.Dir = root
	if out, err := cmd.CombinedOutput(); err != nil {
		return "", fmt.Errorf("building %s: %v\n%s", name, err, out)
	}
	return bin, nil
}

// moduleRoot walks up from the working directory to the go.mod.
func moduleRoot() (string, error) {
	dir, err := os.Getwd()
	if err != nil {
		return "", err
	}
	for {
		if _, err := os.Stat(filepath.Join(dir, "go.mod")); err == nil {
			return dir, nil
		}
		parent := filepath.Dir(dir)
		if parent == dir {
			return "", errors.New("no go.mod above the working directory")
		}
		dir = parent
	}
}
