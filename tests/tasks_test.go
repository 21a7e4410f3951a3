package tests

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"syscall"
	"testing"

	"github.com/mcpexec/mcpexec/exectool"
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
// the script). Its status notifications are judged by
// TestTypeScriptSDKHearsTaskStatusOverHTTP.
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
	var got tsTasksReport
	runTSScript(t, mark, "tests/tsclient/tasks.mjs", &got, append([]string{sdk}, args...)...)
	return got
}

// runTSScript runs the Node script at path (from the module's root) with
// args, and reads the JSON report it prints into report.
func runTSScript(t *testing.T, mark, path string, report any, args ...string) {
	t.Helper()
	node, _ := nodeTools(t)
	root, err := moduleRoot()
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 3*runLimit)
	defer cancel()
	cmd := exec.CommandContext(ctx, node, append([]string{filepath.Join(root, path)}, args...)...)
	cmd.Env = append(os.Environ(), mark)
	var stdout, stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	if err := cmd.Run(); err != nil {
		t.Fatalf("the TypeScript client failed: %v\nstdout: %s\nstderr: %s", err, stdout.String(), stderr.String())
	}
	if err := json.Unmarshal(stdout.Bytes(), report); err != nil {
		t.Fatalf("client report %q: %v (stderr: %s)", stdout.String(), err, stderr.String())
	}
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

// tsTaskStatusReport is what tests/tsclient/taskstatus.mjs prints.
type tsTaskStatusReport struct {
	Approved  tsTaskRun        `json:"approved"`
	Thrown    tsTaskRun        `json:"thrown"`
	Asked     []tsQuestion     `json:"asked"`
	OwnToken  string           `json:"ownToken"`
	PlainText string           `json:"plainText"`
	Notified  []tsTaskStatus   `json:"notified"`
	Progress  []map[string]any `json:"progress"`
}

// tsTaskRun is one task as the client's stream showed it.
type tsTaskRun struct {
	TaskID        string   `json:"taskId"`
	Polled        []string `json:"polled"`
	ResultText    string   `json:"resultText"`
	ResultIsError bool     `json:"resultIsError"`
	Error         string   `json:"error"`
}

// tsQuestion is an elicitation the client answered, and the task it named.
type tsQuestion struct {
	TaskID  string `json:"taskId"`
	Message string `json:"message"`
}

// tsTaskStatus is a notifications/tasks/status's params.
type tsTaskStatus struct {
	TaskID        string `json:"taskId"`
	Status        string `json:"status"`
	StatusMessage string `json:"statusMessage"`
}

// In an HTTP session of 2025-11-25, the TypeScript SDK's client hears
// notifications/tasks/status on its event stream, as over stdio: a task
// that asks before a call is working, then input_required, then (answered
// through tasks/result) completed; a script that throws ends failed; each
// names its task and carries the live summary. Progress notifications
// under a token the client chose, even one shaped like the gateway's own,
// reach it unchanged, and no other progress notification does.
func TestTypeScriptSDKHearsTaskStatusOverHTTP(t *testing.T) {
	_, dirs := nodeTools(t, "ts-sdk")
	settings := writeFile(t, "settings.json", `{"permissions": {"allow": ["mcp__l__ran", "mcp__l__read"], "ask": ["mcp__l__write"]}}`)
	mark := newRunMark(t)
	g := startHTTPGatewayArgs(t, mark, nil, []string{"serve", "--servers", ledgerServersFile(t), "--settings", settings})
	got := runTSTaskStatusClient(t, mark, dirs[0], g.url)

	var questions []string
	for _, q := range got.Asked {
		if q.TaskID == got.Approved.TaskID {
			questions = append(questions, q.Message)
		}
	}
	if a := got.Approved; a.Error != "" || a.ResultIsError || a.ResultText != "written" || len(questions) != 1 || !strings.Contains(questions[0], "approved") {
		t.Errorf("the task that asked: %+v, its questions %q; want one question and the result", a, questions)
	}
	approved := statusesOf(got.Notified, got.Approved.TaskID)
	checkStatusOrder(t, approved, "working", "input_required", "completed")
	// Working, it may not have called anything yet: any live summary.
	checkStatusMessage(t, approved, "working", "")
	checkStatusMessage(t, approved, "input_required", "mcp__l__read")
	checkStatusMessage(t, approved, "completed", "mcp__l__write")
	if th := got.Thrown; !th.ResultIsError || !strings.Contains(th.ResultText, "broken on purpose") {
		t.Errorf("the task that threw: %+v, want its isError result", th)
	}
	thrown := statusesOf(got.Notified, got.Thrown.TaskID)
	checkStatusOrder(t, thrown, "working", "failed")
	checkStatusMessage(t, thrown, "failed", "mcp__l__read")
	if n := len(approved) + len(thrown); n != len(got.Notified) {
		t.Errorf("%d of %d notifications name neither task: %+v", len(got.Notified)-n, len(got.Notified), got.Notified)
	}

	if got.PlainText != "plain" || len(got.Progress) == 0 {
		t.Fatalf("the plain Exec: %q with progress %v", got.PlainText, got.Progress)
	}
	for _, p := range got.Progress {
		if p["progressToken"] != got.OwnToken || !strings.Contains(fmt.Sprint(p["message"]), "mcp__l__ran") || p["_meta"] != nil {
			t.Errorf("progress %v, want the client's token %q and the live summary, nothing more", p, got.OwnToken)
		}
	}
	if err := g.cmd.Process.Signal(syscall.SIGTERM); err != nil {
		t.Fatal(err)
	}
	if err := waitExit(g.cmd); err != nil {
		t.Errorf("exit after SIGTERM: %v (stderr: %s)", err, g.stderr.String())
	}
	checkNoSurvivors(t, mark)
}

