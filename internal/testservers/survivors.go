package testservers

import (
	"bytes"
	"os"
	"path/filepath"
	"strconv"
	"time"
)

// Survivors lists the processes still running this test binary (servers
// and their grandchildren started through StdioCommand), other than the
// caller itself, after waiting up to patience for them to go. Call it after
// m.Run in TestMain: a non-empty result means a process outlived its pool.
func Survivors(patience time.Duration) []int {
	deadline := time.Now().Add(patience)
	for {
		left := running()
		if len(left) == 0 || time.Now().After(deadline) {
			return left
		}
		time.Sleep(20 * time.Millisecond)
	}
}

func running() []int {
	self, err := os.Executable()
	if err != nil {
		return nil
	}
	entries, err := os.ReadDir("/proc")
	if err != nil {
		return nil
	}
	var out []int
	for _, e := range entries {
		pid, err := strconv.Atoi(e.Name())
		if err != nil || pid == os.Getpid() {
			continue
		}
		exe, err := os.Readlink(filepath.Join("/proc", e.Name(), "exe"))
		if err != nil || exe != self {
			continue
		}
		if stat, err := os.ReadFile(filepath.Join("/proc", e.Name(), "stat")); err == nil {
			if i := bytes.LastIndexByte(stat, ')'); i >= 0 && i+2 < len(stat) && stat[i+2] == 'Z' {
				continue // ended, waiting to be reaped by its parent
			}
		}
		out = append(out, pid)
	}
	return out
}
