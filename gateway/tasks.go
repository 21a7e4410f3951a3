package gateway

import (
	"context"
	"encoding/json"
	"errors"
	"sync"
	"sync/atomic"
	"time"

	"github.com/modelcontextprotocol/go-sdk/jsonrpc"
	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/mcpexec/mcpexec"
	"github.com/mcpexec/mcpexec/elicit"
	"github.com/mcpexec/mcpexec/exectool"
)

// Exec as an MCP task (2025-11-25 experimental tasks, SEP-1686), over
// stdio (ServeStdio) and in the HTTP sessions of Handler. A client that
// sends a task-augmented Exec gets
// the task at once; the script runs as a run that parks (its questions wait
// for the client), and the task is that run: its id is the run's id, its
// status the run's state, its status message the live summary. tasks/get
// polls it, tasks/result waits for its end, putting the run's questions to
// the client on the way (elicitation), and tasks/cancel aborts it.
//
// The SDK has no tasks: the capability and Exec's execution.taskSupport are
// added to the initialize and tools/list results by a receiving middleware;
// a tools/call's task parameter, which the SDK's decoding would drop, is
// moved into the request's _meta before the SDK reads it (taskparam.go).
// notifications/tasks/status tell the client of each change: over stdio
// written on the connection, in an HTTP session renamed on its event
// stream from a notification the SDK can send (taskstatus.go).
//
// A task belongs to the client that started it (its identity, caller.go):
// another client's tasks/get is told there is no such task. Clients of
// 2026-07-28 have the tasks extension instead (tasks20260728.go), on the
// same store.

const (
	methodTasksGet    = "tasks/get"
	methodTasksResult = "tasks/result"
	methodTasksCancel = "tasks/cancel"
	methodTasksList   = "tasks/list"
	// taskParamKey is where taskWire puts a tools/call's task parameter.
	taskParamKey = "io.mcpexec/task"
	// relatedTaskKey names the task a message belongs to.
	relatedTaskKey = "io.modelcontextprotocol/related-task"
)

const (
	// taskPollInterval is what the gateway suggests clients poll at.
	// Changes to notify are pushed to the gateway by the run as they
	// happen (System.WatchRun), not polled.
	taskPollInterval = 500 * time.Millisecond
	// maxTaskTTL bounds how long a task is kept: the System remembers an
	// ended run for about as long.
	maxTaskTTL = time.Hour
)

// runWithTasks serves the gateway on one connection over t (stdio) until
// ctx ends or the client leaves, as Server().Run does, and offers Exec as a
// task on it.
func (g *Gateway) runWithTasks(ctx context.Context, t mcp.Transport) error {
	wired := &taskWireTransport{Transport: t}
	g.wire.Store(wired)
	ss, err := g.server.Connect(ctx, wired, nil)
	if err != nil {
		return err
	}
	ended := make(chan error, 1)
	go func() { ended <- ss.Wait() }()
	select {
	case <-ctx.Done():
		_ = ss.Close()
		<-ended
		return ctx.Err()
	case err := <-ended:
		return err
	}
}

// taskWireTransport gives its connection a taskWire.
type taskWireTransport struct {
	mcp.Transport
	wire atomic.Pointer[taskWire]
}

func (t *taskWireTransport) Connect(ctx context.Context) (mcp.Connection, error) {
	conn, err := t.Transport.Connect(ctx)
	if err != nil {
		return nil, err
	}
	w := &taskWire{Connection: conn}
	t.wire.Store(w)
	return w, nil
}

// taskWire is a connection that keeps a tools/call's task parameter (in
// _meta, taskparam.go) and can write task notifications.
type taskWire struct {
	mcp.Connection
}

func (w *taskWire) notify(ctx context.Context, method string, params any) error {
	raw, err := json.Marshal(params)
	if err != nil {
		return err
	}
	return w.Connection.Write(ctx, &jsonrpc.Request{Method: method, Params: raw})
}

// tasksWire is the connection tasks are served on, nil when none is.
func (g *Gateway) tasksWire() *taskWire {
	t := g.wire.Load()
	if t == nil {
		return nil
	}
	return t.wire.Load()
}

