package gateway

import (
	"context"
	"encoding/json"
	"errors"
	"time"

	"github.com/modelcontextprotocol/go-sdk/jsonrpc"
	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/mcpexec/mcpexec"
	"github.com/mcpexec/mcpexec/exectool"
)

// Exec as a task for clients of 2026-07-28: the io.modelcontextprotocol/tasks
// extension (SEP-2663). The server declares it in server/discover; a client
// opts in per request, in its _meta client capabilities. Then the server,
// not the client, decides: an Exec still running after a moment
// (taskShortcut) returns a CreateTaskResult (resultType "task", the task's
// fields flat), a quicker one its result as usual, and one that asks first
// goes back input_required as any 2026-07-28 call does, its retry then
// following the same rule. tasks/get reports the task with its result
// inlined once ended (a script that throws is completed with an isError
// result: failed is kept for a task whose run this process forgot), or
// with the questions it waits on as inputRequests; tasks/update answers
// them, and tasks/cancel aborts the run; both answer with an empty ack.
// The v1 methods tasks/result and tasks/list are not part of it.
//
// Every request stands alone: a task belongs to the client's identity
// (caller.go), the same on each request, and lives in the gateway's task
// store until its time to live ends.

// tasksExtension names the extension.
const tasksExtension = "io.modelcontextprotocol/tasks"

const methodTasksUpdate = "tasks/update"

// taskShortcut is how long an Exec of a client with the extension runs
// before it becomes a task: a quick script answers in the call, sparing
// the client its polling.
const taskShortcut = time.Second

// updateParams are tasks/update's.
type updateParams struct {
	mcp.ParamsBase
	TaskID         string               `json:"taskId"`
	InputResponses mcp.InputResponseMap `json:"inputResponses"`
}

// negotiatedTasks reports whether req's client declared the extension.
func negotiatedTasks(req mcp.Request) bool {
	r, ok := req.(interface {
		ClientCapabilities() *mcp.ClientCapabilities
	})
	if !ok {
		return false
	}
	caps := r.ClientCapabilities()
	if caps == nil {
		return false
	}
	_, ok = caps.Extensions[tasksExtension]
	return ok
}

// missingTasksExtension is the error of a task method from a client that
// did not declare the extension.
func missingTasksExtension() error {
	data, _ := json.Marshal(mcp.MissingRequiredClientCapabilityData{
		RequiredCapabilities: &mcp.ClientCapabilities{Extensions: map[string]any{tasksExtension: map[string]any{}}}})
	return &jsonrpc.Error{Code: mcp.CodeMissingRequiredClientCapabilities,
		Message: "this method needs the " + tasksExtension + " extension in the request's client capabilities", Data: data}
}

// extensionMiddleware serves the extension to a 2026-07-28 request.
func (g *Gateway) extensionMiddleware(ctx context.Context, method string, req mcp.Request, next mcp.MethodHandler) (mcp.Result, error) {
	switch method {
	case "server/discover":
		res, err := next(ctx, method, req)
		if err != nil {
			return res, err
		}
		return rewritten(res, complete(declareExtension))
	case "tools/list":
		res, err := next(ctx, method, req)
		if err != nil {
			return res, err
		}
		return rewritten(res, complete(offerExecAsTask))
	case "tools/call":
		if call, ok := req.(*mcp.CallToolRequest); ok && call.Params.Name == exectool.Name && negotiatedTasks(req) && !g.handleCall(call) {
			return g.execAsExtensionTask(ctx, call, func() (mcp.Result, error) { return next(ctx, method, req) })
		}
	case methodTasksResult, methodTasksList:
		return nil, &jsonrpc.Error{Code: jsonrpc.CodeMethodNotFound, Message: method + " is not part of the " + tasksExtension + " extension: tasks/get returns a task's result"}
	case methodTasksGet, methodTasksUpdate, methodTasksCancel:
		if !negotiatedTasks(req) {
			return nil, missingTasksExtension()
		}
		return g.extensionTaskMethod(ctx, method, req)
	}
	return next(ctx, method, req)
}

// complete is edit, marking the result complete: the SDK marks its own
// results so after the middleware, but not a rewritten one.
func complete(edit func(map[string]any)) func(map[string]any) {
	return func(obj map[string]any) {
		edit(obj)
		obj["resultType"] = "complete"
	}
}

func declareExtension(discover map[string]any) {
	caps, _ := discover["capabilities"].(map[string]any)
	if caps == nil {
		caps = map[string]any{}
		discover["capabilities"] = caps
	}
	ext, _ := caps["extensions"].(map[string]any)
	if ext == nil {
		ext = map[string]any{}
		caps["extensions"] = ext
	}
	ext[tasksExtension] = map[string]any{}
}

// handleCall reports whether call is Exec's wait or cancel of a handle,
// which answers in the call.
func (g *Gateway) handleCall(call *mcp.CallToolRequest) bool {
	if g.yield <= 0 {
		return false
	}
	hr, err := exectool.ParseHandle(call.Params.Arguments)
	return err == nil && (hr.Wait != "" || hr.Cancel != "")
}

