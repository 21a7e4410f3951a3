package tests

import (
	"path/filepath"
	"strings"
	"testing"
)

// A wrong command line exits 2 with the usage on stderr and nothing on stdout.
func TestUsageErrorsExitWithStatus2(t *testing.T) {
	for _, args := range [][]string{
		{"bogus"},
		{"exec"},
		{"exec", "--ask", "sometimes", "-"},
		{"exec", "--timeout", "soon", "-"},
		{"catalog", "extra"},
		{"tools", "--budget", "5"},
		{"serve-mcp"},
	} {
		run := runDemo(t, "", args...)
		if run.code != 2 || !strings.Contains(run.stderr, "usage") || run.stdout != "" {
			t.Errorf("demo %q: exit %d, stdout %q, stderr %q; want exit 2 and the usage on stderr",
				args, run.code, run.stdout, run.stderr)
		}
	}
}

// Help that was asked for is not an error.
func TestHelpExitsZero(t *testing.T) {
	run := runDemo(t, "", "help")
	if run.code != 0 || !strings.Contains(run.stdout, "demo exec") || !strings.Contains(run.stdout, "serve-mcp") {
		t.Errorf("demo help: exit %d, stdout %q", run.code, run.stdout)
	}
	run = runDemo(t, "", "exec", "-h")
	if run.code != 0 || !strings.Contains(run.stdout, "-max-calls") {
		t.Errorf("demo exec -h: exit %d, stdout %q", run.code, run.stdout)
	}
}

// A script file that cannot be read is named in the error.
func TestMissingScriptFileIsAClearError(t *testing.T) {
	run := runDemo(t, "", "exec", "--script", "/nonexistent/script.js")
	if run.code != 1 || !strings.Contains(run.stderr, "/nonexistent/script.js") {
		t.Errorf("exit %d, stderr %q; want exit 1 naming the file", run.code, run.stderr)
	}
}

// A settings file with a wrong type fails the start, naming the key.
func TestMalformedSettingsFileIsAClearError(t *testing.T) {
	settings := writeFile(t, "settings.json", `{"enableExec": "yes"}`)
	run := runDemo(t, "", "tools", "--settings", settings)
	if run.code != 1 || !strings.Contains(run.stderr, "enableExec") {
		t.Errorf("exit %d, stderr %q; want exit 1 naming the bad key", run.code, run.stderr)
	}
}

// A --settings path that does not exist is an error naming it, for every
// command that reads settings: a typo must not run with no rules at all.
func TestMissingSettingsFileIsAnError(t *testing.T) {
	missing := filepath.Join(t.TempDir(), "settigns.json")
	script := writeFile(t, "s.js", `return 1;`)
	for _, args := range [][]string{
		{"exec", "--settings", missing, "--script", script},
		{"catalog", "--settings", missing},
		{"tools", "--settings", missing},
	} {
		run := runDemo(t, "", args...)
		if run.code != 1 || !strings.Contains(run.stderr, missing+" does not exist") || run.stdout != "" {
			t.Errorf("demo %q: exit %d, stdout %q, stderr %q; want exit 1 naming the missing file", args, run.code, run.stdout, run.stderr)
		}
	}
}
