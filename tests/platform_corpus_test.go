package tests

import (
	"bytes"
	"context"
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"sort"
	"testing"
)

// TestPlatformCorpusMatchesNode runs scripts that use what the sandbox's
// JavaScript platform adds to goja (the newer built-ins, Unicode property
// escapes and the d and v RegExp flags, the encodings and structuredClone,
// Intl) through the built mcpexec binary, `mcpexec exec`, and compares each
// result with Node 22's, recorded in testdata/platform/expected.json by
// testdata/platform/gen_expected.js.
func TestPlatformCorpusMatchesNode(t *testing.T) {
	data, err := os.ReadFile("testdata/platform/expected.json")
	if err != nil {
		t.Fatal(err)
	}
	var recorded struct {
		Expected map[string]referenceResult `json:"expected"`
	}
	if err := json.Unmarshal(data, &recorded); err != nil {
		t.Fatal(err)
	}
	scripts := make([]string, 0, len(recorded.Expected))
	for name := range recorded.Expected {
		scripts = append(scripts, name)
	}
	sort.Strings(scripts)
	if len(scripts) == 0 {
		t.Fatal("no scripts recorded")
	}
	servers := serversFile(t)
	for _, name := range scripts {
		want := recorded.Expected[name]
		t.Run(name, func(t *testing.T) {
			mark := newRunMark(t)
			ctx, cancel := context.WithTimeout(context.Background(), runLimit)
			defer cancel()
			cmd := exec.CommandContext(ctx, mcpexecBin, "exec", "--json", "--servers", servers, "--script", filepath.Join("testdata/platform", name))
			cmd.Env = append(os.Environ(), mark)
			var stdout, stderr bytes.Buffer
			cmd.Stdout, cmd.Stderr = &stdout, &stderr
			_ = cmd.Run() // a failed script exits 1; its result is still the line
			checkNoSurvivors(t, mark)
			var got referenceResult
			if err := json.Unmarshal(stdout.Bytes(), &got); err != nil {
				t.Fatalf("mcpexec exec printed %q: %v (stderr: %s)", stdout.String(), err, stderr.String())
			}
			if got != want {
				t.Errorf("differs from Node\nsandbox: ok=%v %s\nnode:    ok=%v %s", got.OK, got.Text, want.OK, want.Text)
			}
		})
	}
}
