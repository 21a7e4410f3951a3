package pool

import (
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"runtime"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/mcpexec/mcpexec/elicit"
)

// These tests run server-everything's simulate-research-query, a tool that
// declares execution.taskSupport "required": a plain tools/call of it fails.

const researchTool = "mcp__everything__simulate-research-query"

// everythingWithTasks starts a manager with the real server-everything,
// whose questions go to elicitor; the manager is closed, and its
// goroutines checked gone, when the test ends.
func everythingWithTasks(t *testing.T, elicitor elicit.Elicitor) *Manager {
	t.Helper()
	dir, err := os.Getwd()
	if err != nil {
		t.Fatal(err)
	}
	bin := filepath.Join(filepath.Dir(dir), ".tools", "npm", "node_modules", ".bin", "mcp-server-everything")
	if _, err := os.Stat(bin); err != nil {
		t.Fatalf("%s is missing: run `make deps` to install the npm MCP test servers", bin)
	}
	return managerOfTaskTool(t, ServerConfig{Name: "everything", Command: bin, Args: []string{"stdio"}}, elicitor, researchTool)
}

// managerOfTaskTool starts a manager of server, whose tool must run as a
// task; the manager is closed, and its goroutines checked gone, when the
// test ends.
func managerOfTaskTool(t *testing.T, server ServerConfig, elicitor elicit.Elicitor, tool string) *Manager {
	t.Helper()
	baseline := runtime.NumGoroutine()
	m, err := New(context.Background(), []ServerConfig{server}, Options{Elicitor: elicitor, StopGrace: 500 * time.Millisecond})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		if err := m.Close(); err != nil {
			t.Errorf("Close: %v", err)
		}
		deadline := time.Now().Add(30 * time.Second)
		for runtime.NumGoroutine() > baseline {
			if time.Now().After(deadline) {
				t.Errorf("goroutines: %d, baseline %d", runtime.NumGoroutine(), baseline)
				return
			}
			time.Sleep(10 * time.Millisecond)
		}
	})
	<-m.Ready()
	got, ok := m.Snapshot().Lookup(tool)
	if !ok {
		t.Fatalf("%s not listed; status %+v", tool, m.Status())
	}
	if got.TaskSupport != TaskRequired {
		t.Fatalf("TaskSupport = %q, want %q", got.TaskSupport, TaskRequired)
	}
	return m
}

// statusLog records the task statuses a call reports.
type statusLog struct {
	mu   sync.Mutex
	seen []TaskStatus
	hit  chan TaskStatus
}

func newStatusLog() *statusLog { return &statusLog{hit: make(chan TaskStatus, 64)} }

func (l *statusLog) record(s TaskStatus) {
	l.mu.Lock()
	l.seen = append(l.seen, s)
	l.mu.Unlock()
	select {
	case l.hit <- s:
	default:
	}
}

func (l *statusLog) statuses() []string {
	l.mu.Lock()
	defer l.mu.Unlock()
	var out []string
	for _, s := range l.seen {
		if len(out) == 0 || out[len(out)-1] != s.Status {
			out = append(out, s.Status)
		}
	}
	return out
}

func TestTaskToolRunsAsATaskToItsResult(t *testing.T) {
	m := everythingWithTasks(t, elicit.Unattended("no person in this test"))
	log := newStatusLog()
	var progress []string
	var mu sync.Mutex
	ctx := WithTaskStatus(context.Background(), log.record)
	ctx = WithProgress(ctx, func(p Progress) {
		mu.Lock()
		progress = append(progress, p.Message)
		mu.Unlock()
	})
	res, err := m.Call(ctx, researchTool, json.RawMessage(`{"topic":"tide pools"}`))
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(fmtValue(res), "# Research Report: tide pools") {
		t.Errorf("result text = %q", fmtValue(res))
	}
	if got := log.statuses(); got[0] != taskWorking || got[len(got)-1] != taskCompleted {
		t.Errorf("statuses = %v, want working ... completed", got)
	}
	mu.Lock()
	defer mu.Unlock()
	if !slices.Contains(progress, "Gathering sources...") {
		t.Errorf("progress messages = %q, want the server's status messages", progress)
	}
}

func TestTaskToolInputRequiredAsksThroughElicitation(t *testing.T) {
	var asked []elicit.Request
	var mu sync.Mutex
	m := everythingWithTasks(t, elicit.Func(func(_ context.Context, r elicit.Request) (elicit.Response, error) {
		mu.Lock()
		asked = append(asked, r)
		mu.Unlock()
		return elicit.Response{Action: elicit.Accept, Content: map[string]any{"interpretation": "programming"}}, nil
	}))
	log := newStatusLog()
	res, err := m.Call(WithTaskStatus(context.Background(), log.record), researchTool,
		json.RawMessage(`{"topic":"python","ambiguous":true}`))
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(fmtValue(res), "# Research Report: python (programming)") {
		t.Errorf("result text = %q", fmtValue(res))
	}
	mu.Lock()
	defer mu.Unlock()
	if len(asked) != 1 || !slices.Equal(asked[0].Tools, []string{researchTool}) || !strings.Contains(string(asked[0].Schema), "interpretation") {
		t.Fatalf("questions = %+v, want the server's one clarification about %s", asked, researchTool)
	}
	if !slices.Contains(log.statuses(), taskInputRequired) {
		t.Errorf("statuses = %v, want input_required among them", log.statuses())
	}
	// tasks/result, under way since the question, answers before any
	// tasks/get sees the task completed: the call still ends it.
	if got := log.statuses(); got[len(got)-1] != taskCompleted {
		t.Errorf("statuses = %v, want the last to be completed once the call returned", got)
	}
}

func TestAbortedTaskCallCancelsItsTaskOnTheServer(t *testing.T) {
	m := everythingWithTasks(t, elicit.Unattended("no person in this test"))
	log := newStatusLog()
	ctx, cancel := context.WithCancel(WithTaskStatus(context.Background(), log.record))
	done := make(chan error, 1)
	go func() {
		_, err := m.Call(ctx, researchTool, json.RawMessage(`{"topic":"slow things"}`))
		done <- err
	}()
	first := <-log.hit // the task exists on the server
	cancel()
	err := <-done
	var ce *CallError
	if !errorsAs(err, &ce) || ce.Kind != KindCancelled {
		t.Fatalf("err = %v, want a cancelled call", err)
	}
	live := m.lookup("everything").live.Load()
	got, err := mcp.CallCustomMethod[*taskParams, *taskState](context.Background(), live.session, methodTaskGet, &taskParams{TaskID: first.Task})
	if err != nil {
		t.Fatal(err)
	}
	if got.Status != taskCancelled {
		t.Errorf("the task is %q on the server after its call was aborted, want cancelled", got.Status)
	}
	if seen := log.statuses(); seen[len(seen)-1] != taskCancelled {
		t.Errorf("statuses = %v, want the last to be cancelled once the aborted call returned", seen)
	}
}

func errorsAs(err error, target **CallError) bool {
	ce, ok := err.(*CallError)
	if ok {
		*target = ce
	}
	return ok
}

func fmtValue(r Result) string {
	s, _ := r.Value.(string)
	return s
}
