package hotreload

import (
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"syscall"
	"testing"
)

// readAllow returns the allow rules of the settings file and its top-level
// object.
func readAllow(t *testing.T, path string) ([]string, map[string]json.RawMessage) {
	t.Helper()
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	var top map[string]json.RawMessage
	if err := json.Unmarshal(data, &top); err != nil {
		t.Fatalf("settings file is not valid JSON: %v\n%s", err, data)
	}
	s, err := ParseSettings(data)
	if err != nil {
		t.Fatal(err)
	}
	return s.Permissions.Allow, top
}

// personSaves replaces the file the way an editor's atomic save does.
func personSaves(t *testing.T, path string, edit func(map[string]any)) {
	t.Helper()
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	var doc map[string]any
	if err := json.Unmarshal(data, &doc); err != nil {
		t.Fatal(err)
	}
	edit(doc)
	out, _ := json.MarshalIndent(doc, "", "    ")
	info, err := os.Stat(path)
	if err != nil {
		t.Fatal(err)
	}
	tmp := path + ".editor-swap"
	if err := os.WriteFile(tmp, out, info.Mode().Perm()); err != nil {
		t.Fatal(err)
	}
	if err := os.Rename(tmp, path); err != nil {
		t.Fatal(err)
	}
}

func setHook(t *testing.T, h func(string)) {
	writeHook = h
	t.Cleanup(func() { writeHook = nil })
}

// Proves PERM-1.
func TestPERM1_AllowAlwaysCreatesTheSettingsFile(t *testing.T) {
	path := filepath.Join(t.TempDir(), "settings.json")
	if err := AddAllowRule(path, "mcp__github__create_issue"); err != nil {
		t.Fatal(err)
	}
	allow, _ := readAllow(t, path)
	if !slices.Equal(allow, []string{"mcp__github__create_issue"}) {
		t.Errorf("allow = %v", allow)
	}
	if err := AddAllowRule(path, "mcp__bad__"); err == nil {
		t.Error("an invalid rule was saved")
	}
}

// Proves PERM-1.
func TestPERM1_ConcurrentAllowAlwaysAndAPersonsEditLoseNothing(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "settings.json")
	original := `{"theme": "dark", "permissions": {"deny": ["mcp__stripe"], "x-note": 7}, "enableExec": true}`
	if err := os.WriteFile(path, []byte(original), 0o640); err != nil {
		t.Fatal(err)
	}
	// In the middle of one write (after it read the file, before it
	// replaces it) a person saves the file with changes of their own.
	var once sync.Once
	setHook(t, func(point string) {
		if point == hookSynced {
			once.Do(func() {
				personSaves(t, path, func(doc map[string]any) {
					doc["editorFontSize"] = 14
					doc["disallowedTools"] = []string{"mcp__slack"}
				})
			})
		}
	})

	const writers = 24
	var wg sync.WaitGroup
	errs := make(chan error, 2*writers)
	for i := range writers {
		wg.Go(func() {
			errs <- AddAllowRule(path, fmt.Sprintf("mcp__server%d__tool", i%12))
			errs <- AddAllowRule(path, fmt.Sprintf("mcp__g%d", i))
		})
	}
	wg.Wait()
	close(errs)
	for err := range errs {
		if err != nil {
			t.Fatal(err)
		}
	}

	allow, top := readAllow(t, path)
	for i := range writers {
		for _, rule := range []string{fmt.Sprintf("mcp__server%d__tool", i%12), fmt.Sprintf("mcp__g%d", i)} {
			if !slices.Contains(allow, rule) {
				t.Errorf("rule %s was lost", rule)
			}
		}
	}
	if len(allow) != writers+12 {
		t.Errorf("allow has %d rules, want %d (no repeats): %v", len(allow), writers+12, allow)
	}
	for key, want := range map[string]string{
		"theme": `"dark"`, "enableExec": "true", "editorFontSize": "14", "disallowedTools": `["mcp__slack"]`,
	} {
		if got := strings.Join(strings.Fields(string(top[key])), ""); got != want {
			t.Errorf("%s = %s, want %s", key, got, want)
		}
	}
	perms := strings.Join(strings.Fields(string(top["permissions"])), "")
	if !strings.Contains(perms, `"deny":["mcp__stripe"]`) || !strings.Contains(perms, `"x-note":7`) {
		t.Errorf("permissions lost keys: %s", perms)
	}
	info, err := os.Stat(path)
	if err != nil || info.Mode().Perm() != 0o640 {
		t.Errorf("file mode = %v, %v; want 0640 kept", info.Mode(), err)
	}
	assertNoTempFile(t, dir)
}