// taskInfo is a task as the protocol shows it.
type taskInfo struct {
	TaskID        string `json:"taskId"`
	Status        string `json:"status"`
	StatusMessage string `json:"statusMessage,omitempty"`
	CreatedAt     string `json:"createdAt"`
	LastUpdatedAt string `json:"lastUpdatedAt"`
	TTL           int64  `json:"ttl"`
	PollInterval  int64  `json:"pollInterval"`
}

type taskResult struct {
	mcp.ResultBase
	Task taskInfo `json:"task"`
}

type taskState struct {
	mcp.ResultBase
	taskInfo
}

type taskList struct {
	mcp.ResultBase
	Tasks []taskInfo `json:"tasks"`
}

type taskParams struct {
	mcp.ParamsBase
	TaskID string `json:"taskId"`
}

type listParams struct {
	mcp.ParamsBase
	Cursor string `json:"cursor,omitempty"`
}

// rawResult is a result the middleware rewrote, sent as these bytes.
type rawResult struct {
	mcp.ResultBase
	raw json.RawMessage
}

// MarshalJSON writes the rewritten bytes, with the _meta the SDK adds
// after the middleware (the server's identity, for 2026-07-28) merged in.
func (r *rawResult) MarshalJSON() ([]byte, error) {
	if len(r.Meta) == 0 {
		return r.raw, nil
	}
	var obj map[string]any
	if err := json.Unmarshal(r.raw, &obj); err != nil {
		return nil, err
	}
	meta, _ := obj["_meta"].(map[string]any)
	if meta == nil {
		meta = map[string]any{}
	}
	for k, v := range r.Meta {
		if _, ok := meta[k]; !ok {
			meta[k] = v
		}
	}
	obj["_meta"] = meta
	return json.Marshal(obj)
}

// execTask is one task: an Exec run started by a task-augmented call.
type execTask struct {
	run mcpexec.RunID
	// owner is the identity of the client that started it.
	owner   string
	created time.Time
	ttl     time.Duration
	// notify tells its client of a change of status (taskstatus.go); nil
	// where the gateway cannot.
	notify func(taskInfo)

	mu      sync.Mutex
	status  string
	message string
	updated time.Time
}

func (t *execTask) info() taskInfo {
	t.mu.Lock()
	defer t.mu.Unlock()
	return taskInfo{TaskID: string(t.run), Status: t.status, StatusMessage: t.message,
		CreatedAt: t.created.UTC().Format(time.RFC3339Nano), LastUpdatedAt: t.updated.UTC().Format(time.RFC3339Nano),
		TTL: t.ttl.Milliseconds(), PollInterval: taskPollInterval.Milliseconds()}
}

// set records the task's status. An ended task's status is final: its
// watcher may still be applying reports older than the one tasks/get or
// tasks/cancel just read, and an older one must not make it working
// again.
func (t *execTask) set(status, message string) {
	t.mu.Lock()
	defer t.mu.Unlock()
	if mcpexec.RunState(t.status).Ended() {
		return
	}
	if status != t.status || message != t.message {
		t.status, t.message, t.updated = status, message, time.Now()
	}
}

// execTasks are the gateway's tasks.
type execTasks struct {
	mu      sync.Mutex
	tasks   map[string]*execTask
	closing bool
	wg      sync.WaitGroup // the tasks' watchers
}

// watch runs a task's watcher, unless the gateway is closing.
func (ts *execTasks) watch(follow func()) bool {
	ts.mu.Lock()
	defer ts.mu.Unlock()
	if ts.closing {
		return false
	}
	ts.wg.Add(1)
	go func() {
		defer ts.wg.Done()
		follow()
	}()
	return true
}

func (ts *execTasks) add(t *execTask) bool {
	ts.mu.Lock()
	defer ts.mu.Unlock()
	if ts.closing {
		return false
	}
	if ts.tasks == nil {
		ts.tasks = map[string]*execTask{}
	}
	ts.forgetExpiredLocked()
	ts.tasks[string(t.run)] = t
	return true
}

// of finds owner's task id.
func (ts *execTasks) of(owner, id string) (*execTask, bool) {
	ts.mu.Lock()
	defer ts.mu.Unlock()
	ts.forgetExpiredLocked()
	t, ok := ts.tasks[id]
	if !ok || owner == "" || t.owner != owner {
		return nil, false
	}
	return t, true
}

