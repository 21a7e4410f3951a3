package pool

import (
	"bytes"
	"context"
	"encoding/json"
	"maps"
	"net/http"
	"slices"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/mcpexec/mcpexec/elicit"
)

// This file is the client side of MCP tasks for servers of 2026-07-28,
// where they are the io.modelcontextprotocol/tasks extension (SEP-2663)
// and work unlike the experimental tasks of 2025-11-25 (tasks.go): the
// client declares the extension in a request's _meta client capabilities
// and the server alone decides whether the call becomes a task. It then
// answers with a CreateTaskResult (resultType "task", the task's fields
// flat); tasks/get reports the task with its result inlined once it ended,
// or with inputRequests while it waits for answers, which tasks/update
// gives; tasks/cancel cancels it. There is no task param, tasks/result or
// tasks/list.
//
// Every call to a server that declared the extension opts in, so the
// server decides, as the extension intends: a quick call still answers in
// the call, and the pool cannot know better which calls run long. The one
// exception is a call whose caller takes the server's requests for input
// itself (WithInputReturned): a task's questions are answered by
// tasks/update, which the caller's continuation (a tools/call retry)
// cannot carry, so such a call does not opt in and its server answers it
// in the call, asking by input_required as before.

// tasksExtension names the extension.
const tasksExtension = "io.modelcontextprotocol/tasks"

const methodTaskUpdate = "tasks/update"

// resultTypeTask marks a CreateTaskResult.
const resultTypeTask = "task"

// taskUpdateParams answers a task's inputRequests.
type taskUpdateParams struct {
	mcp.ParamsBase
	TaskID         string               `json:"taskId"`
	InputResponses mcp.InputResponseMap `json:"inputResponses"`
}

// taskAck is tasks/update's empty answer.
type taskAck struct {
	mcp.ResultBase
}

// taskFailure is the error a failed task of the extension reports.
type taskFailure struct {
	Code    int64  `json:"code"`
	Message string `json:"message"`
}

// newProtocol reports whether session speaks MCP 2026-07-28 or later,
// where tasks are the extension.
func newProtocol(session *mcp.ClientSession) bool {
	init := session.InitializeResult()
	return init != nil && init.ProtocolVersion >= "2026-07-28"
}

// offersTasksExtension reports whether session's server declared the
// extension (server/discover's capabilities.extensions).
func offersTasksExtension(session *mcp.ClientSession) bool {
	init := session.InitializeResult()
	if !newProtocol(session) || init.Capabilities == nil {
		return false
	}
	_, ok := init.Capabilities.Extensions[tasksExtension]
	return ok
}

// tasksAsOffered keeps the tools' task support where calls of them can
// run as tasks: with a server of 2026-07-28 only when it declared the
// extension (its tools/list may still mark tools that need or allow one).
func tasksAsOffered(session *mcp.ClientSession, tools []Tool) []Tool {
	if !newProtocol(session) || offersTasksExtension(session) {
		return tools
	}
	for i := range tools {
		tools[i].TaskSupport = ""
	}
	return tools
}

type tasksOptInKey struct{}

// withTasksOptIn returns ctx under which a request to a server of
// 2026-07-28 declares the extension (declareTasksExtension), or does not.
// Every call sets it, so a call never inherits another's choice from a
// context it was made under (an Elicitor's, a sampling handler's).
func withTasksOptIn(ctx context.Context, optIn bool) context.Context {
	return context.WithValue(ctx, tasksOptInKey{}, optIn)
}

// declareTasksExtension adds the extension to the _meta client
// capabilities of a request sent under withTasksOptIn. The SDK fills those
// capabilities in before the sending middleware runs (only for sessions of
// 2026-07-28 or later, which is why a request without them is left alone),
// and its retries of a call that asked for input copy the params, so they
// declare it too.
func declareTasksExtension(next mcp.MethodHandler) mcp.MethodHandler {
	return func(ctx context.Context, method string, req mcp.Request) (mcp.Result, error) {
		if optIn, _ := ctx.Value(tasksOptInKey{}).(bool); optIn {
			if params := req.GetParams(); params != nil {
				if caps, ok := params.GetMeta()[mcp.MetaKeyClientCapabilities]; ok {
					// A copy: the params' own map may be the caller's.
					meta := maps.Clone(params.GetMeta())
					meta[mcp.MetaKeyClientCapabilities] = withExtension(caps)
					params.SetMeta(meta)
				}
			}
		}
		return next(ctx, method, req)
	}
}

