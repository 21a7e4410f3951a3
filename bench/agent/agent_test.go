package agent

import (
	"bytes"
	"context"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// mcpexecBin is the binary under test, built once for the package.
var mcpexecBin string

func TestMain(m *testing.M) {
	dir, err := os.MkdirTemp("", "benchagent-test-")
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
	mcpexecBin = filepath.Join(dir, "mcpexec")
	build := exec.Command("go", "build", "-o", mcpexecBin, "github.com/mcpexec/mcpexec/cmd/mcpexec")
	if out, err := build.CombinedOutput(); err != nil {
		fmt.Fprintf(os.Stderr, "building mcpexec: %v\n%s", err, out)
		os.Exit(1)
	}
	code := m.Run()
	os.RemoveAll(dir)
	os.Exit(code)
}

// testSetup finds the npm packages `make deps` installs, in the module's
// .tools directory.
func testSetup(t *testing.T) Setup {
	t.Helper()
	out, err := exec.Command("go", "list", "-m", "-f", "{{.Dir}}").Output()
	if err != nil {
		t.Fatal(err)
	}
	setup := Setup{MCPExec: mcpexecBin, Tools: filepath.Join(strings.TrimSpace(string(out)), ".tools")}
	if err := setup.Check(); err != nil {
		t.Fatal(err)
	}
	return setup
}

// The benchmark's driver runs tasks end to end in both modes, through
// `mcpexec serve` and the real servers (the filesystem server over stdio,
// server-everything over HTTP, the memory server's graph read back with
// read_graph), and its checks tell a task done from one not done. Nothing
// it started outlives it.
func TestAgentBenchmarkRunsAndChecksFinalState(t *testing.T) {
	setup := testSetup(t)
	// Every process serve starts inherits the mark, so a survivor is found.
	mark := fmt.Sprintf("BENCHAGENT_TEST_RUN=%d", time.Now().UnixNano())
	name, value, _ := strings.Cut(mark, "=")
	t.Setenv(name, value)

	ctx := context.Background()
	bench, err := Start(ctx, setup)
	if err != nil {
		t.Fatal(err)
	}
	for _, task := range []Task{archiveLogsTask, weatherNotesTask} {
		for _, mode := range []Mode{Flat, Code} {
			run, err := bench.Run(ctx, task, mode)
			if err != nil {
				t.Fatal(err)
			}
			if !run.OK() {
				t.Errorf("%s (%s) did not reach the right state: %s", task.Name, mode, run.Problem)
			}
			if run.Turns != run.Calls+1 || run.Calls == 0 {
				t.Errorf("%s (%s): %d turns for %d calls", task.Name, mode, run.Turns, run.Calls)
			}
			if run.Tokens.Declarations == 0 || run.Tokens.Prefix <= run.Tokens.Declarations || run.Tokens.Summed < run.Turns*run.Tokens.Prefix {
				t.Errorf("%s (%s): context counted as %+v over %d turns", task.Name, mode, run.Tokens, run.Turns)
			}
		}
	}
	bench.Close()
	if bench.remote.cmd.ProcessState == nil {
		t.Error("the HTTP server outlived the benchmark")
	}
	if left := marked(mark, 10*time.Second); len(left) > 0 {
		t.Errorf("processes outlived the benchmark: %v", left)
	}
}

// A task left undone fails its check: the seed alone is not the final state.
func TestAgentBenchmarkChecksRejectTheSeed(t *testing.T) {
	setup := testSetup(t)
	ctx := context.Background()
	for _, task := range Tasks() {
		ws, err := newWorkspace(t.TempDir(), setup)
		if err != nil {
			t.Fatal(err)
		}
		if task.Seed != nil {
			if err := task.Seed(ws); err != nil {
				t.Fatal(err)
			}
		}
		if err := task.Check(ctx, ws, "I could not find out."); err == nil {
			t.Errorf("%s: the check passes on the untouched seed", task.Name)
		}
	}
}

// marked lists the live processes whose environment holds mark, waiting a
// while for exiting ones to go.
func marked(mark string, patience time.Duration) []string {
	deadline := time.Now().Add(patience)
	for {
		var left []string
		entries, _ := os.ReadDir("/proc")
		for _, e := range entries {
			env, err := os.ReadFile(filepath.Join("/proc", e.Name(), "environ"))
			if err != nil || e.Name() == fmt.Sprint(os.Getpid()) {
				continue
			}
			if stat, _ := os.ReadFile(filepath.Join("/proc", e.Name(), "stat")); bytes.Contains(stat, []byte(") Z")) {
				continue
			}
			for _, kv := range bytes.Split(env, []byte{0}) {
				if string(kv) == mark {
					cmdline, _ := os.ReadFile(filepath.Join("/proc", e.Name(), "cmdline"))
					left = append(left, e.Name()+" "+string(bytes.ReplaceAll(cmdline, []byte{0}, []byte{' '})))
				}
			}
		}
		if len(left) == 0 || time.Now().After(deadline) {
			return left
		}
		time.Sleep(50 * time.Millisecond)
	}
}
