package hotreload

import (
	"bytes"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"sync"

	"github.com/mcpexec/mcpexec/permissions"
)

// maxMergeAttempts bounds how often AddAllowRule re-merges when the file
// keeps changing under it.
const maxMergeAttempts = 8

// newFileMode is the mode of a settings file AddAllowRule creates.
const newFileMode fs.FileMode = 0o644

// Points at which writeHook is called: in order while a rule is written,
// then inside the config actor between taking a change and publishing it.
const (
	hookWritten     = "written"      // temporary file written, not yet synced
	hookSynced      = "synced"       // temporary file synced, not yet renamed
	hookRenamed     = "renamed"      // renamed over the settings file, directory not yet synced
	hookReloading   = "reloading"    // a file layer took a new reading, not yet published
	hookSessionRule = "session rule" // a session's rule taken, not yet published
)

// writeHook lets tests act between the steps of a write or of a change
// (kill the process, play a person saving the file, make the config actor
// fail). Nil outside tests.
var writeHook func(point string)

// fileLocks serialises writers of one settings file inside this process
// (flock alone does not: it is per open file description).
var fileLocks sync.Map // absolute path -> *sync.Mutex

// AddAllowRule appends rule to permissions.allow in the settings file at
// path, creating the file if needed. It is safe against other goroutines and
// other processes doing the same, and against a person saving the file
// meanwhile: the file is re-read under the locks, the rule merged in with
// every other key kept, and written to a temporary file that is synced and
// renamed over the original only if the original still holds what was read
// (otherwise the merge starts again). A file that is not valid settings is
// left alone and reported. Adding a rule that is already there writes
// nothing.
func AddAllowRule(path, rule string) error {
	if err := permissions.ValidateRule(rule); err != nil {
		return err
	}
	target, err := writeTarget(path)
	if err != nil {
		return err
	}
	mu, _ := fileLocks.LoadOrStore(target, &sync.Mutex{})
	mu.(*sync.Mutex).Lock()
	defer mu.(*sync.Mutex).Unlock()

	dir, base := filepath.Split(target)
	lock, err := os.OpenFile(filepath.Join(dir, "."+base+".lock"), os.O_CREATE|os.O_RDWR, 0o600)
	if err != nil {
		return fmt.Errorf("lock settings file: %w", err)
	}
	defer lock.Close() // closing releases the flock
	if err := lockFile(lock); err != nil {
		return fmt.Errorf("lock settings file: %w", err)
	}

	for range maxMergeAttempts {
		done, err := mergeAndReplace(target, rule)
		if done || err != nil {
			return err
		}
	}
	return fmt.Errorf("settings file %s kept changing while the rule %q was saved", target, rule)
}

// writeTarget is the file a write must replace: path itself, or the file a
// symbolic link at path points to (replacing the link would cut it).
func writeTarget(path string) (string, error) {
	abs, err := filepath.Abs(path)
	if err != nil {
		return "", err
	}
	resolved, err := filepath.EvalSymlinks(abs)
	if errors.Is(err, fs.ErrNotExist) {
		return abs, nil
	}
	return resolved, err
}

// mergeAndReplace does one read-merge-write round. done is false when the
// file changed between the read and the rename, so nothing was replaced.
func mergeAndReplace(target, rule string) (done bool, err error) {
	original, mode, err := readForMerge(target)
	if err != nil {
		return false, err
	}
	merged, changed, err := withAllowRule(original, rule)
	if err != nil {
		return false, fmt.Errorf("settings file %s: %w; the rule %q was not saved", target, err, rule)
	}
	if !changed {
		return true, nil
	}
	tmp := filepath.Join(filepath.Dir(target), "."+filepath.Base(target)+".tmp")
	if err := writeSynced(tmp, merged, mode); err != nil {
		return false, err
	}
	current, _, err := readForMerge(target)
	if err != nil {
		return false, err
	}
	if !bytes.Equal(current, original) {
		return false, nil
	}
	if err := os.Rename(tmp, target); err != nil {
		return false, fmt.Errorf("replace settings file: %w", err)
	}
	hook(hookRenamed)
	if err := syncDir(filepath.Dir(target)); err != nil {
		return false, fmt.Errorf("sync settings directory: %w", err)
	}
	return true, nil
}

// readForMerge reads the file and its mode; a missing file is empty.
func readForMerge(path string) ([]byte, fs.FileMode, error) {
	data, err := os.ReadFile(path)
	if errors.Is(err, fs.ErrNotExist) {
		return nil, newFileMode, nil
	}
	if err != nil {
		return nil, 0, fmt.Errorf("read settings file: %w", err)
	}
	info, err := os.Stat(path)
	if err != nil {
		return nil, 0, fmt.Errorf("read settings file: %w", err)
	}
	return data, info.Mode().Perm(), nil
}

// writeSynced writes data to path (replacing any leftover of a crashed
// write) and syncs it to disk.
func writeSynced(path string, data []byte, mode fs.FileMode) error {
	f, err := os.OpenFile(path, os.O_CREATE|os.O_TRUNC|os.O_WRONLY, mode)
	if err != nil {
		return fmt.Errorf("write settings file: %w", err)
	}
	_, werr := f.Write(data)
	if werr == nil {
		hook(hookWritten)
		werr = f.Chmod(mode)
	}
	if werr == nil {
		werr = f.Sync()
	}
	if cerr := f.Close(); werr == nil {
		werr = cerr
	}
	if werr != nil {
		return fmt.Errorf("write settings file: %w", werr)
	}
	hook(hookSynced)
	return nil
}

func hook(point string) {
	if writeHook != nil {
		writeHook(point)
	}
}