// withExtension is caps, as the SDK encodes them, with the extension.
func withExtension(caps any) any {
	raw, err := json.Marshal(caps)
	if err != nil {
		return caps
	}
	var obj map[string]any
	if json.Unmarshal(raw, &obj) != nil || obj == nil {
		return caps
	}
	ext, _ := obj["extensions"].(map[string]any)
	if ext == nil {
		ext = map[string]any{}
	}
	ext[tasksExtension] = map[string]any{}
	obj["extensions"] = ext
	return obj
}

// createdTask reads a tools/call reply's raw result: the task the server
// made of the call, if it is a CreateTaskResult.
func createdTask(raw json.RawMessage) (taskState, bool) {
	// Every reply is asked, most of them results of any size: only one
	// whose resultType says task is decoded whole.
	var kind struct {
		ResultType string `json:"resultType"`
	}
	if !bytes.Contains(raw, []byte(`"resultType"`)) || json.Unmarshal(raw, &kind) != nil || kind.ResultType != resultTypeTask {
		return taskState{}, false
	}
	var created taskState
	if json.Unmarshal(raw, &created) != nil || created.TaskID == "" {
		return taskState{}, false
	}
	created.fromExtension()
	return created, true
}

// followExtensionTask follows the task a server of 2026-07-28 made of a
// call to its end, and returns its result. When ctx ends or the connection
// closes, the task is cancelled on the server before the call returns.
func (m *Manager) followExtensionTask(ctx context.Context, srv *server, live *liveSession, flight *callInFlight, name string, task taskState) (Result, error) {
	w := &taskWatch{m: m, ctx: withTaskName(withTasksOptIn(ctx, true), task.TaskID), live: live, srv: srv, name: name, server: srv.cfg.Name,
		onStatus: taskStatusFrom(ctx), onProgress: progressFrom(ctx), task: task, started: time.Now(), answered: map[string]bool{}}
	if !live.tasks.enter() {
		w.cancel()
		return Result{}, &CallError{Tool: name, Kind: KindConnectionLost, msg: textConnectionLost(name, w.server)}
	}
	defer live.tasks.leave()
	flight.setTask(task.TaskID)
	w.report()
	out, err := w.awaitExtension()
	w.reportEnd(err)
	return out, err
}

// refuseUnaskedTask answers a call that did not opt in to tasks and got
// one all the same: it has no result to give, and following the task
// could ask questions its caller means to answer itself. The task is
// cancelled, so it does not run on unseen.
func (m *Manager) refuseUnaskedTask(ctx context.Context, srv *server, live *liveSession, name string, task taskState) error {
	w := &taskWatch{m: m, ctx: withTaskName(ctx, task.TaskID), live: live, srv: srv, name: name, server: srv.cfg.Name, task: task}
	w.cancel()
	return &CallError{Tool: name, Kind: KindProtocol, msg: textTaskUnasked(name, w.server)}
}

// awaitExtension polls the task no faster than the server asks until it
// ends, answering its questions on the way.
func (w *taskWatch) awaitExtension() (Result, error) {
	timer := time.NewTimer(w.task.pollEvery())
	defer timer.Stop()
	for {
		select {
		case <-w.ctx.Done():
			return w.abandoned()
		case <-w.live.tasks.closing:
			return w.connectionLost()
		case <-timer.C:
		}
		// The task is asked about before its time to live is checked: one
		// that ended just in time has its result still.
		next, err := mcp.CallCustomMethod[*taskParams, *taskState](w.ctx, w.live.session, methodTaskGet, &taskParams{TaskID: w.task.TaskID})
		if err != nil {
			w.cancel()
			if w.ctx.Err() != nil {
				return Result{}, callError(w.ctx, w.name, w.server, nil, w.ctx.Err())
			}
			if w.expired() {
				return Result{}, w.expiredError()
			}
			return Result{}, w.m.callFailed(w.ctx, w.name, w.server, w.live.ended, err)
		}
		next.fromExtension()
		w.take(next)
		if !next.terminal() && w.expired() {
			w.cancel()
			return Result{}, w.expiredError()
		}
		if next.Status != taskInputRequired {
			// The questions answered are done with: a key the server
			// uses again asks a new question.
			clear(w.answered)
		}
		switch next.Status {
		case taskCompleted:
			return w.inlinedResult(next)
		case taskFailed:
			if len(next.Result) > 0 {
				return w.inlinedResult(next)
			}
			why := "it gave no reason"
			if next.Error != nil && next.Error.Message != "" {
				why = w.m.forModel(next.Error.Message) // the server's own words
			}
			return Result{}, &CallError{Tool: w.name, Kind: KindProtocol, msg: textTaskFailed(w.name, w.server, why)}
		case taskCancelled:
			return Result{}, &CallError{Tool: w.name, Kind: KindProtocol, msg: textTaskCancelled(w.name, w.server)}
		case taskInputRequired:
			if err := w.answer(next.InputRequests); err != nil {
				w.cancel()
				if w.connectionClosing() {
					// The question ended because the connection is going:
					// that, not the unanswered question, is why.
					return Result{}, &CallError{Tool: w.name, Kind: KindConnectionLost, msg: textConnectionLost(w.name, w.server)}
				}
				return Result{}, err
			}
		}
		timer.Reset(w.task.pollEvery())
	}
}

