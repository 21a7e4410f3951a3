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
// Markdown tables, error reporting, modern syntax, error positions,
// conversion and JSON errors) through the built binary, and checks each
// result against what Node (the pinned Node 22 `make deps` installs)
// returns for the same JavaScript: the script with its types stripped,
// calling the same MCP servers. A script that fails must fail in both, with the sandbox's
// text starting with Node's (the sandbox adds where the error arose).
//
// A plain JavaScript script (.js) runs in Node as written, and in the
// sandbox twice: as written, which is how the sandbox runs a script goja
// parses, and through the TypeScript transform (forced by a type alias
// appended to it). Both must match Node: skipping the transform changes
// nothing a script can see.
func TestCorpusMatchesNode(t *testing.T) {
	node, _ := nodeTools(t)
	var scripts []string
	for _, pattern := range []string{"testdata/corpus/*.ts", "testdata/corpus/*.js"} {
		found, err := filepath.Glob(pattern)
		if err != nil {
			t.Fatal(err)
		}
		scripts = append(scripts, found...)
	}
	if len(scripts) == 0 {
		t.Fatal("no corpus scripts")
	}
	for _, path := range scripts {
		if filepath.Base(path) == "node_harness.js" {
			continue
		}
		name := filepath.Base(path)
		t.Run(name, func(t *testing.T) {
			code, err := os.ReadFile(path)
			if err != nil {
				t.Fatal(err)
			}
			plainJS := strings.HasSuffix(path, ".js")
			want := nodeReference(t, node, string(code), plainJS)
			variants := map[string]string{"as written": string(code)}
			if plainJS {
				variants["transformed"] = string(code) + "\ntype Transformed = 0;\n"
			}
			for variant, script := range variants {
				got, _ := execJSON(t, script, "")
				if got.OK != want.OK {
					t.Fatalf("%s: sandbox ok=%v, Node ok=%v\nsandbox: %s\nnode:    %s", variant, got.OK, want.OK, got.Text, want.Text)
				}
				if want.OK && got.Text != want.Text {
					t.Errorf("%s: result differs from Node's\nsandbox: %s\nnode:    %s", variant, got.Text, want.Text)
				}
				if !want.OK && !strings.HasPrefix(got.Text, want.Text) {
					t.Errorf("%s: failure differs from Node's\nsandbox: %s\nnode:    %s", variant, got.Text, want.Text)
				}
			}
		})
	}
}

// referenceResult is the node harness's one line.
type referenceResult struct {
	OK   bool   `json:"ok"`
	Text string `json:"text"`
}

// nodeReference runs the script under the node harness, as the body of an
// async function whose first line is the script's first line in stacks.
// TypeScript has its types stripped by esbuild first (nothing else: Node
// runs the syntax as it is); plain JavaScript runs as written.
func nodeReference(t *testing.T, node, code string, plainJS bool) referenceResult {
	t.Helper()
	wrapped := "(async function (tools, console) {\n" + code + "\n})"
	if !plainJS {
		out := api.Transform(wrapped, api.TransformOptions{Loader: api.LoaderTS, Target: api.ESNext})
		if len(out.Errors) > 0 {
			t.Fatalf("esbuild could not strip the types: %s", out.Errors[0].Text)
		}
		wrapped = string(out.Code)
	}
	script := writeFile(t, "reference.js", wrapped)
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
