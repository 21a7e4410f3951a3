package tests

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// runLimit bounds one demo run: far above what any run here takes, so only
// a hang reaches it.
const runLimit = 2 * time.Minute

// demoRun is the outcome of one demo invocation.
type demoRun struct {
	code           int
	stdout, stderr string
}

// runDemo runs the demo with args and stdin, waits for it, and checks that
// nothing it started is still running.
func runDemo(t *testing.T, stdin string, args ...string) demoRun {
	t.Helper()
	mark := newRunMark(t)
	ctx, cancel := context.WithTimeout(context.Background(), runLimit)
	defer cancel()
	cmd := exec.CommandContext(ctx, demoBin, args...)
	cmd.Env = append(os.Environ(), mark)
	cmd.Stdin = strings.NewReader(stdin)
	var stdout, stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	err := cmd.Run()
	var exitErr *exec.ExitError
	code := 0
	switch {
	case errors.As(err, &exitErr):
		code = exitErr.ExitCode()
	case err != nil:
		t.Fatalf("demo %q: %v", args, err)
	}
	checkNoSurvivors(t, mark)
	return demoRun{code: code, stdout: stdout.String(), stderr: stderr.String()}
}

// execResult is the JSON line of `demo exec --json`.
type execResult struct {
	OK        bool        `json:"ok"`
	Text      string      `json:"text"`
	Images    int         `json:"images"`
	ImageData []execImage `json:"imageData"`
	Summary   string      `json:"summary"`
	Calls     []string    `json:"calls"`
	Audit     execAudit   `json:"audit"`
	Stored    *execStored `json:"stored"`
}

// execStored is the whole return value in the --json output.
type execStored struct {
	URI      string          `json:"uri"`
	ID       string          `json:"id"`
	Chars    int             `json:"chars"`
	MIMEType string          `json:"mimeType"`
	Shape    string          `json:"shape"`
	Value    json.RawMessage `json:"value"`
}

// execAudit is the call audit of the --json output.
type execAudit struct {
	Calls []struct {
		Tool       string  `json:"tool"`
		Outcome    string  `json:"outcome"`
		DurationMs float64 `json:"durationMs"`
		Bytes      int     `json:"bytes"`
	} `json:"calls"`
	Omitted int `json:"omitted"`
	State   *struct {
		Stores      int `json:"stores"`
		StoredBytes int `json:"storedBytes"`
		Loads       int `json:"loads"`
		LoadedBytes int `json:"loadedBytes"`
	} `json:"state"`
	Result *struct {
		URI     string   `json:"uri"`
		Bytes   int      `json:"bytes"`
		Dropped []string `json:"dropped"`
	} `json:"result"`
}

// execImage is one image of the --json output, its data in base64.
type execImage struct {
	MIMEType string `json:"mimeType"`
	Data     []byte `json:"data"`
}

// execJSON runs `demo exec --json --script FILE` with the script written to
// a file (stdin stays free for permission answers) and decodes its one line.
func execJSON(t *testing.T, script, stdin string, flags ...string) (execResult, demoRun) {
	t.Helper()
	file := writeFile(t, "script.js", script)
	args := append([]string{"exec", "--json", "--script", file}, flags...)
	run := runDemo(t, stdin, args...)
	return decodeExecJSON(t, run), run
}

func decodeExecJSON(t *testing.T, run demoRun) execResult {
	t.Helper()
	res := parseExecJSON(t, run)
	wantCode := 0
	if !res.OK {
		wantCode = 1
	}
	if run.code != wantCode {
		t.Errorf("exit status %d with ok=%v, want %d (stderr: %s)", run.code, res.OK, wantCode, run.stderr)
	}
	return res
}

// parseExecJSON decodes the one line of `demo exec --json`.
func parseExecJSON(t *testing.T, run demoRun) execResult {
	t.Helper()
	if strings.Count(run.stdout, "\n") != 1 || !strings.HasSuffix(run.stdout, "\n") {
		t.Fatalf("--json printed %q, want exactly one line (stderr: %s)", run.stdout, run.stderr)
	}
	var res execResult
	dec := json.NewDecoder(strings.NewReader(run.stdout))
	dec.DisallowUnknownFields()
	if err := dec.Decode(&res); err != nil {
		t.Fatalf("--json output %q: %v", run.stdout, err)
	}
	if res.Calls == nil {
		t.Errorf("--json calls is null, want an array: %s", run.stdout)
	}
	return res
}

// writeFile writes a file into the test's temporary directory.
func writeFile(t testing.TB, name, content string) string {
	t.Helper()
	path := filepath.Join(t.TempDir(), name)
	if err := os.WriteFile(path, []byte(content), 0o600); err != nil {
		t.Fatal(err)
	}
	return path
}

// serversFile writes an mcpServers file running the named built-in servers.
func serversFile(t *testing.T, names ...string) string {
	t.Helper()
	servers := map[string]any{}
	for _, name := range names {
		servers[name] = map[string]any{"command": demoBin, "args": []string{"serve-mcp", name}}
	}
	data, err := json.Marshal(map[string]any{"mcpServers": servers})
	if err != nil {
		t.Fatal(err)
	}
	return writeFile(t, "servers.json", string(data))
}
