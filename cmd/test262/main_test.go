package main

import (
	"os"
	"strings"
	"testing"

	"github.com/mcpexec/mcpexec"
)

// TestMain lets this test binary serve as the sandbox engine's workers.
func TestMain(m *testing.M) {
	mcpexec.MaybeRunWorker()
	os.Exit(m.Run())
}

const checkout = "../../internal/test262/testdata/checkout"

// TestOutputAndExitCodes: the report on standard output, and 0 when
// nothing failed, 1 otherwise, 2 on a bad command line.
func TestOutputAndExitCodes(t *testing.T) {
	cases := []struct {
		args      []string
		code      int
		stdout    string
		stderrHas string
	}{
		{[]string{"-dir", checkout, "-filter", "^test/(pass|skip)/"}, 0,
			"test/pass: 9 passed, 0 failed, 0 skipped\ntest/skip: 0 passed, 0 failed, 2 skipped\n9 passed, 0 failed\n", ""},
		{[]string{"-dir", checkout, "-filter", "throws", "-v"}, 1,
			"test/fail: 0 passed, 1 failed, 0 skipped\n0 passed, 1 failed\n", "FAIL test/fail/throws.js: sloppy: runtime Test262Error: failing on purpose"},
		{[]string{"-dir", checkout, "-engine", "goja", "-filter", "^test/pass/plain"}, 0,
			"test/pass: 1 passed, 0 failed, 0 skipped\n1 passed, 0 failed\n", ""},
		{[]string{}, 2, "", "usage: test262 -dir CHECKOUT"},
		{[]string{"-dir", checkout, "-filter", "("}, 2, "", "bad -filter"},
		{[]string{"-dir", checkout, "-engine", "rhino"}, 2, "", "unknown -engine"},
		{[]string{"-dir", "testdata/no-such-checkout"}, 2, "", "is not a test262 checkout"},
		{[]string{"-dir", checkout, "extra"}, 2, "", "usage:"},
	}
	for _, c := range cases {
		t.Run(strings.Join(c.args, " "), func(t *testing.T) {
			var stdout, stderr strings.Builder
			code := run(c.args, &stdout, &stderr)
			if code != c.code {
				t.Errorf("exit code %d, want %d; stderr:\n%s", code, c.code, stderr.String())
			}
			if stdout.String() != c.stdout {
				t.Errorf("stdout:\n%s\nwant:\n%s", stdout.String(), c.stdout)
			}
			if !strings.Contains(stderr.String(), c.stderrHas) {
				t.Errorf("stderr lacks %q:\n%s", c.stderrHas, stderr.String())
			}
		})
	}
}