func (ts *execTasks) list(owner string) []*execTask {
	ts.mu.Lock()
	defer ts.mu.Unlock()
	ts.forgetExpiredLocked()
	var out []*execTask
	for _, t := range ts.tasks {
		if owner != "" && t.owner == owner {
			out = append(out, t)
		}
	}
	return out
}

// forgetExpiredLocked drops the tasks past their time to live.
func (ts *execTasks) forgetExpiredLocked() {
	for id, t := range ts.tasks {
		if time.Since(t.created) > t.ttl {
			delete(ts.tasks, id)
		}
	}
}

func (ts *execTasks) close() {
	ts.mu.Lock()
	ts.closing = true
	ts.mu.Unlock()
	ts.wg.Wait()
}

// errUnknownTask is the error of a task id the session has no task under.
var errUnknownTask = &jsonrpc.Error{Code: jsonrpc.CodeInvalidParams, Message: "no such task: it is unknown, another client's, or past its time to live"}

// registerTasks adds the task methods and the middleware that offers them.
func (g *Gateway) registerTasks() {
	g.server.AddReceivingMiddleware(g.taskMiddleware)
	_ = mcp.AddReceivingCustomMethod(g.server, methodTasksGet, g.taskGet)
	_ = mcp.AddReceivingCustomMethod(g.server, methodTasksResult, g.taskResultOf)
	_ = mcp.AddReceivingCustomMethod(g.server, methodTasksCancel, g.taskCancel)
	_ = mcp.AddReceivingCustomMethod(g.server, methodTasksList, g.taskList)
	// Served by extensionMiddleware alone: the SDK only needs to know it.
	_ = mcp.AddReceivingCustomMethod(g.server, methodTasksUpdate, func(context.Context, *mcp.ServerSession, *updateParams) (*taskState, error) {
		return nil, &jsonrpc.Error{Code: jsonrpc.CodeMethodNotFound, Message: methodTasksUpdate + " is a method of the " + tasksExtension + " extension, of protocol " + protocol20260728}
	})
}

// taskMiddleware declares tasks on a connection that carries them, and
// starts a task for a task-augmented Exec; a 2026-07-28 request has the
// tasks extension instead.
func (g *Gateway) taskMiddleware(next mcp.MethodHandler) mcp.MethodHandler {
	return func(ctx context.Context, method string, req mcp.Request) (mcp.Result, error) {
		if requestVersion(req) >= protocol20260728 {
			return g.extensionMiddleware(ctx, method, req, next)
		}
		if !g.carriesTasks(req) {
			return next(ctx, method, req)
		}
		if call, ok := req.(*mcp.CallToolRequest); ok && method == "tools/call" && call.Params.Name == exectool.Name {
			if task, ok := call.Params.Meta[taskParamKey]; ok {
				return g.startTask(ctx, call, task)
			}
		}
		res, err := next(ctx, method, req)
		if err != nil {
			return res, err
		}
		switch method {
		case "initialize":
			return rewritten(res, declareTasks)
		case "tools/list":
			return rewritten(res, offerExecAsTask)
		}
		return res, nil
	}
}

// carriesTasks reports whether req's connection keeps a tools/call's task
// parameter: the stdio connection, or an HTTP session's request that went
// through carryTaskParam.
func (g *Gateway) carriesTasks(req mcp.Request) bool {
	if g.tasksWire() != nil {
		return true
	}
	extra := req.GetExtra()
	return extra != nil && extra.Header.Get(tasksCarriedHeader) != ""
}

// requestVersion is the protocol version req was sent at.
func requestVersion(req mcp.Request) string {
	if r, ok := req.(interface{ ProtocolVersion() string }); ok {
		return r.ProtocolVersion()
	}
	return ""
}

// rewritten is res re-encoded after edit changed its JSON object.
func rewritten(res mcp.Result, edit func(map[string]any)) (mcp.Result, error) {
	raw, err := json.Marshal(res)
	if err != nil {
		return res, nil
	}
	var obj map[string]any
	if json.Unmarshal(raw, &obj) != nil {
		return res, nil
	}
	edit(obj)
	out, err := json.Marshal(obj)
	if err != nil {
		return res, nil
	}
	return &rawResult{raw: out}, nil
}

