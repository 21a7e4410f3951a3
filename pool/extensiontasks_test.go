package pool_test

import (
	"context"
	"encoding/json"
	"errors"
	"maps"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/mcpexec/mcpexec/elicit"
	"github.com/mcpexec/mcpexec/internal/testservers"
	"github.com/mcpexec/mcpexec/pool"
)

// taskServer is a server of 2026-07-28 that declares the tasks extension
// and makes a task of every call of its tool job whose request declared
// the extension too. What tasks/get reports is the test's (answer); the
// server records the task methods it was sent. The real tasks of this
// extension are tested against `mcpexec serve` (tests/); this one steps
// a task through what a test needs at an exact moment: an expiry, a
// failure, a question.
type taskServer struct {
	created string // the CreateTaskResult's task fields, without resultType
	// always makes a task of a call that did not opt in too, as a server
	// that disregards the extension's opt-in would.
	always bool
	// env is the server's configured environment (its values are secrets
	// to the pool); getError, when set, is the error tasks/get answers.
	env      map[string]string
	getError string
	// answer is tasks/get's answer, given the gets so far (1 for the
	// first) and the inputResponses tasks/update gave, the latest for
	// each key.
	answer func(gets int, answers mcp.InputResponseMap) string

	mu       sync.Mutex
	optedIn  []bool
	gets     []time.Time
	made     time.Time
	answers  mcp.InputResponseMap
	cancels  int
	getNames []string
}

const tasksExtensionName = "io.modelcontextprotocol/tasks"

type taskIDParams struct {
	mcp.ParamsBase
	TaskID string `json:"taskId"`
}

type taskUpdate struct {
	mcp.ParamsBase
	TaskID         string               `json:"taskId"`
	InputResponses mcp.InputResponseMap `json:"inputResponses"`
}

// rawResult is a result written as given.
type rawResult struct {
	mcp.ResultBase
	raw json.RawMessage
}

func (r *rawResult) MarshalJSON() ([]byte, error) { return r.raw, nil }

func (s *taskServer) server() *mcp.Server {
	srv := mcp.NewServer(&mcp.Implementation{Name: "tasks", Version: "1"}, &mcp.ServerOptions{
		Capabilities: &mcp.ServerCapabilities{Tools: &mcp.ToolCapabilities{}, Extensions: map[string]any{tasksExtensionName: map[string]any{}}}})
	srv.AddTool(&mcp.Tool{Name: "job", InputSchema: json.RawMessage(`{"type":"object"}`)},
		func(context.Context, *mcp.CallToolRequest) (*mcp.CallToolResult, error) {
			return &mcp.CallToolResult{Content: []mcp.Content{&mcp.TextContent{Text: "answered in the call"}}}, nil
		})
	srv.AddReceivingMiddleware(func(next mcp.MethodHandler) mcp.MethodHandler {
		return func(ctx context.Context, method string, req mcp.Request) (mcp.Result, error) {
			if method == "tools/list" {
				return markJobOptional(next(ctx, method, req))
			}
			call, ok := req.(*mcp.CallToolRequest)
			if !ok || call.Params.Name != "job" {
				return next(ctx, method, req)
			}
			caps := call.ClientCapabilities()
			_, optedIn := caps.Extensions[tasksExtensionName]
			s.mu.Lock()
			s.optedIn = append(s.optedIn, optedIn)
			s.made = time.Now()
			s.mu.Unlock()
			if !optedIn && !s.always {
				return next(ctx, method, req)
			}
			return &rawResult{raw: json.RawMessage(`{"resultType":"task",` + s.created[1:])}, nil
		}
	})
	_ = mcp.AddReceivingCustomMethod(srv, "tasks/get", func(_ context.Context, _ *mcp.ServerSession, p *taskIDParams) (*rawResult, error) {
		s.mu.Lock()
		s.gets = append(s.gets, time.Now())
		s.getNames = append(s.getNames, p.TaskID)
		gets, answers := len(s.gets), s.answers
		s.mu.Unlock()
		if s.getError != "" {
			return nil, errors.New(s.getError)
		}
		return &rawResult{raw: json.RawMessage(s.answer(gets, answers))}, nil
	})
	_ = mcp.AddReceivingCustomMethod(srv, "tasks/update", func(_ context.Context, _ *mcp.ServerSession, p *taskUpdate) (*rawResult, error) {
		s.mu.Lock()
		// A copy: the map an answer func was given stays as it was.
		answers := maps.Clone(s.answers)
		if answers == nil {
			answers = mcp.InputResponseMap{}
		}
		maps.Copy(answers, p.InputResponses)
		s.answers = answers
		s.mu.Unlock()
		return &rawResult{raw: json.RawMessage(`{"resultType":"complete"}`)}, nil
	})
	_ = mcp.AddReceivingCustomMethod(srv, "tasks/cancel", func(context.Context, *mcp.ServerSession, *taskIDParams) (*rawResult, error) {
		s.mu.Lock()
		s.cancels++
		s.mu.Unlock()
		return &rawResult{raw: json.RawMessage(`{"resultType":"complete"}`)}, nil
	})
	return srv
}