// execAsExtensionTask runs an Exec call of a client with the extension: a
// first call starts the run, a retry with a requestState answers its
// questions; either waits a moment for it, then makes it a task. The retry
// of a run another process holds is served as any retry (plain).
func (g *Gateway) execAsExtensionTask(ctx context.Context, call *mcp.CallToolRequest, plain func() (mcp.Result, error)) (mcp.Result, error) {
	c := callerOf(call.Session, call.Extra, call.ClientInfo())
	identity := g.identity(c)
	if identity == "" {
		return toolResult(false, closingText, nil), nil
	}
	runCtx := tracedRequest(ctx, call)
	if st := g.stateOf(c, true); st != nil {
		runCtx = mcpexec.WithState(runCtx, st)
	}
	var res mcpexec.ExecResult
	if state := call.Params.RequestState; state != "" {
		holder, run, err := g.requestStates.open(state, identity)
		if err != nil {
			return nil, &jsonrpc.Error{Code: jsonrpc.CodeInvalidParams, Message: err.Error()}
		}
		if holder != g.holder() {
			return plain()
		}
		status, err := g.sys.RunStatus(ctx, run)
		if err != nil {
			return toolResult(false, unknownRunText, nil), nil
		}
		if res, err = g.sys.ResumeDetached(runCtx, run, answersTo(status.Questions, call.Params.InputResponses), taskShortcut, nil); err != nil {
			return toolResult(false, unknownRunText, nil), nil
		}
	} else {
		res = g.sys.StartDetached(runCtx, mcpexec.DeclareOptions{}, call.Params.Arguments, mcpexec.DetachOptions{Wait: taskShortcut, Park: true}, nil)
	}
	switch {
	case res.Pending != nil:
		return &mcp.CallToolResult{
			InputRequests: inputRequests(res.Pending.Questions, g.describeHints),
			RequestState:  g.requestStates.seal(g.holder(), res.Pending.Run, identity),
		}, nil
	case res.Running == "":
		return execResult(res), nil
	}
	now := time.Now()
	t := &execTask{run: res.Running, owner: identity, created: now, ttl: maxTaskTTL, status: string(mcpexec.RunWorking), updated: now}
	if !g.tasks.add(t) {
		g.sys.CancelRun(t.run)
		return toolResult(false, closingText, nil), nil
	}
	return extensionResult("task", t.extensionFields()), nil
}

// extensionFields are the task's fields as the extension names them.
func (t *execTask) extensionFields() map[string]any {
	info := t.info()
	fields := map[string]any{"taskId": info.TaskID, "status": info.Status, "createdAt": info.CreatedAt,
		"lastUpdatedAt": info.LastUpdatedAt, "ttlMs": info.TTL, "pollIntervalMs": info.PollInterval}
	if info.StatusMessage != "" {
		fields["statusMessage"] = info.StatusMessage
	}
	return fields
}

// extensionResult is a result of the extension: fields, typed.
func extensionResult(resultType string, fields map[string]any) mcp.Result {
	fields["resultType"] = resultType
	raw, _ := json.Marshal(fields)
	return &rawResult{raw: raw}
}

// extensionTaskMethod serves tasks/get, tasks/update and tasks/cancel for
// the client of req.
func (g *Gateway) extensionTaskMethod(ctx context.Context, method string, req mcp.Request) (mcp.Result, error) {
	var id string
	var responses mcp.InputResponseMap
	switch p := req.GetParams().(type) {
	case *taskParams:
		id = p.TaskID
	case *updateParams:
		id, responses = p.TaskID, p.InputResponses
	}
	ss, _ := req.GetSession().(*mcp.ServerSession)
	var info *mcp.Implementation
	if r, ok := req.(interface{ ClientInfo() *mcp.Implementation }); ok {
		info = r.ClientInfo()
	}
	t, ok := g.tasks.of(g.identity(callerOf(ss, req.GetExtra(), info)), id)
	if !ok {
		return nil, errUnknownTask
	}
	switch method {
	case methodTasksUpdate:
		g.answerTask(t, responses)
		return extensionResult("complete", map[string]any{}), nil
	case methodTasksCancel:
		g.sys.CancelRun(t.run)
		if _, err := g.sys.WaitRun(ctx, t.run, 0, nil); err != nil && !errors.Is(err, mcpexec.ErrUnknownRun) {
			return nil, err
		}
		return extensionResult("complete", map[string]any{}), nil
	}
	return g.detailedTask(ctx, t)
}

// answerTask gives a task's run the answers to the questions it waits on,
// without waiting for it: one left unanswered keeps it waiting.
func (g *Gateway) answerTask(t *execTask, responses mcp.InputResponseMap) {
	status, err := g.sys.RunStatus(g.lifetime, t.run)
	if err != nil || status.State != mcpexec.RunInputRequired {
		return
	}
	if answers := answersTo(status.Questions, responses); len(answers) > 0 {
		_, _ = g.sys.ResumeDetached(g.lifetime, t.run, answers, time.Nanosecond, nil)
	}
}

// detailedTask is tasks/get's answer: the task, with its result once its
// run ended, or its questions while it waits for answers.
func (g *Gateway) detailedTask(ctx context.Context, t *execTask) (mcp.Result, error) {
	st, err := g.sys.RunStatus(ctx, t.run)
	if err != nil {
		t.set(string(mcpexec.RunFailed), "")
		fields := t.extensionFields()
		fields["error"] = map[string]any{"code": jsonrpc.CodeInternalError, "message": expiredRunText}
		return extensionResult("complete", fields), nil
	}
	state := st.State
	if state == mcpexec.RunFailed {
		// The script failed: the tool ran and reported it.
		state = mcpexec.RunCompleted
	}
	t.set(string(state), statusMessage(st.Summary))
	fields := t.extensionFields()
	switch state {
	case mcpexec.RunInputRequired:
		fields["inputRequests"] = inputRequests(st.Questions, g.describeHints)
	case mcpexec.RunCompleted:
		res, err := g.sys.WaitRun(ctx, t.run, 0, nil)
		if err != nil {
			return nil, errUnknownTask
		}
		fields["result"] = execResult(res)
	}
	return extensionResult("complete", fields), nil
}