func declareTasks(init map[string]any) {
	caps, _ := init["capabilities"].(map[string]any)
	if caps == nil {
		caps = map[string]any{}
		init["capabilities"] = caps
	}
	caps["tasks"] = map[string]any{"list": map[string]any{}, "cancel": map[string]any{},
		"requests": map[string]any{"tools": map[string]any{"call": map[string]any{}}}}
}

func offerExecAsTask(list map[string]any) {
	tools, _ := list["tools"].([]any)
	for _, t := range tools {
		if tool, ok := t.(map[string]any); ok && tool["name"] == exectool.Name {
			tool["execution"] = map[string]any{"taskSupport": "optional"}
		}
	}
}

// startTask starts the Exec run a task-augmented call asks for and returns
// the task at once.
func (g *Gateway) startTask(ctx context.Context, call *mcp.CallToolRequest, param any) (mcp.Result, error) {
	ttl := maxTaskTTL
	if p, ok := param.(map[string]any); ok {
		if ms, ok := p["ttl"].(float64); ok && ms > 0 {
			ttl = min(time.Duration(ms)*time.Millisecond, maxTaskTTL)
		}
	}
	c := callerOf(call.Session, call.Extra, call.ClientInfo())
	runCtx := tracedRequest(ctx, call)
	if st := g.stateOf(c, true); st != nil {
		runCtx = mcpexec.WithState(runCtx, st)
	}
	// The call returns at once: the run goes on, detached from it.
	res := g.sys.StartDetached(runCtx, mcpexec.DeclareOptions{}, call.Params.Arguments, mcpexec.DetachOptions{Wait: time.Nanosecond, Park: true}, nil)
	run := res.Running
	switch {
	case res.Pending != nil:
		run = res.Pending.Run
	case run == "":
		// Refused before it ran (bad arguments, Exec off): a plain result.
		return execResult(res), nil
	}
	now := time.Now()
	t := &execTask{run: run, owner: g.identity(c), created: now, ttl: ttl, status: "working", updated: now}
	t.notify = g.taskNotifier(call)
	watching := make(chan struct{})
	if !g.tasks.add(t) || !g.tasks.watch(func() { g.watchTask(t, watching) }) {
		g.sys.CancelRun(run)
		return toolResult(false, closingText, nil), nil
	}
	// The task is created with the run's status as the watch found it:
	// every change after that is notified. A change can be notified
	// before the SDK writes this result (the script's first call made at
	// once, say): over stdio the notification may come first on the
	// connection, and in an HTTP session it goes on another stream than
	// the result, so no order exists to keep. Clients cope: the
	// notifications are optional and a client polls tasks/get anyway, so
	// one that drops the status of a task it does not know yet sees that
	// status, or a newer one, at its next poll.
	select {
	case <-watching:
	case <-ctx.Done():
	}
	return &taskResult{Task: t.info()}, nil
}

// watchTask follows a task's run until it ends (or the task's time to
// live does, or the gateway closes), keeping the task's status current and
// notifying its client of each change as the run pushes it. watching is
// closed once the task holds the status the watch began with.
func (g *Gateway) watchTask(t *execTask, watching chan<- struct{}) {
	ctx, cancel := context.WithDeadline(g.lifetime, t.created.Add(t.ttl))
	defer cancel()
	var told *taskInfo // what the client was last told
	ended := false
	err := g.sys.WatchRun(ctx, t.run, func(st mcpexec.RunStatus) {
		t.set(string(st.State), statusMessage(st.Summary))
		ended = st.State.Ended()
		now := t.info()
		switch {
		case told == nil:
			// The client learns this one from the task's creation.
			close(watching)
		case now.Status == told.Status && now.StatusMessage == told.StatusMessage:
			return
		case t.notify != nil:
			t.notify(now)
		}
		told = &now
	})
	if told == nil {
		close(watching)
	}
	if err != nil && !ended && !errors.Is(err, mcpexec.ErrUnknownRun) {
		// Past its time to live, or the gateway is closing.
		g.sys.CancelRun(t.run)
	}
}

// statusMessage is a task's status message: the run's live summary on a
// line.
func statusMessage(summary string) string {
	return exectool.OneLine(summary)
}