// Proves PERM-1.
func TestPERM1_ConcurrentAllowAlwaysFromSeveralProcesses(t *testing.T) {
	path := filepath.Join(t.TempDir(), "settings.json")
	const procs, perProc = 3, 6
	var cmds []*exec.Cmd
	var want []string
	for p := range procs {
		var rules []string
		for r := range perProc {
			rules = append(rules, fmt.Sprintf("mcp__p%d__t%d", p, r))
		}
		want = append(want, rules...)
		cmd := exec.Command(os.Args[0], "-test.run=^$")
		cmd.Env = append(os.Environ(), childPathEnv+"="+path, childRulesEnv+"="+strings.Join(rules, ","))
		cmd.Stderr = os.Stderr
		if err := cmd.Start(); err != nil {
			t.Fatal(err)
		}
		cmds = append(cmds, cmd)
	}
	for r := range perProc {
		rule := fmt.Sprintf("mcp__parent__t%d", r)
		want = append(want, rule)
		if err := AddAllowRule(path, rule); err != nil {
			t.Fatal(err)
		}
	}
	for _, cmd := range cmds {
		if err := cmd.Wait(); err != nil {
			t.Fatalf("writer process: %v", err)
		}
	}
	allow, _ := readAllow(t, path)
	slices.Sort(allow)
	slices.Sort(want)
	if !slices.Equal(allow, want) {
		t.Errorf("allow = %v\nwant  %v", allow, want)
	}
}

// Proves PERM-1.
func TestPERM1_WriterKilledMidWriteLeavesOldOrNewFile(t *testing.T) {
	old := "{\n  \"keep\": [1, 2],\n  \"permissions\": {\"allow\": [\"mcp__old\"]}\n}\n"
	cases := []struct {
		point   string
		wantNew bool
	}{
		{hookWritten, false},
		{hookSynced, false},
		{hookRenamed, true},
	}
	for _, c := range cases {
		t.Run(c.point, func(t *testing.T) {
			dir := t.TempDir()
			path := filepath.Join(dir, "settings.json")
			if err := os.WriteFile(path, []byte(old), 0o644); err != nil {
				t.Fatal(err)
			}
			cmd := exec.Command(os.Args[0], "-test.run=^$")
			cmd.Env = append(os.Environ(), childPathEnv+"="+path, childRulesEnv+"=mcp__new", childKillEnv+"="+c.point)
			err := cmd.Run()
			var exit *exec.ExitError
			if !errors.As(err, &exit) {
				t.Fatalf("writer = %v, want it killed", err)
			}
			if ws, ok := exit.Sys().(syscall.WaitStatus); !ok || ws.Signal() != syscall.SIGKILL {
				t.Fatalf("writer ended with %v, want SIGKILL", exit)
			}

			allow, top := readAllow(t, path)
			if string(top["keep"]) != "[1, 2]" && strings.Join(strings.Fields(string(top["keep"])), "") != "[1,2]" {
				t.Errorf("keep = %s", top["keep"])
			}
			wantAllow := []string{"mcp__old"}
			if c.wantNew {
				wantAllow = append(wantAllow, "mcp__new")
			}
			if !slices.Equal(allow, wantAllow) {
				t.Errorf("allow = %v, want %v", allow, wantAllow)
			}

			// The locks died with the writer and its leftover temporary file
			// is reused: the next write succeeds and leaves nothing behind.
			if err := AddAllowRule(path, "mcp__after"); err != nil {
				t.Fatal(err)
			}
			allow, _ = readAllow(t, path)
			if !slices.Contains(allow, "mcp__after") || !slices.Contains(allow, "mcp__old") {
				t.Errorf("after recovery allow = %v", allow)
			}
			assertNoTempFile(t, dir)
		})
	}
}

// Proves PERM-1.
func TestPERM1_MalformedSettingsAreNotOverwritten(t *testing.T) {
	path := filepath.Join(t.TempDir(), "settings.json")
	const halfEdited = `{"permissions": {"allow": ["mcp__a"],`
	if err := os.WriteFile(path, []byte(halfEdited), 0o644); err != nil {
		t.Fatal(err)
	}
	err := AddAllowRule(path, "mcp__b")
	if err == nil || !strings.Contains(err.Error(), "not saved") || !strings.Contains(err.Error(), "line 1") {
		t.Fatalf("AddAllowRule = %v, want a clear error", err)
	}
	if data, _ := os.ReadFile(path); string(data) != halfEdited {
		t.Errorf("the file was changed to %q", data)
	}
}

// Proves PERM-1.
func TestPERM1_AllowAlwaysWritesThroughASymlink(t *testing.T) {
	dir := t.TempDir()
	real := filepath.Join(dir, "dotfiles", "settings.json")
	if err := os.MkdirAll(filepath.Dir(real), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(real, []byte(`{"a": 1}`), 0o644); err != nil {
		t.Fatal(err)
	}
	link := filepath.Join(dir, "settings.json")
	if err := os.Symlink(real, link); err != nil {
		t.Fatal(err)
	}
	if err := AddAllowRule(link, "mcp__x"); err != nil {
		t.Fatal(err)
	}
	if info, err := os.Lstat(link); err != nil || info.Mode()&os.ModeSymlink == 0 {
		t.Fatalf("the symbolic link was replaced: %v %v", info, err)
	}
	if allow, _ := readAllow(t, real); !slices.Equal(allow, []string{"mcp__x"}) {
		t.Errorf("target allow = %v", allow)
	}
}

func assertNoTempFile(t *testing.T, dir string) {
	t.Helper()
	entries, err := os.ReadDir(dir)
	if err != nil {
		t.Fatal(err)
	}
	for _, e := range entries {
		if strings.HasSuffix(e.Name(), ".tmp") {
			t.Errorf("temporary file %s left behind", e.Name())
		}
	}
}