// markJobOptional marks job, in a tools/list result, as a tool that may
// run as a task (the SDK's Tool has no execution field).
func markJobOptional(res mcp.Result, err error) (mcp.Result, error) {
	if err != nil {
		return res, err
	}
	data, err := json.Marshal(res)
	if err != nil {
		return nil, err
	}
	var list map[string]any
	if err := json.Unmarshal(data, &list); err != nil {
		return nil, err
	}
	tools, _ := list["tools"].([]any)
	for _, tool := range tools {
		if entry, ok := tool.(map[string]any); ok && entry["name"] == "job" {
			entry["execution"] = map[string]any{"taskSupport": pool.TaskOptional}
		}
	}
	list["resultType"] = "complete"
	data, err = json.Marshal(list)
	return &rawResult{raw: data}, err
}

func (s *taskServer) start(t *testing.T, opts pool.Options) *pool.Manager {
	t.Helper()
	opts.Gate = &countingGate{}
	m := start(t, []pool.ServerConfig{{Name: "tasks", Dial: testservers.DialInMemory(s.server()), Env: s.env}}, opts)
	waitFor(t, m, "the job tool", has("mcp__tasks__job"))
	return m
}

func (s *taskServer) cancelled() int {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.cancels
}

func callJob(t *testing.T, m *pool.Manager, ctx context.Context) (pool.Result, error) {
	t.Helper()
	ctx, cancel := context.WithTimeout(ctx, patience)
	defer cancel()
	return m.Call(ctx, "mcp__tasks__job", nil)
}