func (g *Gateway) taskGet(ctx context.Context, ss *mcp.ServerSession, p *taskParams) (*taskState, error) {
	t, ok := g.tasks.of(g.identity(caller{session: ss}), p.TaskID)
	if !ok {
		return nil, errUnknownTask
	}
	if st, err := g.sys.RunStatus(ctx, t.run); err == nil {
		t.set(string(st.State), statusMessage(st.Summary))
	}
	return &taskState{taskInfo: t.info()}, nil
}

func (g *Gateway) taskList(_ context.Context, ss *mcp.ServerSession, _ *listParams) (*taskList, error) {
	out := &taskList{Tasks: []taskInfo{}}
	for _, t := range g.tasks.list(g.identity(caller{session: ss})) {
		out.Tasks = append(out.Tasks, t.info())
	}
	return out, nil
}

// taskCancel aborts the task's run and answers once it has ended: no
// nested call starts after that.
func (g *Gateway) taskCancel(ctx context.Context, ss *mcp.ServerSession, p *taskParams) (*taskState, error) {
	t, ok := g.tasks.of(g.identity(caller{session: ss}), p.TaskID)
	if !ok {
		return nil, errUnknownTask
	}
	g.sys.CancelRun(t.run)
	if _, err := g.sys.WaitRun(ctx, t.run, 0, nil); err != nil && !errors.Is(err, mcpexec.ErrUnknownRun) {
		return nil, err
	}
	if st, err := g.sys.RunStatus(ctx, t.run); err == nil {
		t.set(string(st.State), statusMessage(st.Summary))
	}
	return &taskState{taskInfo: t.info()}, nil
}

// taskResultOf waits for the task's run to end and returns its result. A
// run that waits for answers has its questions put to the client here, as
// elicitations that name the task; the answers resume it.
func (g *Gateway) taskResultOf(ctx context.Context, ss *mcp.ServerSession, p *taskParams) (*mcp.CallToolResult, error) {
	t, ok := g.tasks.of(g.identity(caller{session: ss}), p.TaskID)
	if !ok {
		return nil, errUnknownTask
	}
	related := mcp.Meta{relatedTaskKey: map[string]any{"taskId": p.TaskID}}
	res, err := g.sys.WaitRun(ctx, t.run, 0, nil)
	for err == nil && res.Pending != nil {
		answers := g.askTaskQuestions(ctx, ss, res.Pending, related)
		res, err = g.sys.ResumeRun(ctx, t.run, answers, nil)
	}
	if err != nil {
		return nil, errUnknownTask
	}
	out := execResult(res)
	out.Meta[relatedTaskKey] = related[relatedTaskKey]
	return out, nil
}

// askTaskQuestions puts a parked run's questions to its client.
func (g *Gateway) askTaskQuestions(ctx context.Context, ss *mcp.ServerSession, p *mcpexec.Pending, related mcp.Meta) map[string]mcpexec.Answer {
	answers := map[string]mcpexec.Answer{}
	for _, q := range p.Questions {
		switch {
		case q.Permission != nil:
			a, err := sessionPrompter{session: ss, meta: related}.Ask(ctx, *q.Permission)
			if err != nil {
				a.Reason = err.Error()
			}
			answers[q.ID] = mcpexec.Answer{Permission: a}
		case q.Elicitation != nil:
			answers[q.ID] = mcpexec.Answer{Elicitation: g.forwardTaskQuestion(ctx, ss, *q.Elicitation, related)}
		}
	}
	return answers
}

// forwardTaskQuestion passes a server's question on to the client, as a
// question of the task.
func (g *Gateway) forwardTaskQuestion(ctx context.Context, ss *mcp.ServerSession, r elicit.Request, related mcp.Meta) elicit.Response {
	if !canElicitMode(ss, r.Mode) {
		return elicit.Response{Action: elicit.Decline, Reason: cannotForwardReason(r.Mode)}
	}
	params := forwardedParams(r, g.describeHints)
	params.Meta = related
	res, err := ss.Elicit(ctx, params)
	if err != nil {
		return elicit.Response{Action: elicit.Cancel, Reason: err.Error()}
	}
	return elicit.Response{Action: elicit.Action(res.Action), Content: res.Content}
}
