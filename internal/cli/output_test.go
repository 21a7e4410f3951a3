package cli

import (
	"bytes"
	"encoding/json"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"

	"github.com/mcpexec/mcpexec"
	"github.com/mcpexec/mcpexec/exectool"
	"github.com/mcpexec/mcpexec/sandbox"
)

func TestWriteExecJSONIsOneLineWithEveryField(t *testing.T) {
	var buf bytes.Buffer
	err := writeExecJSON(&buf, mcpexec.ExecResult{
		OK: true, Text: "line 1\nline 2", Summary: "1 tool call", Calls: []string{"mcp__a__b"},
		Images: []sandbox.Image{{MIMEType: "image/png", Data: []byte{1}}},
		Audit:  exectool.Audit{Calls: []exectool.CallRecord{{Tool: "mcp__a__b", Outcome: "ok", Duration: 1500 * time.Microsecond, Bytes: 12}}},
	})
	if err != nil {
		t.Fatal(err)
	}
	want := `{"ok":true,"text":"line 1\nline 2","images":1,"imageData":[{"mimeType":"image/png","data":"AQ=="}],"summary":"1 tool call","calls":["mcp__a__b"],` +
		`"audit":{"calls":[{"tool":"mcp__a__b","outcome":"ok","bytes":12,"durationMs":1.5}]}}` + "\n"
	if buf.String() != want {
		t.Errorf("got  %s\nwant %s", buf.String(), want)
	}
}

func TestReadScriptLimitsItsSize(t *testing.T) {
	big := strings.NewReader(strings.Repeat("x", maxScriptBytes+1))
	if _, err := readScript("-", big); err == nil || !strings.Contains(err.Error(), "standard input") {
		t.Errorf("oversized script: %v, want an error naming standard input", err)
	}
	code, err := readScript("-", strings.NewReader("return 1"))
	if err != nil || code != "return 1" {
		t.Errorf("readScript = %q, %v", code, err)
	}
	if _, err := readScript(filepath.Join(t.TempDir(), "missing.js"), nil); !errors.Is(err, os.ErrNotExist) {
		t.Errorf("missing file: %v, want not-exist", err)
	}
}

func TestTrimDeclaration(t *testing.T) {
	d := mcpexec.Declaration{
		Name:        "Exec",
		Description: strings.Repeat("word ", 30) + "\nsecond line",
		InputSchema: json.RawMessage(`{"type":"object","properties":{"code":{},"alpha":{}}}`),
	}
	got := trimDeclaration(d)
	if got.InputSchema != "{ alpha, code }" {
		t.Errorf("schema = %q, want the sorted property names", got.InputSchema)
	}
	if r := []rune(got.Description); len(r) != maxDescription+1 || !strings.HasSuffix(got.Description, "…") || strings.Contains(got.Description, "second") {
		t.Errorf("description = %q, want the first line cut to %d runes", got.Description, maxDescription)
	}
	out := declarationsJSON([]mcpexec.Declaration{d, readTool})
	if lines := strings.Split(out, "\n"); len(lines) != 4 || !strings.HasSuffix(lines[1], "},") {
		t.Errorf("declarationsJSON:\n%s\nwant one declaration per line", out)
	}
}

func TestWrapWords(t *testing.T) {
	got := wrapWords([]string{"aaaa", "bbbb", "cccc", "dddddddddddd"}, "  ", 14)
	want := "  aaaa, bbbb,\n  cccc,\n  dddddddddddd"
	if got != want {
		t.Errorf("wrapWords =\n%s\nwant\n%s", got, want)
	}
}

func TestWrapParagraph(t *testing.T) {
	got := wrapParagraph("one two three  four fivesixseven", 9)
	want := "one two\nthree\nfour\nfivesixseven"
	if got != want {
		t.Errorf("wrapParagraph = %q, want %q", got, want)
	}
}

func TestNamespaceCounts(t *testing.T) {
	if got := namespaceCounts(map[string]int{"text": 6, "srv": 1}); got != "srv: 1 tool · text: 6 tools" {
		t.Errorf("namespaceCounts = %q", got)
	}
}

func TestSetEnableExecKeepsTheOtherKeys(t *testing.T) {
	path := filepath.Join(t.TempDir(), "settings.json")
	if err := os.WriteFile(path, []byte(`{"permissions": {"allow": ["mcp__srv__delete"]}, "custom": [1, 2]}`), 0o600); err != nil {
		t.Fatal(err)
	}
	tr := &tour{settings: path}
	if err := tr.setEnableExec(false); err != nil {
		t.Fatal(err)
	}
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	var got map[string]any
	if err := json.Unmarshal(data, &got); err != nil {
		t.Fatal(err)
	}
	want := map[string]any{
		"enableExec":  false,
		"permissions": map[string]any{"allow": []any{"mcp__srv__delete"}},
		"custom":      []any{1.0, 2.0},
	}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("settings after the edit (-want +got):\n%s", diff)
	}
}

func TestRunRejectsUnknownCommandsAndPrintsHelp(t *testing.T) {
	var out, errOut bytes.Buffer
	c := console{prog: demoProgram, stdin: strings.NewReader(""), stdout: &out, stderr: &errOut}
	if code := run(t.Context(), []string{"bogus"}, c); code != exitUsage || !strings.Contains(errOut.String(), `unknown command "bogus"`) {
		t.Errorf("bogus: exit %d, stderr %q", code, errOut.String())
	}
	if code := run(t.Context(), []string{"help"}, c); code != exitOK || !strings.Contains(out.String(), "demo exec") {
		t.Errorf("help: exit %d, stdout %q", code, out.String())
	}
}
