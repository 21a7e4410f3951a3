package tests

import (
	"bytes"
	"crypto/rand"
	"encoding/hex"
	"io"
	"os"
	"os/exec"
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
		if hasEnv(pid, mark) {
			found = append(found, describeProcess(pid))
		}
	})
	return found
}

// hasEnv reports whether the environment of process pid holds kv; a process
// gone, or a zombie, holds nothing.
func hasEnv(pid, kv string) bool {
	env, err := os.ReadFile(filepath.Join("/proc", pid, "environ"))
	if err != nil {
		return false
	}
	for _, v := range bytes.Split(env, []byte{0}) {
		if string(v) == kv {
			return true
		}
	}
	return false
}

// childrenOf returns the processes whose parent is ppid, zombies included:
// a child that exited but was never waited for is a leak too.
func childrenOf(t *testing.T, ppid int) []string {
	t.Helper()
	want := strconv.Itoa(ppid)
	var found []string
	eachProcess(t, func(pid string) {
		if parent, state, ok := parentAndState(pid); ok && parent == want {
			found = append(found, describeProcess(pid)+" state "+state)
		}
	})
	return found
}

// parentAndState reads process pid's parent and state from /proc.
func parentAndState(pid string) (ppid, state string, ok bool) {
	stat, err := os.ReadFile(filepath.Join("/proc", pid, "stat"))
	if err != nil {
		return "", "", false
	}
	// "pid (comm) state ppid ...": comm may hold spaces and parentheses.
	i := bytes.LastIndexByte(stat, ')')
	if i < 0 {
		return "", "", false
	}
	fields := strings.Fields(string(stat[i+1:]))
	if len(fields) < 2 {
		return "", "", false
	}
	return fields[1], fields[0], true
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

// startHangingDemo starts `demo exec` on a script that calls echo, then a
// tool that never answers, with its processes marked for the scans.
func startHangingDemo(t *testing.T) (cmd *exec.Cmd, stdout io.ReadCloser, terminal *os.File, mark string) {
	t.Helper()
	mark = newRunMark(t)
	script := writeFile(t, "hang.js", `await tools.mcp__text__echo({ text: "started" });
await tools.mcp__text__hang({});`)
	cmd = exec.Command(demoBin, "exec", "--timeout", "10m", "--script", script)
	cmd.Env = append(os.Environ(), mark, "NO_COLOR=1")
	stdout, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	// The live line on the terminal tells when hang is under way.
	terminal, term := openPTY(t)
	t.Cleanup(func() { terminal.Close() })
	cmd.Stderr = term
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	term.Close()
	return cmd, stdout, terminal, mark
}

// waitShown reads the terminal until it has shown want, and returns what it
// showed.
func waitShown(t *testing.T, terminal io.Reader, want string) string {
	t.Helper()
	var shown strings.Builder
	buf := make([]byte, 4096)
	for !strings.Contains(shown.String(), want) {
		n, err := terminal.Read(buf)
		shown.Write(buf[:n])
		if err != nil {
			t.Fatalf("the terminal never showed %q: %v\n%q", want, err, shown.String())
		}
	}
	return shown.String()
}

// requireRunProcesses checks that the demo, its three servers and a worker
// are alive, so a later scan that must find nothing is known to see them.
func requireRunProcesses(t *testing.T, mark string) {
	t.Helper()
	if live := processesMarked(t, mark); len(live) < 4 {
		t.Fatalf("found %d processes of the run, want the demo, its 3 servers and a worker at least:\n%s",
			len(live), strings.Join(live, "\n"))
	}
}