// The call follows the task the server made of it, polling tasks/get no
// faster than the server's pollIntervalMs (and not before it has passed
// once), and its result is the one tasks/get inlined. Every call opts in
// to the extension, and every task method names the task.
func TestATaskOfTheExtensionIsPolledAtItsIntervalToItsInlinedResult(t *testing.T) {
	const every = 100 * time.Millisecond
	s := &taskServer{created: `{"taskId":"t1","status":"working","ttlMs":60000,"pollIntervalMs":100}`,
		answer: func(gets int, _ mcp.InputResponseMap) string {
			if gets < 3 {
				return `{"resultType":"complete","taskId":"t1","status":"working","statusMessage":"step ` + string(rune('0'+gets)) + `"}`
			}
			return `{"resultType":"complete","taskId":"t1","status":"completed","result":{"content":[{"type":"text","text":"done"}],"structuredContent":{"z":1,"a":2}}}`
		}}
	var mu sync.Mutex
	var statuses []pool.TaskStatus
	m := s.start(t, pool.Options{})
	if tool, _ := m.Snapshot().Lookup("mcp__tasks__job"); tool.TaskSupport != pool.TaskOptional {
		t.Errorf("job's task support is %q, want the server's mark kept (the catalog's @task)", tool.TaskSupport)
	}
	ctx := pool.WithTaskStatus(context.Background(), func(st pool.TaskStatus) {
		mu.Lock()
		statuses = append(statuses, st)
		mu.Unlock()
	})
	res, err := callJob(t, m, ctx)
	if err != nil || string(res.JSON) != `{"z":1,"a":2}` {
		t.Fatalf("result %s %v, want the inlined result's structured content as written", res.JSON, err)
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	if len(s.optedIn) != 1 || !s.optedIn[0] {
		t.Errorf("the call opted in to the extension: %v, want once", s.optedIn)
	}
	if len(s.gets) != 3 {
		t.Fatalf("tasks/get sent %d times, want 3", len(s.gets))
	}
	last := s.made
	for i, at := range s.gets {
		if gap := at.Sub(last); gap < every {
			t.Errorf("tasks/get %d came %v after the one before, sooner than the server's interval %v", i+1, gap, every)
		}
		last = at
	}
	for _, name := range s.getNames {
		if name != "t1" {
			t.Errorf("tasks/get named task %q", name)
		}
	}
	mu.Lock()
	defer mu.Unlock()
	var told []string
	for _, st := range statuses {
		told = append(told, st.Status+":"+st.Message)
	}
	if want := "working:,working:step 1,working:step 2,completed:"; strings.Join(told, ",") != want {
		t.Errorf("statuses told %q, want %q", told, want)
	}
}

// A task that outlives the time to live the server gave it fails the call
// clearly, and the pool cancels it.
func TestATaskOfTheExtensionPastItsTTLFailsAndIsCancelled(t *testing.T) {
	s := &taskServer{created: `{"taskId":"t2","status":"working","ttlMs":300,"pollIntervalMs":50}`,
		answer: func(int, mcp.InputResponseMap) string {
			return `{"resultType":"complete","taskId":"t2","status":"working"}`
		}}
	m := s.start(t, pool.Options{})
	_, err := callJob(t, m, context.Background())
	if err == nil || !strings.Contains(err.Error(), `outlived the time the server keeps a task`) {
		t.Fatalf("error %v, want the task's expiry", err)
	}
	if n := s.cancelled(); n != 1 {
		t.Errorf("tasks/cancel sent %d times, want once", n)
	}
}

// A task that ended by the time its time to live ran out still gives its
// result: tasks/get is asked before the expiry is told, and nothing is
// cancelled.
func TestATaskOfTheExtensionThatEndedAsItsTTLRanOutGivesItsResult(t *testing.T) {
	// The first tasks/get comes after the interval, which is longer than
	// the time to live: the task ended just in time.
	s := &taskServer{created: `{"taskId":"t9","status":"working","ttlMs":60,"pollIntervalMs":120}`,
		answer: func(int, mcp.InputResponseMap) string {
			return `{"resultType":"complete","taskId":"t9","status":"completed","result":{"content":[{"type":"text","text":"in time"}]}}`
		}}
	m := s.start(t, pool.Options{})
	res, err := callJob(t, m, context.Background())
	if err != nil || res.Value != "in time" {
		t.Fatalf("result %+v %v, want the task's result", res, err)
	}
	if n := s.cancelled(); n != 0 {
		t.Errorf("tasks/cancel sent %d times for a task that ended", n)
	}
}

// A time to live a later tasks/get gives replaces the one the task was
// made with.
func TestATaskOfTheExtensionTakesUpItsLaterTTL(t *testing.T) {
	s := &taskServer{created: `{"taskId":"t10","status":"working","ttlMs":600000,"pollIntervalMs":50}`,
		answer: func(gets int, _ mcp.InputResponseMap) string {
			if gets < 3 {
				return `{"resultType":"complete","taskId":"t10","status":"working","ttlMs":1}`
			}
			// Reached only when the shorter time to live was ignored.
			return `{"resultType":"complete","taskId":"t10","status":"completed","result":{"content":[{"type":"text","text":"late"}]}}`
		}}
	m := s.start(t, pool.Options{})
	_, err := callJob(t, m, context.Background())
	if err == nil || !strings.Contains(err.Error(), `outlived the time the server keeps a task`) {
		t.Fatalf("error %v, want the task's expiry", err)
	}
	if n := s.cancelled(); n != 1 {
		t.Errorf("tasks/cancel sent %d times, want once", n)
	}
}

// A server's error from a task method reaches the model as a plain call's
// does: a configured secret it quotes is replaced.
func TestATaskOfTheExtensionsServerErrorIsRedacted(t *testing.T) {
	const secret = "sekret-token-4711"
	s := &taskServer{env: map[string]string{"TOKEN": secret}, getError: "the token " + secret + " was refused",
		created: `{"taskId":"t12","status":"working","ttlMs":60000,"pollIntervalMs":20}`}
	m := s.start(t, pool.Options{})
	_, err := callJob(t, m, context.Background())
	if err == nil || strings.Contains(err.Error(), secret) || !strings.Contains(err.Error(), "the token [redacted] was refused") {
		t.Fatalf("error %v, want the server's words with its secret replaced", err)
	}
}

// A failed task fails the call with a message naming the tool, its server
// and the server's reason.
func TestAFailedTaskOfTheExtensionSaysWhy(t *testing.T) {
	s := &taskServer{created: `{"taskId":"t3","status":"working","ttlMs":60000,"pollIntervalMs":50}`,
		answer: func(int, mcp.InputResponseMap) string {
			return `{"resultType":"complete","taskId":"t3","status":"failed","error":{"code":-32603,"message":"the disk is full"}}`
		}}
	m := s.start(t, pool.Options{})
	_, err := callJob(t, m, context.Background())
	want := `MCP tool "mcp__tasks__job" failed: it ran as a task on its server "tasks", and the task failed: the disk is full`
	if err == nil || err.Error() != want {
		t.Fatalf("error %v, want %q", err, want)
	}
	if n := s.cancelled(); n != 0 {
		t.Errorf("tasks/cancel sent %d times for a task that ended", n)
	}
}

// A task waiting for input has its question put to the call's Elicitor,
// with the form as the server wrote it, once, however often tasks/get
// shows it before the answer is in; tasks/update gives the answer.
func TestATaskOfTheExtensionAsksThroughTheElicitor(t *testing.T) {
	const form = `{"type":"object","properties":{"zeta":{"type":"string"},"alpha":{"type":"string"}}}`
	s := &taskServer{created: `{"taskId":"t4","status":"working","ttlMs":60000,"pollIntervalMs":20}`}
	seenAnswered := 0 // the gets since the answer came
	s.answer = func(gets int, answers mcp.InputResponseMap) string {
		answer, ok := answers["q1"].(*mcp.ElicitResult)
		if ok {
			seenAnswered++
		}
		// The first get after the answer still shows the question, as a
		// server that has not taken the answer in yet would.
		if ok && seenAnswered > 1 {
			text, _ := json.Marshal(answer.Content["zeta"])
			return `{"resultType":"complete","taskId":"t4","status":"completed","result":{"content":[{"type":"text","text":` + string(text) + `}]}}`
		}
		return `{"resultType":"complete","taskId":"t4","status":"input_required","inputRequests":{"q1":{"method":"elicitation/create","params":{"mode":"form","message":"Which?","requestedSchema":` + form + `}}}}`
	}
	var mu sync.Mutex
	var asked []elicit.Request
	m := s.start(t, pool.Options{Elicitor: elicit.Func(func(_ context.Context, r elicit.Request) (elicit.Response, error) {
		mu.Lock()
		asked = append(asked, r)
		mu.Unlock()
		return elicit.Response{Action: elicit.Accept, Content: map[string]any{"zeta": "last", "alpha": "first"}}, nil
	})})
	res, err := callJob(t, m, context.Background())
	if err != nil || res.Value != "last" {
		t.Fatalf("result %+v %v, want the answer the task got", res, err)
	}
	mu.Lock()
	defer mu.Unlock()
	if len(asked) != 1 || asked[0].Message != "Which?" || string(asked[0].Schema) != form || len(asked[0].Tools) != 1 || asked[0].Tools[0] != "mcp__tasks__job" {
		t.Errorf("asked %+v, want the question once, its form as written, about the call", asked)
	}
}

// A question asked under a key used before, once the server took the
// first answer in, is a new question: it is asked and answered too,
// whether the server showed it took the answer in by working on or by
// asking something else.
func TestATaskOfTheExtensionAsksAgainUnderAKeyUsedBefore(t *testing.T) {
	ask := func(key, message string) string {
		return `{"resultType":"complete","taskId":"t11","status":"input_required","inputRequests":{"` + key + `":{"method":"elicitation/create","params":{"mode":"form","message":"` + message + `","requestedSchema":{"type":"object","properties":{"zeta":{"type":"string"}}}}}}}`
	}
	done := func(text string) string {
		return `{"resultType":"complete","taskId":"t11","status":"completed","result":{"content":[{"type":"text","text":"` + text + `"}]}}`
	}
	for name, tookIn := range map[string]string{
		"working on":         `{"resultType":"complete","taskId":"t11","status":"working"}`,
		"asking another key": ask("q2", "Other?"),
	} {
		t.Run(name, func(t *testing.T) {
			s := &taskServer{created: `{"taskId":"t11","status":"working","ttlMs":60000,"pollIntervalMs":20}`}
			sinceFirst := 0 // the gets since the first answer came
			s.answer = func(_ int, answers mcp.InputResponseMap) string {
				answer, _ := answers["q1"].(*mcp.ElicitResult)
				switch {
				case answer == nil:
					return ask("q1", "First?")
				case answer.Content["zeta"] == "second":
					return done("both answered")
				}
				sinceFirst++
				switch {
				case sinceFirst == 1:
					return tookIn
				case sinceFirst > 20:
					return done("the second question was never answered")
				}
				return ask("q1", "Second?")
			}
			m := s.start(t, pool.Options{Elicitor: elicit.Func(func(_ context.Context, r elicit.Request) (elicit.Response, error) {
				zeta := "first"
				if r.Message == "Second?" {
					zeta = "second"
				}
				return elicit.Response{Action: elicit.Accept, Content: map[string]any{"zeta": zeta}}, nil
			})})
			res, err := callJob(t, m, context.Background())
			if err != nil || res.Value != "both answered" {
				t.Fatalf("result %+v %v, want both questions answered", res, err)
			}
		})
	}
}

// A call whose caller takes the server's requests for input itself does
// not opt in: the server answers it in the call.
func TestACallReturningItsInputDoesNotOptInToTasks(t *testing.T) {
	s := &taskServer{created: `{"taskId":"t5","status":"working","pollIntervalMs":20}`,
		answer: func(int, mcp.InputResponseMap) string {
			return `{"resultType":"complete","taskId":"t5","status":"completed","result":{"content":[{"type":"text","text":"answered by the task"}]}}`
		}}
	m := s.start(t, pool.Options{})
	res, err := callJob(t, m, pool.WithInputReturned(context.Background()))
	if err != nil || res.Value != "answered in the call" {
		t.Fatalf("result %+v %v, want the server's answer in the call", res, err)
	}
}

// A question a task asks, still open when its connection closes, ends
// then: the person is no longer waited for, the task is cancelled on the
// server while the connection still carries the request, and the call
// ends as a lost connection.
func TestATaskOfTheExtensionsOpenQuestionEndsWhenItsConnectionCloses(t *testing.T) {
	s := &taskServer{created: `{"taskId":"t6","status":"working","ttlMs":60000,"pollIntervalMs":20}`,
		answer: func(int, mcp.InputResponseMap) string {
			return `{"resultType":"complete","taskId":"t6","status":"input_required","inputRequests":{"q1":{"method":"elicitation/create","params":{"mode":"form","message":"Which?","requestedSchema":{"type":"object"}}}}}`
		}}
	asked, questionEnded := make(chan struct{}), make(chan struct{})
	m := s.start(t, pool.Options{Elicitor: elicit.Func(func(ctx context.Context, _ elicit.Request) (elicit.Response, error) {
		close(asked)
		<-ctx.Done() // a person who does not answer
		close(questionEnded)
		return elicit.Response{}, ctx.Err()
	})})
	ended := make(chan error, 1)
	go func() {
		_, err := callJob(t, m, context.Background())
		ended <- err
	}()
	select {
	case <-asked:
	case <-time.After(patience):
		t.Fatal("the task's question was never asked")
	}
	closed := make(chan error, 1)
	go func() { closed <- m.Close() }()
	select {
	case <-questionEnded:
	case <-time.After(patience):
		t.Fatal("the question stayed open after its connection closed")
	}
	var err error
	select {
	case err = <-ended:
	case <-time.After(patience):
		t.Fatal("the call did not end after its connection closed")
	}
	var ce *pool.CallError
	want := `MCP tool "mcp__tasks__job" failed: the connection to its server "tasks" was lost during the call.`
	if !errors.As(err, &ce) || ce.Kind != pool.KindConnectionLost || err.Error() != want {
		t.Errorf("error %v, want %q", err, want)
	}
	if n := s.cancelled(); n != 1 {
		t.Errorf("tasks/cancel sent %d times, want once", n)
	}
	select {
	case err := <-closed:
		if err != nil {
			t.Errorf("Close: %v", err)
		}
	case <-time.After(patience):
		t.Fatal("Close never returned")
	}
}

// A task's sampling question is answered by the embedder's plain sampling
// handler when it set no handler for sampling with tools, as the SDK's
// own client answers one: the question without its tools.
func TestATaskOfTheExtensionSamplesThroughThePlainHandler(t *testing.T) {
	s := &taskServer{created: `{"taskId":"t7","status":"working","ttlMs":60000,"pollIntervalMs":20}`,
		answer: func(_ int, answers mcp.InputResponseMap) string {
			if answer, ok := answers["s1"].(*mcp.CreateMessageWithToolsResult); ok && len(answer.Content) == 1 {
				if text, ok := answer.Content[0].(*mcp.TextContent); ok {
					quoted, _ := json.Marshal(text.Text)
					return `{"resultType":"complete","taskId":"t7","status":"completed","result":{"content":[{"type":"text","text":` + string(quoted) + `}]}}`
				}
			}
			return `{"resultType":"complete","taskId":"t7","status":"input_required","inputRequests":{"s1":{"method":"sampling/createMessage","params":{"maxTokens":10,"systemPrompt":"Be brief.","messages":[{"role":"user","content":{"type":"text","text":"Say yes."}}],"tools":[{"name":"ignored","inputSchema":{"type":"object"}}]}}}}`
		}}
	var mu sync.Mutex
	var sampled []*mcp.CreateMessageParams
	m := s.start(t, pool.Options{ClientOptions: mcp.ClientOptions{
		CreateMessageHandler: func(_ context.Context, req *mcp.CreateMessageRequest) (*mcp.CreateMessageResult, error) {
			mu.Lock()
			sampled = append(sampled, req.Params)
			mu.Unlock()
			return &mcp.CreateMessageResult{Model: "m", Role: "assistant", Content: &mcp.TextContent{Text: "yes"}}, nil
		},
	}})
	res, err := callJob(t, m, context.Background())
	if err != nil || res.Value != "yes" {
		t.Fatalf("result %+v %v, want the model's answer the task got", res, err)
	}
	mu.Lock()
	defer mu.Unlock()
	if len(sampled) != 1 {
		t.Fatalf("sampled %d times, want once", len(sampled))
	}
	p := sampled[0]
	text, _ := p.Messages[0].Content.(*mcp.TextContent)
	if p.MaxTokens != 10 || p.SystemPrompt != "Be brief." || len(p.Messages) != 1 || p.Messages[0].Role != "user" || text == nil || text.Text != "Say yes." {
		t.Errorf("sampled %+v, want the task's question as the server wrote it", p)
	}
}

// A call that did not opt in to tasks and got one all the same fails
// clearly, naming the tool and its server, and the task is cancelled
// rather than left running with nobody to take its result.
func TestATaskMadeOfACallThatDidNotOptInIsCancelled(t *testing.T) {
	s := &taskServer{always: true, created: `{"taskId":"t8","status":"working","pollIntervalMs":20}`,
		answer: func(int, mcp.InputResponseMap) string {
			return `{"resultType":"complete","taskId":"t8","status":"working"}`
		}}
	m := s.start(t, pool.Options{})
	_, err := callJob(t, m, pool.WithInputReturned(context.Background()))
	want := `MCP tool "mcp__tasks__job" failed: its server "tasks" made a task of the call, which did not ask for one, so the task was cancelled and no result came back.`
	var ce *pool.CallError
	if !errors.As(err, &ce) || ce.Kind != pool.KindProtocol || err.Error() != want {
		t.Fatalf("error %v, want %q", err, want)
	}
	if n := s.cancelled(); n != 1 {
		t.Errorf("tasks/cancel sent %d times, want once", n)
	}
}

// A call made under a context a task's question was asked under (here
// the sampling handler's) makes its own choice to opt in to tasks: a call
// whose caller takes the server's requests itself does not, though the
// task's call did.
func TestACallUnderATasksQuestionMakesItsOwnOptIn(t *testing.T) {
	s := &taskServer{created: `{"taskId":"t13","status":"working","ttlMs":60000,"pollIntervalMs":20}`,
		answer: func(_ int, answers mcp.InputResponseMap) string {
			if _, ok := answers["s1"]; ok {
				return `{"resultType":"complete","taskId":"t13","status":"completed","result":{"content":[{"type":"text","text":"done"}]}}`
			}
			return `{"resultType":"complete","taskId":"t13","status":"input_required","inputRequests":{"s1":{"method":"sampling/createMessage","params":{"maxTokens":10,"messages":[{"role":"user","content":{"type":"text","text":"Look it up."}}]}}}}`
		}}
	var m *pool.Manager
	var nested pool.Result
	var nestedErr error
	m = s.start(t, pool.Options{ClientOptions: mcp.ClientOptions{
		CreateMessageHandler: func(ctx context.Context, _ *mcp.CreateMessageRequest) (*mcp.CreateMessageResult, error) {
			nested, nestedErr = m.Call(pool.WithInputReturned(ctx), "mcp__tasks__job", nil)
			return &mcp.CreateMessageResult{Model: "m", Role: "assistant", Content: &mcp.TextContent{Text: "looked"}}, nil
		},
	}})
	res, err := callJob(t, m, context.Background())
	if err != nil || res.Value != "done" {
		t.Fatalf("result %+v %v, want the task's result", res, err)
	}
	if nestedErr != nil || nested.Value != "answered in the call" {
		t.Errorf("the call under the question: %+v %v, want the server's answer in the call", nested, nestedErr)
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	if len(s.optedIn) != 2 || !s.optedIn[0] || s.optedIn[1] {
		t.Errorf("the calls opted in %v, want the task's call only", s.optedIn)
	}
}

// A task's questions are asked in the order of their keys, and the
// answers given before one that cannot be answered still reach the server.
func TestATaskOfTheExtensionsQuestionsAreAskedInOrderAndAnswersKept(t *testing.T) {
	elicitation := func(message string) string {
		return `{"method":"elicitation/create","params":{"mode":"form","message":"` + message + `","requestedSchema":{"type":"object"}}}`
	}
	s := &taskServer{created: `{"taskId":"t14","status":"working","ttlMs":60000,"pollIntervalMs":20}`,
		answer: func(int, mcp.InputResponseMap) string {
			// c asks for sampling, which this pool (no handler) cannot give.
			return `{"resultType":"complete","taskId":"t14","status":"input_required","inputRequests":{"c":{"method":"sampling/createMessage","params":{"maxTokens":10,"messages":[]}},"b":` +
				elicitation("B?") + `,"a":` + elicitation("A?") + `}}`
		}}
	var mu sync.Mutex
	var asked []string
	m := s.start(t, pool.Options{Elicitor: elicit.Func(func(_ context.Context, r elicit.Request) (elicit.Response, error) {
		mu.Lock()
		asked = append(asked, r.Message)
		mu.Unlock()
		return elicit.Response{Action: elicit.Accept, Content: map[string]any{}}, nil
	})})
	_, err := callJob(t, m, context.Background())
	if err == nil || !strings.Contains(err.Error(), "it asked for a kind of input this client does not give") {
		t.Fatalf("error %v, want the sampling question unanswerable", err)
	}
	mu.Lock()
	defer mu.Unlock()
	if strings.Join(asked, ",") != "A?,B?" {
		t.Errorf("asked %q, want the questions in the order of their keys", asked)
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	if _, ok := s.answers["a"]; !ok || len(s.answers) != 2 || s.answers["b"] == nil {
		t.Errorf("the server got the answers %v, want a's and b's", s.answers)
	}
	if s.cancels != 1 {
		t.Errorf("tasks/cancel sent %d times, want once", s.cancels)
	}
}
