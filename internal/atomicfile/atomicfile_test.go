package atomicfile

import (
	"os"
	"path/filepath"
	"testing"
)

// Write replaces the file whole, private to its owner, in a directory it
// makes, and leaves no temporary file behind.
func TestWriteReplacesTheFileWhole(t *testing.T) {
	path := filepath.Join(t.TempDir(), "sub", "file.json")
	for _, content := range [][]string{{"first ", "version"}, {"second"}} {
		var parts [][]byte
		for _, p := range content {
			parts = append(parts, []byte(p))
		}
		if err := Write(path, parts...); err != nil {
			t.Fatal(err)
		}
	}
	data, err := os.ReadFile(path)
	if err != nil || string(data) != "second" {
		t.Fatalf("file holds %q, %v", data, err)
	}
	info, err := os.Stat(path)
	if err != nil || info.Mode().Perm() != 0o600 {
		t.Errorf("file mode %v, %v; want 0600", info.Mode().Perm(), err)
	}
	entries, _ := os.ReadDir(filepath.Dir(path))
	if len(entries) != 1 {
		t.Errorf("directory holds %d entries, want the file alone", len(entries))
	}
}
