package tests

import (
	"context"
	"encoding/json"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/rs/zerolog"

	"github.com/mcpexec/mcpexec"
	"github.com/mcpexec/mcpexec/elicit"
	"github.com/mcpexec/mcpexec/exectool"
	"github.com/mcpexec/mcpexec/pool"
)

// A library System whose pool server is `mcpexec serve --http`, which
// speaks MCP 2026-07-28 and declares the tasks extension: the upstream's
// Exec becomes a task after about a second for a client that declared the
// extension, and a script of the upstream that needs an approval parks the
// task in input_required. Its Exec is the outer script's
// tools.mcp__up__Exec.

// upstreamOf starts `mcpexec serve --http` over its own ledger, with
// settings, and returns a System whose pool has it as server "up".
func upstreamOf(t *testing.T, mark, settings string, opts mcpexec.Options) *mcpexec.System {
	t.Helper()
	g := startHTTPGatewayArgs(t, mark, nil, []string{"serve", "--servers", ledgerServersFile(t), "--settings", writeFile(t, "settings.json", settings)})
	opts.Servers = []pool.ServerConfig{{Name: "up", URL: g.url}}
	opts.Prompter = &questions{}
	opts.Workers = mcpexecWorkers()
	ctx := context.Background()
	sys, err := mcpexec.Start(ctx, opts)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = sys.Close() })
	ctx, cancel := context.WithTimeout(ctx, 30*time.Second)
	defer cancel()
	if err := sys.WaitReady(ctx); err != nil {
		t.Fatal(err)
	}
	return sys
}

// upstreamExec is an outer script that returns what the upstream's Exec
// of code returns.
func upstreamExec(code string) json.RawMessage {
	inner, _ := json.Marshal(code)
	args, _ := json.Marshal(map[string]string{"code": "return await tools.mcp__up__Exec({code: " + string(inner) + "});"})
	return args
}

// approvals allows every call it is asked about once, and records the
// questions.
type approvals struct {
	mu    sync.Mutex
	asked []elicit.Request
}

func (a *approvals) Elicit(_ context.Context, r elicit.Request) (elicit.Response, error) {
	a.mu.Lock()
	defer a.mu.Unlock()
	a.asked = append(a.asked, r)
	return elicit.Response{Action: elicit.Accept, Content: map[string]any{"answer": "allow once"}}, nil
}

func (a *approvals) all() []elicit.Request {
	a.mu.Lock()
	defer a.mu.Unlock()
	return append([]elicit.Request{}, a.asked...)
}

// bounded is a context that ends a run the test gave up on.
func bounded(t *testing.T) context.Context {
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	t.Cleanup(cancel)
	return ctx
}

// summaries records a run's live summaries.
type summaries struct {
	mu   sync.Mutex
	seen []string
	// shown is told (once) when a summary holds want.
	want  string
	shown chan struct{}
}

func (s *summaries) add(summary string) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.seen = append(s.seen, summary)
	if s.want != "" && strings.Contains(summary, s.want) && s.shown != nil {
		close(s.shown)
		s.shown = nil
	}
}

func (s *summaries) all() []string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return append([]string{}, s.seen...)
}

// taskLine is the live summary's line for the upstream's Exec running as a
// task whose own run made calls.
func taskLine(calls ...string) string {
	return "mcp__up__Exec: " + exectool.OneLine(exectool.Summary(calls, false))
}

// A long script of the upstream runs as a task of the extension: its
// result arrives through the task, the outer run's live summary shows the
// task's status line while it runs and drops it at the end.
func TestA2026UpstreamsLongExecArrivesThroughItsTask(t *testing.T) {
	mark := newRunMark(t)
	sys := upstreamOf(t, mark, `{"permissions": {"allow": ["mcp__l"]}}`, mcpexec.Options{})
	seen := &summaries{}
	res := sys.Exec(bounded(t), upstreamExec(`await tools.mcp__l__write({key: "a"});
		await new Promise(r => setTimeout(r, 2500)); return "slept";`), seen.add)
	if !res.OK || res.Text != "slept" {
		t.Fatalf("result %q (ok %v)", res.Text, res.OK)
	}
	all := seen.all()
	want := "1 tool call\nmcp__up__Exec\n" + taskLine("mcp__l__write")
	found := false
	for _, s := range all {
		found = found || s == want
	}
	if !found {
		t.Errorf("live summaries %q lack the task's status line:\n%s", all, want)
	}
	if last := all[len(all)-1]; strings.Contains(last, "mcp__up__Exec:") {
		t.Errorf("the last live summary %q still shows the task", last)
	}
}

