package test262

import (
	"context"
	"os"
	"path/filepath"
	"runtime"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"

	"github.com/mcpexec/mcpexec/internal/testkit"
)

// checkout is a made-up test262 checkout: stand-ins for the harness files,
// and a test of each kind the rules tell apart.
const checkout = "testdata/checkout"

// wantCounts is how the made-up checkout comes out under the rules, in
// every engine: each file in test/pass passes only by following a rule
// (harness and includes, modes, raw, async, negative phases, the host
// hooks), each in test/fail breaks one, and test/skip holds only what is
// skipped (and a fixture, which is not a test).
var wantCounts = map[string]*Counts{
	"test/pass": {Passed: 9},
	"test/fail": {Failed: 4},
	"test/skip": {Skipped: 2},
}

// nodeBinary is the Node 22 `make deps` installs.
func nodeBinary(t *testing.T) string {
	t.Helper()
	node, err := filepath.Abs("../../.tools/node22/node_modules/node/bin/node")
	if err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(node); err != nil {
		t.Fatalf("%s is missing: run `make deps` to install Node 22", node)
	}
	return node
}

// TestEnginesFollowTheSuitesRules runs the made-up checkout through each
// engine: all three must apply the rules alike, or their pass rates would
// not compare.
func TestEnginesFollowTheSuitesRules(t *testing.T) {
	engines := map[string]func() (Engine, error){
		"sandbox": func() (Engine, error) { return NewSandbox(2) },
		"goja":    func() (Engine, error) { return Goja{}, nil },
		"node":    func() (Engine, error) { return NewNode(nodeBinary(t), 2) },
	}
	for name, start := range engines {
		t.Run(name, func(t *testing.T) {
			goroutines := runtime.NumGoroutine()
			engine, err := start()
			if err != nil {
				t.Fatal(err)
			}
			defer checkNothingLeft(t, goroutines)
			defer engine.Close()
			var failures strings.Builder
			report, err := Run(context.Background(), Options{Dir: checkout, Engine: engine, Parallel: 2, Failures: &failures})
			if err != nil {
				t.Fatal(err)
			}
			if diff := cmp.Diff(wantCounts, report.Dirs); diff != "" {
				t.Errorf("counts (-want +got):\n%s\nfailures:\n%s", diff, failures.String())
			}
			for _, why := range []string{
				"test/fail/throws.js: sloppy: runtime Test262Error: failing on purpose",
				"test/fail/strict-mode-only.js: strict: runtime ReferenceError",
				"test/fail/async-never-done.js: sloppy: the async test never called $DONE",
				"test/fail/negative-wrong-phase.js: sloppy: expected a parse SyntaxError, got a runtime SyntaxError",
			} {
				if !strings.Contains(failures.String(), why) {
					t.Errorf("the failures do not say %q:\n%s", why, failures.String())
				}
			}
		})
	}
}

// TestReportAccountsForEveryFile: one line per directory, in path order,
// then the totals.
func TestReportAccountsForEveryFile(t *testing.T) {
	report, err := Run(context.Background(), Options{Dir: checkout, Engine: Goja{}})
	if err != nil {
		t.Fatal(err)
	}
	var out strings.Builder
	if err := report.Write(&out); err != nil {
		t.Fatal(err)
	}
	want := "test/fail: 0 passed, 4 failed, 0 skipped\n" +
		"test/pass: 9 passed, 0 failed, 0 skipped\n" +
		"test/skip: 0 passed, 0 failed, 2 skipped\n" +
		"9 passed, 4 failed\n"
	if out.String() != want {
		t.Errorf("report:\n%s\nwant:\n%s", out.String(), want)
	}
}

func TestFrontmatter(t *testing.T) {
	src := `// Copyright
/*---
esid: sec-x
description: >
  includes: [not-a-key.js] inside a folded block
info: |
  flags: [nor-this]
includes: [a.js, "b.js"]
flags: [onlyStrict, async] # a comment
features:
  - Symbol
  - 'BigInt'
negative:
  phase: parse
  type: SyntaxError
---*/
code();`
	m, err := parseMeta(src)
	if err != nil {
		t.Fatal(err)
	}
	got := []any{m.includes, m.flags, m.features, *m.negative}
	want := []any{[]string{"a.js", "b.js"}, []string{"onlyStrict", "async"}, []string{"Symbol", "BigInt"}, negative{phase: "parse", errorType: "SyntaxError"}}
	if diff := cmp.Diff(want, got, cmp.AllowUnexported(negative{})); diff != "" {
		t.Errorf("frontmatter (-want +got):\n%s", diff)
	}
	if _, err := parseMeta("no frontmatter"); err == nil {
		t.Error("a file without frontmatter parsed")
	}
}

// checkNothingLeft fails the test if goroutines or child processes the
// engine started outlive it once it is closed.
func checkNothingLeft(t *testing.T, goroutines int) {
	t.Helper()
	testkit.CheckGoroutines(t, goroutines)
	deadline := time.Now().Add(10 * time.Second)
	for len(children(t)) > 0 && time.Now().Before(deadline) {
		time.Sleep(20 * time.Millisecond)
	}
	if left := children(t); len(left) > 0 {
		t.Errorf("child processes left behind: %v", left)
	}
}

// children lists this process's child processes (zombies included).
func children(t *testing.T) []string {
	t.Helper()
	entries, err := os.ReadDir("/proc")
	if err != nil {
		t.Fatal(err)
	}
	var pids []string
	me := strconv.Itoa(os.Getpid())
	for _, e := range entries {
		stat, err := os.ReadFile(filepath.Join("/proc", e.Name(), "stat"))
		if err != nil {
			continue
		}
		// pid (comm) state ppid ...: comm may hold spaces, so read after it.
		fields := strings.Fields(string(stat[strings.LastIndexByte(string(stat), ')')+1:]))
		if len(fields) > 1 && fields[1] == me {
			pids = append(pids, e.Name())
		}
	}
	return pids
}
