package tests

import (
	"bytes"
	"crypto/rand"
	"encoding/hex"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
)

// Every process a demo run starts (MCP servers, sandbox workers) inherits
// the run's environment, so a variable unique to the run finds them all,
// whoever their parent is by now: orphans are reparented, but keep their
// environment.

// runVar names the variable that marks the processes of one run.
const runVar = "MCPEXEC_E2E_RUN"

func newRunMark(t *testing.T) string {
	t.Helper()
	b := make([]byte, 8)
	if _, err := rand.Read(b); err != nil {
		t.Fatal(err)
	}
	return runVar + "=" + hex.EncodeToString(b)
}

// processesMarked returns the live processes whose environment holds mark.
func processesMarked(t *testing.T, mark string) []string {
	t.Helper()
	var found []string
	eachProcess(t, func(pid string) {
		env, err := os.ReadFile(filepath.Join("/proc", pid, "environ"))
		if err != nil {
			return // gone, or a zombie: nothing left of it to leak
		}
		for _, kv := range bytes.Split(env, []byte{0}) {
			if string(kv) == mark {
				found = append(found, describeProcess(pid))
				return
			}
		}
	})
	return found
}

// childrenOf returns the processes whose parent is ppid, zombies included:
// a child that exited but was never waited for is a leak too.
func childrenOf(t *testing.T, ppid int) []string {
	t.Helper()
	want := strconv.Itoa(ppid)
	var found []string
	eachProcess(t, func(pid string) {
		stat, err := os.ReadFile(filepath.Join("/proc", pid, "stat"))
		if err != nil {
			return
		}
		// "pid (comm) state ppid ...": comm may hold spaces and parentheses.
		i := bytes.LastIndexByte(stat, ')')
		if i < 0 {
			return
		}
		fields := strings.Fields(string(stat[i+1:]))
		if len(fields) >= 2 && fields[1] == want {
			found = append(found, describeProcess(pid)+" state "+fields[0])
		}
	})
	return found
}

func eachProcess(t *testing.T, fn func(pid string)) {
	t.Helper()
	entries, err := os.ReadDir("/proc")
	if err != nil {
		t.Fatalf("reading /proc: %v", err)
	}
	for _, e := range entries {
		if _, err := strconv.Atoi(e.Name()); err == nil {
			fn(e.Name())
		}
	}
}

func describeProcess(pid string) string {
	cmdline, _ := os.ReadFile(filepath.Join("/proc", pid, "cmdline"))
	return pid + " " + strings.TrimSpace(string(bytes.ReplaceAll(cmdline, []byte{0}, []byte{' '})))
}

// checkNoSurvivors fails the test when a process of the run is still alive.
func checkNoSurvivors(t *testing.T, mark string) {
	t.Helper()
	if left := processesMarked(t, mark); len(left) > 0 {
		t.Errorf("processes outlived the demo:\n%s", strings.Join(left, "\n"))
	}
}