// runTSTaskStatusClient runs tests/tsclient/taskstatus.mjs against url.
func runTSTaskStatusClient(t *testing.T, mark, sdk, url string) tsTaskStatusReport {
	t.Helper()
	var got tsTaskStatusReport
	runTSScript(t, mark, "tests/tsclient/taskstatus.mjs", &got, sdk, url)
	return got
}

// statusesOf are the notifications of task id, in order.
func statusesOf(notified []tsTaskStatus, id string) []tsTaskStatus {
	var out []tsTaskStatus
	for _, n := range notified {
		if n.TaskID == id && id != "" {
			out = append(out, n)
		}
	}
	return out
}

// checkStatusOrder checks that want come in that order among got's
// statuses, and that the last one ends them.
func checkStatusOrder(t *testing.T, got []tsTaskStatus, want ...string) {
	t.Helper()
	var statuses []string
	for _, n := range got {
		statuses = append(statuses, n.Status)
	}
	next := 0
	for _, s := range statuses {
		if next < len(want) && s == want[next] {
			next++
		}
	}
	// With want not empty, next < len(want) holds for no statuses at all.
	if next < len(want) || statuses[len(statuses)-1] != want[len(want)-1] {
		t.Errorf("notified statuses %q, want %q in that order, the last one last", statuses, want)
	}
}

// checkStatusMessage checks that the last notification of status carries
// a live summary naming tool ("": any).
func checkStatusMessage(t *testing.T, got []tsTaskStatus, status, tool string) {
	t.Helper()
	for _, n := range slices.Backward(got) {
		if n.Status == status {
			if !strings.Contains(n.StatusMessage, "tool call") || !strings.Contains(n.StatusMessage, tool) {
				t.Errorf("the %s notification's status message %q, want the live summary naming %s", status, n.StatusMessage, tool)
			}
			return
		}
	}
}

// tsTaskChangesReport is what tests/tsclient/taskchanges.mjs prints.
type tsTaskChangesReport struct {
	Created       tsTaskStatus   `json:"created"`
	Notified      []tsTaskStatus `json:"notified"`
	Asked         []string       `json:"asked"`
	ResultText    string         `json:"resultText"`
	ResultIsError bool           `json:"resultIsError"`
	Error         string         `json:"error"`
}

// Over stdio, the gateway pushes notifications/tasks/status for every
// change of a task-augmented Exec as the run reports it: its question
// (input_required), its answer, each of three nested calls made within a
// millisecond of each other (a poll every half second would tell at most
// the last) and its end, in order.
func TestTypeScriptSDKIsToldEveryChangeOfATask(t *testing.T) {
	_, dirs := nodeTools(t, "ts-sdk")
	settings := writeFile(t, "settings.json", `{"permissions": {"ask": ["mcp__l__read"], "allow": ["mcp__l__write", "mcp__l__ran"]}}`)
	mark := newRunMark(t)
	code := `await tools.mcp__l__read({key: "x"});
		for (const key of ["a", "b", "c"]) await tools.mcp__l__write({key});
		return "written";`
	var got tsTaskChangesReport
	runTSScript(t, mark, "tests/tsclient/taskchanges.mjs", &got, dirs[0], mcpexecBin, ledgerServersFile(t), settings, code)
	if got.Error != "" || got.ResultIsError || got.ResultText != "written" {
		t.Errorf("result %q (isError %v, error %q)", got.ResultText, got.ResultIsError, got.Error)
	}
	if len(got.Asked) != 1 || !strings.Contains(got.Asked[0], "mcp__l__read") {
		t.Errorf("questions asked: %q, want the read's", got.Asked)
	}
	// The task as created, then each notification. The run may have parked
	// before the task was created; until it parks it is working.
	seen := append([]tsTaskStatus{got.Created}, statusesOf(got.Notified, got.Created.TaskID)...)
	first := slices.IndexFunc(seen, func(s tsTaskStatus) bool { return s.Status == "input_required" })
	if first < 0 {
		t.Fatalf("the task never told input_required: %+v", seen)
	}
	for _, s := range seen[:first] {
		if s.Status != "working" {
			t.Errorf("before the question: %+v, want working", s)
		}
	}
	calls := []string{"mcp__l__read", "mcp__l__write", "mcp__l__write", "mcp__l__write"}
	message := func(n int) string { return exectool.OneLine(exectool.Summary(calls[:n], false)) }
	want := []tsTaskStatus{
		{Status: "input_required", StatusMessage: message(1)},
		{Status: "working", StatusMessage: message(1)},
		{Status: "working", StatusMessage: message(2)},
		{Status: "working", StatusMessage: message(3)},
		{Status: "working", StatusMessage: message(4)},
		{Status: "completed", StatusMessage: message(4)},
	}
	told := seen[first:]
	for i := range told {
		told[i].TaskID = ""
	}
	if !slices.Equal(told, want) {
		t.Errorf("the task told, from its question on:\n%+v\nwant\n%+v", told, want)
	}
	checkNoSurvivors(t, mark)
}