// inlinedResult is the call's result: the one tasks/get inlined.
func (w *taskWatch) inlinedResult(t *taskState) (Result, error) {
	var res mcp.CallToolResult
	if err := json.Unmarshal(t.Result, &res); err != nil {
		return Result{}, &CallError{Tool: w.name, Kind: KindProtocol, msg: textTaskFailed(w.name, w.server, "its result could not be read"), err: err}
	}
	return ProjectRaw(w.name, &res, t.Result)
}

// connectionClosing reports whether the task's connection is closing.
func (w *taskWatch) connectionClosing() bool {
	select {
	case <-w.live.tasks.closing:
		return true
	default:
		return false
	}
}

// untilClosing returns the watch's context, ended also when the
// connection starts closing. A person may take longer to answer than a
// closing connection waits for its tasks to be cancelled; the question
// must end then, so the cancel is sent while the connection still
// carries it.
func (w *taskWatch) untilClosing() (context.Context, context.CancelFunc) {
	ctx, cancel := context.WithCancel(w.ctx)
	go func() {
		select {
		case <-w.live.tasks.closing:
			cancel()
		case <-ctx.Done():
		}
	}()
	return ctx, cancel
}

// answer puts the task's questions not answered yet through the pool's
// elicitation path and gives the answers by tasks/update. A server may
// report the questions once more before it took the answers in: those
// are not asked again. A key is remembered only while the server lists
// it, so a question asked later under the same key is answered. Both end
// when the connection starts closing.
func (w *taskWatch) answer(requests json.RawMessage) error {
	ctx, stop := w.untilClosing()
	defer stop()
	var asked mcp.InputRequestMap
	if len(requests) > 0 {
		if err := json.Unmarshal(requests, &asked); err != nil {
			return &CallError{Tool: w.name, Kind: KindProtocol, msg: textTaskFailed(w.name, w.server, "its questions could not be read"), err: err}
		}
	}
	for key := range w.answered {
		if _, still := asked[key]; !still {
			delete(w.answered, key) // the server took the answer in
		}
	}
	// In the order of their keys, so the same questions are put to the
	// person in the same order every time.
	responses := mcp.InputResponseMap{}
	for _, key := range slices.Sorted(maps.Keys(asked)) {
		if w.answered[key] {
			continue
		}
		resp, err := w.respond(ctx, asked[key])
		if err != nil {
			// The answers a person already gave are not thrown away:
			// the server gets them even though the call fails.
			_ = w.update(ctx, responses)
			return err
		}
		responses[key] = resp
	}
	return w.update(ctx, responses)
}

// update gives the task the answers by tasks/update, if there are any.
func (w *taskWatch) update(ctx context.Context, responses mcp.InputResponseMap) error {
	if len(responses) == 0 {
		return nil
	}
	if _, err := mcp.CallCustomMethod[*taskUpdateParams, *taskAck](ctx, w.live.session, methodTaskUpdate,
		&taskUpdateParams{TaskID: w.task.TaskID, InputResponses: responses}); err != nil {
		return w.m.callFailed(w.ctx, w.name, w.server, w.live.ended, err)
	}
	for key := range responses {
		w.answered[key] = true
	}
	return nil
}