// An upstream script that needs an approval after its Exec became a task
// parks the task in input_required: the approval question reaches the
// outer System's Elicitor, and the answer, given by tasks/update, lets the
// task complete with the approved call's result.
func TestA2026UpstreamsTaskQuestionIsAnsweredThroughTheElicitor(t *testing.T) {
	mark := newRunMark(t)
	asked := &approvals{}
	sys := upstreamOf(t, mark, `{"permissions": {"allow": ["mcp__l__write"], "ask": ["mcp__l__read"]}}`, mcpexec.Options{Elicitor: asked})
	seen := &summaries{}
	// The write makes the task's status line, before the question: the
	// sleep outlasts the second after which the upstream makes a task.
	res := sys.Exec(bounded(t), upstreamExec(`await tools.mcp__l__write({key: "x"});
		await new Promise(r => setTimeout(r, 2500)); return await tools.mcp__l__read({key: "x"});`), seen.add)
	if !res.OK || res.Text != "true" {
		t.Fatalf("result %q (ok %v)", res.Text, res.OK)
	}
	qs := asked.all()
	if len(qs) != 1 {
		t.Fatalf("asked %+v, want the approval alone", qs)
	}
	q := qs[0]
	if q.Server != "up" || !strings.Contains(q.Message, "mcp__l__read") || len(q.Tools) != 1 || q.Tools[0] != "mcp__up__Exec" {
		t.Errorf("question = %+v, want the upstream's approval of the read, about the outer call", q)
	}
	found := false
	for _, s := range seen.all() {
		found = found || strings.HasSuffix(s, taskLine("mcp__l__write"))
	}
	if !found {
		t.Errorf("live summaries %q never showed the task before its question", seen.all())
	}
}

// An upstream that asks before its Exec became a task answers the call
// input_required: the question reaches the Elicitor and the retry
// finishes the call (no "could not be reached").
func TestA2026UpstreamsQuestionBeforeATaskIsAnsweredInTheCall(t *testing.T) {
	mark := newRunMark(t)
	asked := &approvals{}
	sys := upstreamOf(t, mark, `{"permissions": {"ask": ["mcp__l__read"]}}`, mcpexec.Options{Elicitor: asked})
	res := sys.Exec(bounded(t), upstreamExec(`return await tools.mcp__l__read({key: "y"});`), nil)
	if !res.OK || res.Text != "false" {
		t.Fatalf("result %q (ok %v)", res.Text, res.OK)
	}
	if qs := asked.all(); len(qs) != 1 || !strings.Contains(qs[0].Message, "mcp__l__read") {
		t.Errorf("asked %+v, want the approval of the read alone", qs)
	}
}

// Aborting the outer script while the upstream's Exec runs as a task sends
// tasks/cancel before the call returns: the upstream says the task is
// cancelled, and its ledger counts that no write ran after.
func TestA2026AbortedScriptCancelsTheUpstreamsTask(t *testing.T) {
	mark := newRunMark(t)
	var logs lockedBuffer
	logger := zerolog.New(&logs).Level(zerolog.DebugLevel)
	sys := upstreamOf(t, mark, `{"permissions": {"allow": ["mcp__l"]}}`, mcpexec.Options{Logger: &logger})
	seen := &summaries{want: "mcp__up__Exec: ", shown: make(chan struct{})}
	shown := seen.shown
	ctx, abort := context.WithCancel(context.Background())
	defer abort()
	done := make(chan mcpexec.ExecResult, 1)
	go func() {
		done <- sys.Exec(ctx, upstreamExec(`for (let i = 0; ; i++) { await tools.mcp__l__write({key: "k" + i}); await new Promise(r => setTimeout(r, 50)); }`), seen.add)
	}()
	select {
	case <-shown:
	case res := <-done:
		t.Fatalf("the run ended before its call became a task: %q", res.Text)
	case <-time.After(30 * time.Second):
		t.Fatal("the upstream's Exec never became a task")
	}
	abort()
	var res mcpexec.ExecResult
	select {
	case res = <-done:
	case <-time.After(30 * time.Second):
		t.Fatal("the aborted run did not end")
	}
	if res.OK {
		t.Fatalf("an aborted run succeeded: %q", res.Text)
	}
	// The run's result comes as it is aborted; its call cancels the task
	// on its own goroutine.
	confirmed := func() bool {
		text := logs.String()
		return strings.Contains(text, "cancelled the task of a call that ended") && strings.Contains(text, `"status":"cancelled"`)
	}
	for deadline := time.Now().Add(30 * time.Second); !confirmed(); time.Sleep(20 * time.Millisecond) {
		if time.Now().After(deadline) {
			t.Fatalf("the upstream did not confirm the task cancelled; log:\n%s", logs.String())
		}
	}
	before := upstreamWrites(t, sys)
	time.Sleep(time.Second) // a write still running would show in a second
	if after := upstreamWrites(t, sys); after != before {
		t.Errorf("the upstream's ledger wrote %d keys after the cancel, then %d", before, after)
	}
}

// upstreamWrites counts the writes the upstream's ledger recorded.
func upstreamWrites(t *testing.T, sys *mcpexec.System) int {
	t.Helper()
	res := sys.Exec(bounded(t), upstreamExec(`return await tools.mcp__l__ran({});`), nil)
	if !res.OK {
		t.Fatalf("ran: %q", res.Text)
	}
	var ran struct {
		Write []string `json:"write"`
	}
	if err := json.Unmarshal([]byte(res.Text), &ran); err != nil {
		t.Fatalf("ran: %q: %v", res.Text, err)
	}
	return len(ran.Write)
}

// lockedBuffer is a log written from many goroutines.
type lockedBuffer struct {
	mu  sync.Mutex
	buf strings.Builder
}

func (b *lockedBuffer) Write(p []byte) (int, error) {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.buf.Write(p)
}

func (b *lockedBuffer) String() string {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.buf.String()
}
