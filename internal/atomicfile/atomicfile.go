// Package atomicfile writes a file so that a reader, or a crash, finds the
// old file or the new one, never a part of either: the bytes go to a
// temporary file beside it, mode 0600, synced to disk, which is then
// renamed over it. It depends on the standard library alone.
package atomicfile

import (
	"os"
	"path/filepath"
)

// Write writes parts, one after the other, as the file at path, making its
// directory (mode 0700) if there is none.
func Write(path string, parts ...[]byte) error {
	dir := filepath.Dir(path)
	if err := os.MkdirAll(dir, 0o700); err != nil {
		return err
	}
	tmp, err := os.CreateTemp(dir, "."+filepath.Base(path)+".tmp-*")
	if err != nil {
		return err
	}
	defer os.Remove(tmp.Name()) // gone after the rename; cleans up on failure
	// CreateTemp makes the file 0600; say so in case that ever changes.
	if err := tmp.Chmod(0o600); err != nil {
		tmp.Close()
		return err
	}
	for _, p := range parts {
		if _, err := tmp.Write(p); err != nil {
			tmp.Close()
			return err
		}
	}
	if err := tmp.Sync(); err != nil {
		tmp.Close()
		return err
	}
	if err := tmp.Close(); err != nil {
		return err
	}
	return os.Rename(tmp.Name(), path)
}
