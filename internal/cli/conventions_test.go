package cli

import (
	"bytes"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// runMcpexec runs one mcpexec command line in process.
func runMcpexec(t *testing.T, args ...string) (code int, stdout, stderr string) {
	t.Helper()
	var out, errOut bytes.Buffer
	c := console{prog: mcpexecProgram, stdin: strings.NewReader(""), stdout: &out, stderr: &errOut}
	code = run(t.Context(), args, c)
	return code, out.String(), errOut.String()
}

func TestVersionFlagAndCommandPrintOnStdout(t *testing.T) {
	for _, args := range [][]string{{"--version"}, {"version"}} {
		code, out, errOut := runMcpexec(t, args...)
		if code != exitOK || !strings.HasPrefix(out, "mcpexec ") || errOut != "" {
			t.Errorf("%q: exit %d, stdout %q, stderr %q", args, code, out, errOut)
		}
	}
}

// COMMAND --help and help COMMAND print that command's usage on stdout, so
// a pager shows it, and exit 0.
func TestCommandHelpGoesToStdout(t *testing.T) {
	for _, args := range [][]string{{"exec", "--help"}, {"exec", "-h"}, {"help", "exec"}, {"exec", "--servers", "x.json", "--help"}} {
		code, out, errOut := runMcpexec(t, args...)
		if code != exitOK || !strings.HasPrefix(out, "usage: mcpexec exec ") || !strings.Contains(out, "-timeout duration") || errOut != "" {
			t.Errorf("%q: exit %d, stdout %q, stderr %q", args, code, out, errOut)
		}
	}
	if code, _, errOut := runMcpexec(t, "help", "bogus"); code != exitUsage || !strings.Contains(errOut, `unknown command "bogus"`) {
		t.Errorf("help bogus: exit %d, stderr %q", code, errOut)
	}
}

// The usage line says what the flags say: the installable tool needs
// --servers, the demo has a built-in pool.
func TestUsageLineMatchesWhetherServersIsRequired(t *testing.T) {
	for _, cmd := range []string{"exec", "catalog", "tools", "serve"} {
		_, out, _ := runMcpexec(t, cmd, "--help")
		if !strings.HasPrefix(out, "usage: mcpexec "+cmd+" --servers FILE ") {
			t.Errorf("mcpexec %s --help: %q", cmd, strings.SplitN(out, "\n", 2)[0])
		}
	}
	var out bytes.Buffer
	c := console{prog: demoProgram, stdin: strings.NewReader(""), stdout: &out, stderr: &out}
	run(t.Context(), []string{"exec", "--help"}, c)
	if !strings.HasPrefix(out.String(), "usage: demo exec [--servers FILE] ") {
		t.Errorf("demo exec --help: %q", strings.SplitN(out.String(), "\n", 2)[0])
	}
}

func TestDurationWithoutUnitSaysUseAUnit(t *testing.T) {
	code, _, errOut := runMcpexec(t, "exec", "--servers", "x.json", "--timeout", "5", "-")
	if code != exitUsage || !strings.Contains(errOut, `invalid value "5" for flag -timeout: a duration needs a unit: use a unit, e.g. 5s`) {
		t.Errorf("--timeout 5: exit %d, stderr %q", code, errOut)
	}
	code, _, errOut = runMcpexec(t, "exec", "--servers", "x.json", "--timeout", "soon", "-")
	if code != exitUsage || !strings.Contains(errOut, "not a duration: use a number and a unit, e.g. 5s") {
		t.Errorf("--timeout soon: exit %d, stderr %q", code, errOut)
	}
}

// The completion scripts complete commands and flags in the real shells
// (bash always; zsh and fish where installed, parsed only).
func TestCompletionScripts(t *testing.T) {
	dir := t.TempDir()
	for _, shell := range []string{"bash", "zsh", "fish"} {
		code, out, errOut := runMcpexec(t, "completion", shell)
		if code != exitOK || out == "" {
			t.Fatalf("completion %s: exit %d, stderr %q", shell, code, errOut)
		}
		if err := os.WriteFile(filepath.Join(dir, "c."+shell), []byte(out), 0o600); err != nil {
			t.Fatal(err)
		}
	}
	if code, _, _ := runMcpexec(t, "completion", "tcsh"); code != exitUsage {
		t.Errorf("completion tcsh: exit %d, want %d", code, exitUsage)
	}
	bash, err := exec.LookPath("bash")
	if err != nil {
		t.Skip("no bash")
	}
	complete := func(words ...string) string {
		script := `source "$1"; shift; COMP_WORDS=("$@"); COMP_CWORD=$(($# - 1)); _mcpexec; echo "${COMPREPLY[*]}"`
		out, err := exec.Command(bash, append([]string{"-c", script, "bash", filepath.Join(dir, "c.bash"), "mcpexec"}, words...)...).CombinedOutput()
		if err != nil {
			t.Fatalf("bash completion of %q: %v\n%s", words, err, out)
		}
		return strings.TrimSpace(string(out))
	}
	for _, c := range []struct {
		words []string
		want  string
	}{
		{[]string{"ser"}, "serve"},
		{[]string{"exec", "--ser"}, "--servers"},
		{[]string{"completion", "f"}, "fish"},
		{[]string{"help", "sand"}, "sandbox-node"},
		{[]string{"serve", "--htt"}, "--http"},
	} {
		if got := complete(c.words...); got != c.want {
			t.Errorf("completing %q: %q, want %q", c.words, got, c.want)
		}
	}
	for shell, check := range map[string][]string{"zsh": {"-n"}, "fish": {"--no-execute"}} {
		path, err := exec.LookPath(shell)
		if err != nil {
			continue
		}
		if out, err := exec.Command(path, append(check, filepath.Join(dir, "c."+shell))...).CombinedOutput(); err != nil {
			t.Errorf("%s does not parse its completion script: %v\n%s", shell, err, out)
		}
	}
}
