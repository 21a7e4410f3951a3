package tests

import (
	"os"
	"path/filepath"
	"testing"
)

// nodeTools locates Node 22 and the npm packages `make deps` installs into
// .tools, failing the test (never skipping it) when they are missing.
func nodeTools(t *testing.T, packages ...string) (node string, dirs []string) {
	t.Helper()
	root, err := moduleRoot()
	if err != nil {
		t.Fatal(err)
	}
	node = filepath.Join(root, ".tools/node22/node_modules/node/bin/node")
	for _, p := range packages {
		dirs = append(dirs, filepath.Join(root, ".tools", p))
	}
	for _, f := range append([]string{node}, dirs...) {
		if _, err := os.Stat(f); err != nil {
			t.Fatalf("%s is missing: run `make deps` to install Node 22 and the npm test packages", f)
		}
	}
	return node, dirs
}
