package pool

import (
	"context"
	"encoding/json"
	"math"
	"sync"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// This file is the client side of MCP tasks (2025-11-25, SEP-1686), which
// the SDK does not implement: a task-augmented tools/call returns a task at
// once, the client polls tasks/get, fetches tasks/result and may send
// tasks/cancel. The methods go out through the SDK's custom-method hooks;
// the task a tools/call created is read from the raw reply the wire tap
// keeps, since the SDK decodes every tools/call reply as a CallToolResult.

const (
	methodTaskGet    = "tasks/get"
	methodTaskResult = "tasks/result"
	methodTaskCancel = "tasks/cancel"
)

// Task statuses.
const (
	taskWorking       = "working"
	taskInputRequired = "input_required"
	taskCompleted     = "completed"
	taskFailed        = "failed"
	taskCancelled     = "cancelled"
)

// relatedTaskMetaKey names the task a server's request belongs to, in the
// request's _meta.
const relatedTaskMetaKey = "io.modelcontextprotocol/related-task"

const (
	// defaultTaskPoll is how often a task is polled when its server names
	// no interval; minTaskPoll is the floor under a server's own.
	defaultTaskPoll = time.Second
	minTaskPoll     = 50 * time.Millisecond
	// taskCancelGrace bounds the tasks/cancel sent for a call its caller
	// gave up, and how long a closing connection waits for those.
	taskCancelGrace = 5 * time.Second
	// slowCallThreshold is how long a plain call of a tool whose server
	// offers tasks optionally may take before its later calls run as
	// tasks: a call cannot become a task once sent, so the pool learns
	// which tools are slow.
	slowCallThreshold = 10 * time.Second
)

// taskCallParams is a task-augmented tools/call's params. Only a session
// of 2025-11-25 or older gets one (asTask), so no server answers it with
// input_required, which came with 2026-07-28.
type taskCallParams struct {
	mcp.ParamsBase
	Name      string       `json:"name"`
	Arguments any          `json:"arguments"`
	Task      taskMetadata `json:"task"`
}

type taskMetadata struct {
	// TTL (milliseconds) is left to the server.
	TTL *int64 `json:"ttl,omitempty"`
}

// taskParams names one task (tasks/get, tasks/result, tasks/cancel).
type taskParams struct {
	mcp.ParamsBase
	TaskID string `json:"taskId"`
}

// taskState is a task as tasks/get and tasks/cancel return it, and inside
// the result of a task-augmented tools/call; for a server of 2026-07-28
// (tasks20260728.go), as its CreateTaskResult and tasks/get give it, with
// the fields only that version has.
type taskState struct {
	mcp.ResultBase
	TaskID        string `json:"taskId"`
	Status        string `json:"status"`
	StatusMessage string `json:"statusMessage,omitempty"`
	// TTL is how long (milliseconds) the server keeps the task from its
	// creation; nil: no limit.
	TTL *int64 `json:"ttl,omitempty"`
	// PollInterval is the server's suggested interval (milliseconds).
	PollInterval *int64 `json:"pollInterval,omitempty"`

	// TTLMs and PollIntervalMs are TTL and PollInterval as 2026-07-28
	// names them.
	TTLMs          *int64 `json:"ttlMs,omitempty"`
	PollIntervalMs *int64 `json:"pollIntervalMs,omitempty"`
	// Result is the ended task's result, as the server wrote it.
	Result json.RawMessage `json:"result,omitempty"`
	// Error is why a failed task failed.
	Error *taskFailure `json:"error,omitempty"`
	// InputRequests are the questions a task waits on, as the server
	// wrote them.
	InputRequests json.RawMessage `json:"inputRequests,omitempty"`
}

func (t taskState) terminal() bool {
	return t.Status == taskCompleted || t.Status == taskFailed || t.Status == taskCancelled
}

func (t taskState) pollEvery() time.Duration {
	if t.PollInterval == nil || *t.PollInterval <= 0 {
		return defaultTaskPoll
	}
	return max(millis(*t.PollInterval), minTaskPoll)
}

// millis is ms milliseconds, the longest Duration for more: a server's
// number multiplied as it is could overflow into a negative Duration,
// which would poll without pause.
func millis(ms int64) time.Duration {
	if ms > int64(math.MaxInt64/time.Millisecond) {
		return math.MaxInt64
	}
	return time.Duration(ms) * time.Millisecond
}

// registerTaskMethods lets the client send the task methods of both
// versions, and declare the extension where a request opts in.
func registerTaskMethods(c *mcp.Client) {
	// The names are not standard methods of this SDK, so registering
	// cannot fail.
	_ = mcp.AddSendingCustomMethod[*taskParams, *taskState](c, methodTaskGet)
	_ = mcp.AddSendingCustomMethod[*taskParams, *taskState](c, methodTaskCancel)
	_ = mcp.AddSendingCustomMethod[*taskParams, *mcp.CallToolResult](c, methodTaskResult)
	_ = mcp.AddSendingCustomMethod[*taskUpdateParams, *taskAck](c, methodTaskUpdate)
	c.AddSendingMiddleware(declareTasksExtension)
}

// taskSupportOf keeps the execution.taskSupport values that let a tool run
// as a task ("forbidden" and unknown values mean it never does).
func taskSupportOf(v string) string {
	switch v {
	case TaskRequired, TaskOptional:
		return v
	}
	return ""
}

// TaskStatus is a change of a task's status that a nested call runs as.
type TaskStatus struct {
	// Tool is the call's full name.
	Tool string
	// Task is the task's id on its server.
	Task string
	// Status is the task's status: working, input_required, completed,
	// failed or cancelled.
	Status string
	// Message is the server's status message ("" when it gave none).
	Message string
}

type taskStatusKey struct{}

// WithTaskStatus returns ctx under which the calls that run as tasks hand
// every change of their task's status to onStatus, on the polling
// goroutine: keep it short.
func WithTaskStatus(ctx context.Context, onStatus func(TaskStatus)) context.Context {
	return context.WithValue(ctx, taskStatusKey{}, onStatus)
}

func taskStatusFrom(ctx context.Context) func(TaskStatus) {
	f, _ := ctx.Value(taskStatusKey{}).(func(TaskStatus))
	return f
}

// asTask reports whether a call of tool goes out as a task the 2025-11-25
// way: never to a server of 2026-07-28, which ignores the task param and
// decides itself (tasks20260728.go).
func (m *Manager) asTask(live *liveSession, tool Tool) bool {
	if live.newProtocol {
		return false
	}
	switch tool.TaskSupport {
	case TaskRequired:
		return true
	case TaskOptional:
		_, slow := m.slowTools.Load(tool.Name)
		return slow
	}
	return false
}

// noteDuration remembers a tool whose server offers tasks optionally and
// whose plain call took long: its next calls run as tasks.
func (m *Manager) noteDuration(tool Tool, took time.Duration) {
	if tool.TaskSupport == TaskOptional && took >= slowCallThreshold {
		m.slowTools.Store(tool.Name, struct{}{})
	}
}

// callTask runs a call as a task: it sends the task-augmented tools/call,
// polls the task no faster than the server asks until it ends, and
// returns its result. While the task waits for input, tasks/result is
// under way: that is where the server sends its question, which reaches
// the person through the server's elicitation path. When ctx ends or the
// connection closes, the task is cancelled on the server before the call
// returns. Whoever watches the call's task statuses hears a final one
// before it returns, however it ends (reportEnd).
func (m *Manager) callTask(ctx context.Context, live *liveSession, flight *callInFlight, name, server string, params *mcp.CallToolParams) (Result, error) {
	if !live.tasks.enter() {
		return Result{}, &CallError{Tool: name, Kind: KindConnectionLost, msg: textConnectionLost(name, server)}
	}
	defer live.tasks.leave()
	session := live.session
	callCtx, reply := withRawReply(ctx)
	args := params.Arguments
	if args == nil {
		args = map[string]any{}
	}
	res, err := mcp.CallCustomMethod[*taskCallParams, *mcp.CallToolResult](callCtx, session, "tools/call",
		&taskCallParams{ParamsBase: mcp.ParamsBase{Meta: params.Meta}, Name: params.Name, Arguments: args})
	if err != nil {
		live.tap.forget(reply)
		return Result{}, m.callFailed(ctx, name, server, live.ended, err)
	}
	raw := reply.get()
	var created struct {
		Task *taskState `json:"task"`
	}
	if json.Unmarshal(raw, &created) != nil || created.Task == nil || created.Task.TaskID == "" {
		// The server answered at once, without a task: that is the result.
		return ProjectRaw(name, res, raw)
	}
	w := &taskWatch{m: m, ctx: ctx, live: live, name: name, server: server, onStatus: taskStatusFrom(ctx),
		onProgress: progressFrom(ctx), task: *created.Task, started: time.Now()}
	flight.setTask(w.task.TaskID)
	w.report()
	out, err := w.await()
	w.reportEnd(err)
	return out, err
}

// taskWatch follows one task to its end.
type taskWatch struct {
	m            *Manager
	ctx          context.Context
	live         *liveSession
	name, server string
	onStatus     func(TaskStatus)
	onProgress   func(Progress)
	task         taskState
	started      time.Time
	// cancelled is set once the call asked the server to cancel the task.
	cancelled bool
	// srv and answered serve a task of the extension (tasks20260728.go):
	// the server whose elicitation path its questions take, and the keys
	// of those answered.
	srv      *server
	answered map[string]bool
}

type taskOutcome struct {
	res Result
	err error
}

// take records the task as a tasks/get reply gave it: its status, and the
// poll interval and time to live when the reply has them (a server may give
// its task longer, or less); a change of status is reported.
func (w *taskWatch) take(next *taskState) {
	changed := next.Status != w.task.Status || next.StatusMessage != w.task.StatusMessage
	w.task.Status, w.task.StatusMessage = next.Status, next.StatusMessage
	if next.PollInterval != nil {
		w.task.PollInterval = next.PollInterval
	}
	if next.TTL != nil {
		w.task.TTL = next.TTL
	}
	if changed {
		w.report()
	}
}

// abandoned ends a watch whose caller gave up (an aborted script, its
// budget): the task is cancelled on the server first.
func (w *taskWatch) abandoned() (Result, error) {
	w.cancel()
	return Result{}, callError(w.ctx, w.name, w.server, nil, w.ctx.Err())
}

// connectionLost ends a watch whose connection closes: the task is
// cancelled while the connection still carries the request.
func (w *taskWatch) connectionLost() (Result, error) {
	w.cancel()
	return Result{}, &CallError{Tool: w.name, Kind: KindConnectionLost, msg: textConnectionLost(w.name, w.server)}
}

func (w *taskWatch) await() (Result, error) {
	var result chan taskOutcome // non-nil once tasks/result is under way
	timer := time.NewTimer(w.task.pollEvery())
	defer timer.Stop()
	for {
		if result == nil && (w.task.terminal() || w.task.Status == taskInputRequired) {
			result = make(chan taskOutcome, 1)
			go func() {
				res, err := w.fetchResult()
				result <- taskOutcome{res, err}
			}()
		}
		select {
		case <-w.ctx.Done():
			return w.abandoned()
		case <-w.live.tasks.closing:
			return w.connectionLost()
		case out := <-result:
			return out.res, out.err
		case <-timer.C:
		}
		// The task is asked about before its time to live is checked: one
		// that ended just in time has its result still.
		if !w.task.terminal() {
			next, err := mcp.CallCustomMethod[*taskParams, *taskState](w.ctx, w.live.session, methodTaskGet, &taskParams{TaskID: w.task.TaskID})
			if err != nil {
				if w.ctx.Err() != nil {
					continue // the select above cancels it
				}
				w.cancel()
				if w.expired() {
					return Result{}, w.expiredError()
				}
				return Result{}, w.m.callFailed(w.ctx, w.name, w.server, w.live.ended, err)
			}
			w.take(next)
		}
		if !w.task.terminal() && w.expired() {
			w.cancel()
			return Result{}, w.expiredError()
		}
		timer.Reset(w.task.pollEvery())
	}
}

// expired reports whether the task outlived the time its server keeps it.
// It compares milliseconds, so a huge time to live cannot overflow.
func (w *taskWatch) expired() bool {
	return w.task.TTL != nil && *w.task.TTL > 0 && time.Since(w.started).Milliseconds() > *w.task.TTL
}

// expiredError is the error of a task that outlived its time to live.
func (w *taskWatch) expiredError() *CallError {
	return &CallError{Tool: w.name, Kind: KindProtocol, msg: textTaskExpired(w.name, w.server)}
}

// fetchResult asks for the task's result, which the server gives once the
// task has ended.
func (w *taskWatch) fetchResult() (Result, error) {
	ctx, reply := withRawReply(w.ctx)
	res, err := mcp.CallCustomMethod[*taskParams, *mcp.CallToolResult](ctx, w.live.session, methodTaskResult, &taskParams{TaskID: w.task.TaskID})
	if err != nil {
		w.live.tap.forget(reply)
		return Result{}, w.m.callFailed(w.ctx, w.name, w.server, w.live.ended, err)
	}
	return ProjectRaw(w.name, res, reply.get())
}

// cancel asks the server to stop the task, even though the caller has
// gone: its context's values are kept, its end is not.
func (w *taskWatch) cancel() {
	w.cancelled = true
	ctx, stop := context.WithTimeout(context.WithoutCancel(w.ctx), taskCancelGrace)
	defer stop()
	got, err := mcp.CallCustomMethod[*taskParams, *taskState](ctx, w.live.session, methodTaskCancel, &taskParams{TaskID: w.task.TaskID})
	log := w.m.log.With().Str("server", w.server).Str("tool", w.name).Str("task", w.task.TaskID).Logger()
	if err != nil {
		log.Info().Err(err).Msg("could not cancel the task of a call that ended")
		return
	}
	if w.extension() {
		// The extension's tasks/cancel answers with an empty ack: the
		// task's status is for tasks/get to say.
		if got, err = mcp.CallCustomMethod[*taskParams, *taskState](ctx, w.live.session, methodTaskGet, &taskParams{TaskID: w.task.TaskID}); err != nil {
			log.Info().Err(err).Msg("cancelled the task of a call that ended; its status is unknown")
			return
		}
	}
	log.Debug().Str("status", got.Status).Msg("cancelled the task of a call that ended")
}

// extension reports whether the task is one of the 2026-07-28 extension.
func (w *taskWatch) extension() bool { return w.srv != nil }

// report hands the task's status to whoever watches the call.
func (w *taskWatch) report() {
	if w.onStatus != nil {
		w.onStatus(TaskStatus{Tool: w.name, Task: w.task.TaskID, Status: w.task.Status, Message: w.task.StatusMessage})
	}
	if w.onProgress != nil && w.task.StatusMessage != "" {
		w.onProgress(Progress{Tool: w.name, Message: w.task.StatusMessage})
	}
}

// reportEnd reports the task ended as its call returns, unless the
// server's own final status was reported already. A call often ends
// without it: tasks/result, under way since the task asked for input,
// answers before the next tasks/get sees the task end; and a call given
// up (cancelled, expired, its connection lost) stops polling. Whoever
// shows the task's status line would otherwise show it after the call.
// The message is the server's to give, so none is made up here.
func (w *taskWatch) reportEnd(err error) {
	if w.task.terminal() {
		return
	}
	switch {
	case w.cancelled:
		w.task.Status = taskCancelled
	case err != nil:
		w.task.Status = taskFailed
	default:
		w.task.Status = taskCompleted
	}
	w.task.StatusMessage = ""
	w.report()
}

// liveTasks tracks a connection's calls that run as tasks, so that closing
// the connection first lets them cancel their tasks on the server.
type liveTasks struct {
	closing chan struct{}
	mu      sync.Mutex
	n       int
	idle    chan struct{} // closed when n drops to 0 after closing
	closed  bool
}

func newLiveTasks() *liveTasks {
	return &liveTasks{closing: make(chan struct{}), idle: make(chan struct{})}
}

// enter counts a task call in; false once the connection is closing.
func (t *liveTasks) enter() bool {
	t.mu.Lock()
	defer t.mu.Unlock()
	if t.closed {
		return false
	}
	t.n++
	return true
}

func (t *liveTasks) leave() {
	t.mu.Lock()
	defer t.mu.Unlock()
	t.n--
	if t.closed && t.n == 0 {
		close(t.idle)
	}
}

// close tells the task calls the connection is closing and waits, at most
// grace, for them to cancel their tasks.
func (t *liveTasks) close(grace time.Duration) {
	t.mu.Lock()
	if t.closed {
		t.mu.Unlock()
		return
	}
	t.closed = true
	close(t.closing)
	if t.n == 0 {
		close(t.idle)
	}
	t.mu.Unlock()
	timer := time.NewTimer(grace)
	defer timer.Stop()
	select {
	case <-t.idle:
	case <-timer.C:
	}
}