// respond answers one of a task's questions as the pool answers one the
// server asks during a call: elicitation through the call's Elicitor,
// roots with the pool's (none), sampling with the embedder's handler.
func (w *taskWatch) respond(ctx context.Context, req mcp.InputRequest) (mcp.InputResponse, error) {
	switch p := req.(type) {
	case *mcp.ElicitParams:
		if elicit.RouteOf(ctx).Elicitor() == nil && w.m.opts.Elicitor == nil {
			// Nobody to ask: as a client without elicitation would.
			return &mcp.ElicitResult{Action: string(elicit.Decline)}, nil
		}
		return w.srv.elicit(ctx, &mcp.ElicitRequest{Session: w.live.session, Params: p})
	case *mcp.ListRootsParams:
		return &mcp.ListRootsResult{Roots: []*mcp.Root{}}, nil
	case *mcp.CreateMessageWithToolsParams:
		return w.sample(ctx, p)
	}
	return nil, w.unanswerable()
}

// unanswerable is the error of a task that asked for input this client
// does not give.
func (w *taskWatch) unanswerable() *CallError {
	return &CallError{Tool: w.name, Kind: KindProtocol, msg: textTaskFailed(w.name, w.server, "it asked for a kind of input this client does not give")}
}

// sample answers a task's sampling question with the embedder's handler.
// The SDK reads every sampling question as one that may carry tools; an
// embedder that set only the plain handler gets it as the SDK's own client
// would give it: without tools, one content block a message.
func (w *taskWatch) sample(ctx context.Context, p *mcp.CreateMessageWithToolsParams) (mcp.InputResponse, error) {
	opts := w.m.opts.ClientOptions
	if h := opts.CreateMessageWithToolsHandler; h != nil {
		return h(ctx, &mcp.CreateMessageWithToolsRequest{Session: w.live.session, Params: p})
	}
	h := opts.CreateMessageHandler
	if h == nil {
		return nil, w.unanswerable()
	}
	plain, ok := withoutTools(p)
	if !ok {
		return nil, &CallError{Tool: w.name, Kind: KindProtocol, msg: textTaskFailed(w.name, w.server, "it asked for sampling with several content blocks in a message, which this client does not give")}
	}
	return h(ctx, &mcp.CreateMessageRequest{Session: w.live.session, Params: plain})
}

// withoutTools is p as the plain sampling request (the SDK's own
// down-conversion is unexported): tools dropped, each message's one
// content block kept. False when a message has more than one.
func withoutTools(p *mcp.CreateMessageWithToolsParams) (*mcp.CreateMessageParams, bool) {
	msgs := make([]*mcp.SamplingMessage, 0, len(p.Messages))
	for _, m := range p.Messages {
		if len(m.Content) > 1 {
			return nil, false
		}
		var content mcp.Content
		if len(m.Content) == 1 {
			content = m.Content[0]
		}
		msgs = append(msgs, &mcp.SamplingMessage{Content: content, Role: m.Role})
	}
	return &mcp.CreateMessageParams{Meta: p.Meta, IncludeContext: p.IncludeContext, MaxTokens: p.MaxTokens, Messages: msgs,
		Metadata: p.Metadata, ModelPreferences: p.ModelPreferences, StopSequences: p.StopSequences,
		SystemPrompt: p.SystemPrompt, Temperature: p.Temperature}, true
}

// fromExtension fills the task's interval and time to live in from the
// fields the extension names them by.
func (t *taskState) fromExtension() {
	if t.TTL == nil {
		t.TTL = t.TTLMs
	}
	if t.PollInterval == nil {
		t.PollInterval = t.PollIntervalMs
	}
}

type taskNameKey struct{}

// withTaskName returns ctx under which the task methods name their task
// over HTTP (taskNameRoundTripper).
func withTaskName(ctx context.Context, id string) context.Context {
	return context.WithValue(ctx, taskNameKey{}, id)
}

// taskNameRoundTripper sets the Mcp-Name header of a task method sent
// over HTTP at 2026-07-28: it names the task, as tools/call's names its
// tool, and servers refuse a task method without it. The SDK sets the
// header for the standard methods alone; it hands the request's context
// to the HTTP request, which is how the task's id gets here.
type taskNameRoundTripper struct {
	next http.RoundTripper
}

func (t taskNameRoundTripper) RoundTrip(req *http.Request) (*http.Response, error) {
	id, ok := req.Context().Value(taskNameKey{}).(string)
	switch req.Header.Get("Mcp-Method") {
	case methodTaskGet, methodTaskUpdate, methodTaskCancel:
		if ok && req.Header.Get("Mcp-Name") == "" {
			req = req.Clone(req.Context()) // a RoundTripper leaves its request as it was given
			req.Header.Set("Mcp-Name", id)
		}
	}
	return t.next.RoundTrip(req)
}
