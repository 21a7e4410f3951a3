package tests

import (
	"bytes"
	"context"
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"syscall"
	"testing"
)

// tsTasksReport is what tests/tsclient/tasks.mjs prints.
type tsTasksReport struct {
	Capabilities      map[string]any `json:"capabilities"`
	Execution         map[string]any `json:"execution"`
	CreatedAfterMs    int            `json:"createdAfterMs"`
	CreatedStatus     string         `json:"createdStatus"`
	Statuses          []string       `json:"statuses"`
	ResultText        string         `json:"resultText"`
	ResultIsError     bool           `json:"resultIsError"`
	Error             string         `json:"error"`
	Notified          []string       `json:"notified"`
	CancelledStatus   string         `json:"cancelledStatus"`
	WritesAtCancel    int            `json:"writesAtCancel"`
	WritesLater       int            `json:"writesLater"`
	StatusAfterCancel string         `json:"statusAfterCancel"`
}

// The TypeScript SDK's experimental tasks client runs Exec as a task
// against `mcpexec serve`: a six-second script is created as a task at
// once (working), polled to completed, and its result is the script's; a
// cancelled task stops its script, so its nested calls stop.
func TestTypeScriptSDKRunsExecAsATask(t *testing.T) {
	_, dirs := nodeTools(t, "ts-sdk")
	settings := writeFile(t, "settings.json", `{"permissions": {"allow": ["mcp__l"]}}`)
	mark := newRunMark(t)
	got := runTSTasksClient(t, mark, dirs[0], mcpexecBin, ledgerServersFile(t), settings)
	checkTSTasks(t, got)
	if !slices.Contains(got.Notified, "completed") {
		t.Errorf("notifications/tasks/status %v lack the completion", got.Notified)
	}
	checkNoSurvivors(t, mark)
}

// The TypeScript SDK's experimental tasks client runs Exec as a task
// against `mcpexec serve --http`, in a session of 2025-11-25: the same
// task as over stdio (created at once, polled to completed, cancel stops
// the script). An HTTP session gets no status notifications: its client
// polls.
func TestTypeScriptSDKRunsExecAsATaskOverHTTP(t *testing.T) {
	_, dirs := nodeTools(t, "ts-sdk")
	settings := writeFile(t, "settings.json", `{"permissions": {"allow": ["mcp__l"]}}`)
	mark := newRunMark(t)
	g := startHTTPGatewayArgs(t, mark, nil, []string{"serve", "--servers", ledgerServersFile(t), "--settings", settings})
	checkTSTasks(t, runTSTasksClient(t, mark, dirs[0], g.url))
	if err := g.cmd.Process.Signal(syscall.SIGTERM); err != nil {
		t.Fatal(err)
	}
	if err := waitExit(g.cmd); err != nil {
		t.Errorf("exit after SIGTERM: %v (stderr: %s)", err, g.stderr.String())
	}
	checkNoSurvivors(t, mark)
}

// runTSTasksClient runs tests/tsclient/tasks.mjs with args after the SDK's
// directory, and reads its report.
func runTSTasksClient(t *testing.T, mark, sdk string, args ...string) tsTasksReport {
	t.Helper()
	node, _ := nodeTools(t)
	root, err := moduleRoot()
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 3*runLimit)
	defer cancel()
	cmd := exec.CommandContext(ctx, node, append([]string{filepath.Join(root, "tests/tsclient/tasks.mjs"), sdk}, args...)...)
	cmd.Env = append(os.Environ(), mark)
	var stdout, stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	if err := cmd.Run(); err != nil {
		t.Fatalf("the TypeScript client failed: %v\nstdout: %s\nstderr: %s", err, stdout.String(), stderr.String())
	}
	var got tsTasksReport
	if err := json.Unmarshal(stdout.Bytes(), &got); err != nil {
		t.Fatalf("client report %q: %v (stderr: %s)", stdout.String(), err, stderr.String())
	}
	return got
}

// checkTSTasks judges what the client saw: the task offered, created at
// once and working, polled to completed with the script's result, and a
// cancelled task's script stopped.
func checkTSTasks(t *testing.T, got tsTasksReport) {
	t.Helper()
	if got.Capabilities == nil || got.Execution["taskSupport"] != "optional" {
		t.Errorf("tasks not offered: capabilities %v, Exec's execution %v", got.Capabilities, got.Execution)
	}
	// The script sleeps six seconds: a task made after its end would come
	// later than that.
	if got.CreatedStatus != "working" || got.CreatedAfterMs >= 6000 {
		t.Errorf("the task came after %d ms as %q, want at once and working", got.CreatedAfterMs, got.CreatedStatus)
	}
	if len(got.Statuses) < 2 || got.Statuses[0] != "working" || got.Statuses[len(got.Statuses)-1] != "completed" {
		t.Errorf("polled statuses %v, want working ... completed", got.Statuses)
	}
	if got.Error != "" || got.ResultIsError || got.ResultText != "slept" {
		t.Errorf("result %q (isError %v, error %q)", got.ResultText, got.ResultIsError, got.Error)
	}
	if got.CancelledStatus != "cancelled" || got.StatusAfterCancel != "cancelled" {
		t.Errorf("after tasks/cancel: %q, then %q", got.CancelledStatus, got.StatusAfterCancel)
	}
	if got.WritesAtCancel < 3 || got.WritesLater != got.WritesAtCancel {
		t.Errorf("writes: %d when cancelled, %d a second later: the script went on", got.WritesAtCancel, got.WritesLater)
	}
}
