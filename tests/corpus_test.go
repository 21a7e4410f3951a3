package tests

import (
	"context"
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/evanw/esbuild/pkg/api"
)

// TestCorpusMatchesNode runs scripts written the way models write them
// (TypeScript annotations, interfaces, generics, enums, as const, async
// iteration, timers for backoff, URL building, base64, retry loops,
// Markdown tables, error reporting) through the built binary, and checks
// each result against what Node returns for the same JavaScript: the script
// with its types stripped, calling the same MCP servers. A script that
// fails must fail in both, with the sandbox's text starting with Node's
// (the sandbox adds where the error arose).
func TestCorpusMatchesNode(t *testing.T) {
	node, err := exec.LookPath("node")
	if err != nil {
		t.Fatalf("Node is needed as the reference for the corpus: %v", err)
	}
	scripts, err := filepath.Glob("testdata/corpus/*.ts")
	if err != nil || len(scripts) == 0 {
		t.Fatalf("no corpus scripts: %v", err)
	}
	for _, path := range scripts {
		t.Run(strings.TrimSuffix(filepath.Base(path), ".ts"), func(t *testing.T) {
			code, err := os.ReadFile(path)
			if err != nil {
				t.Fatal(err)
			}
			want := nodeReference(t, node, string(code))
			got, _ := execJSON(t, string(code), "")
			if got.OK != want.OK {
				t.Fatalf("sandbox ok=%v, Node ok=%v\nsandbox: %s\nnode:    %s", got.OK, want.OK, got.Text, want.Text)
			}
			if want.OK && got.Text != want.Text {
				t.Errorf("result differs from Node's\nsandbox: %s\nnode:    %s", got.Text, want.Text)
			}
			if !want.OK && !strings.HasPrefix(got.Text, want.Text) {
				t.Errorf("failure differs from Node's\nsandbox: %s\nnode:    %s", got.Text, want.Text)
			}
		})
	}
}

// referenceResult is the node harness's one line.
type referenceResult struct {
	OK   bool   `json:"ok"`
	Text string `json:"text"`
}

// nodeReference strips the script's types with esbuild (nothing else: Node
// runs the syntax as it is) and runs it under the node harness.
func nodeReference(t *testing.T, node, code string) referenceResult {
	t.Helper()
	out := api.Transform("(async function (tools, console) {\n"+code+"\n})", api.TransformOptions{
		Loader: api.LoaderTS,
		Target: api.ESNext,
	})
	if len(out.Errors) > 0 {
		t.Fatalf("esbuild could not strip the types: %s", out.Errors[0].Text)
	}
	script := writeFile(t, "reference.js", string(out.Code))
	harness, err := filepath.Abs("testdata/corpus/node_harness.js")
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	mark := newRunMark(t)
	cmd := exec.CommandContext(ctx, node, harness, demoBin, script)
	cmd.Env = append(os.Environ(), mark)
	var stderr strings.Builder
	cmd.Stderr = &stderr
	stdout, err := cmd.Output()
	checkNoSurvivors(t, mark)
	if err != nil {
		t.Fatalf("node harness: %v\n%s", err, stderr.String())
	}
	var res referenceResult
	if err := json.Unmarshal(stdout, &res); err != nil {
		t.Fatalf("node harness printed %q: %v", stdout, err)
	}
	return res
}
