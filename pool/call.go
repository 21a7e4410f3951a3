package pool

import (
	"context"
	"encoding/json"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// Call is the funnel: the one entry point for every MCP tool call, flat or
// nested. It resolves name in the current pool, asks the gate, sends
// tools/call to the tool's server with args exactly as given (no renaming,
// defaults or validation; empty args send {}), and projects the reply with
// Project. Every error is a *CallError or a *ToolError (the tool's own
// isError text) that a caller can show to a model.
//
// The name is resolved before the gate so that nobody is asked to approve a
// tool that does not exist; the server's connection is looked up after it,
// since approval may take a while.
func (m *Manager) Call(ctx context.Context, name string, args json.RawMessage) (Result, error) {
	if ctx.Err() != nil {
		return Result{}, callError(ctx, name, "", nil, ctx.Err())
	}
	tool, ok := m.Snapshot().Lookup(name)
	if !ok {
		return Result{}, m.unavailable(name)
	}
	route, returnsInput := inputRouteOf(ctx)
	if err := m.admit(ctx, route, name, args); err != nil {
		if ctx.Err() != nil { // the caller gave up while the gate waited
			return Result{}, callError(ctx, name, tool.Server, nil, err)
		}
		msg := err.Error()
		if msg == "" {
			msg = textDenied(name)
		}
		return Result{}, &CallError{Tool: name, Kind: KindDenied, msg: msg, err: err}
	}
	srv := m.lookup(tool.Server)
	var live *liveSession
	if srv != nil {
		live = srv.live.Load()
	}
	if live == nil {
		if ctx.Err() != nil { // the wait at the gate outlasted the caller
			return Result{}, callError(ctx, name, tool.Server, nil, ctx.Err())
		}
		return Result{}, &CallError{Tool: name, Kind: KindServerDown, msg: textServerDown(name, tool.Server, m.whyDown(tool.Server))}
	}
	if limit := srv.cfg.CallTimeout; limit > 0 {
		var cancel context.CancelFunc
		ctx, cancel = context.WithTimeout(ctx, limit)
		defer cancel()
	}
	params := &mcp.CallToolParams{Name: tool.Leaf}
	if len(args) > 0 {
		params.Arguments = args
	}
	if c := route.continuation; c != nil {
		params.InputResponses, params.RequestState = c.Responses, c.State
	}
	if onProgress := progressFrom(ctx); onProgress != nil {
		defer m.progress.open(params, name, onProgress)()
	}
	if debugging(m.log) {
		askForCallLogs(params)
	}
	ctx, flight, done := srv.calls.add(ctx, name)
	defer done()
	if m.asTask(live, tool) {
		return m.callTask(ctx, live, flight, name, tool.Server, params)
	}
	callCtx, reply := withRawReply(ctx)
	optIn := live.offersTasks && !returnsInput
	callCtx = withTasksOptIn(callCtx, optIn)
	started := time.Now()
	res, err := live.session.CallTool(callCtx, params)
	m.noteDuration(tool, time.Since(started))
	if returnsInput && ctx.Err() == nil {
		if in, ok := inputRequiredIn(reply.get()); ok {
			// The SDK's client gave up on answering it (err), or
			// was told to leave it to its caller (res).
			return Result{InputRequired: in}, nil
		}
	}
	if err != nil {
		live.tap.forget(reply)
		ce := m.callFailed(ctx, name, tool.Server, live.ended, err)
		if ce.transportFailed() {
			srv.suspect()
		}
		return Result{}, ce
	}
	if task, ok := createdTask(reply.get()); ok {
		if optIn {
			return m.followExtensionTask(ctx, srv, live, flight, name, task)
		}
		return Result{}, m.refuseUnaskedTask(ctx, srv, live, name, task)
	}
	return ProjectRaw(name, res, reply.get())
}

// admit asks the Gate about a call. A call that continues one whose first
// leg the Gate admitted is not asked about again, since its answer was
// given; a RuleGate still refuses it when its rules forbid it now.
func (m *Manager) admit(ctx context.Context, route inputRoute, name string, args json.RawMessage) error {
	if route.continuation != nil {
		if rules, ok := m.opts.Gate.(RuleGate); ok {
			return rules.Forbidden(name)
		}
		return nil
	}
	return m.opts.Gate.Admit(ctx, name, args)
}

// unavailable explains a name that is not in the pool: its server is not
// connected (and why) when the name belongs to a configured server that is
// down, else it is unknown.
func (m *Manager) unavailable(name string) error {
	if down, ok := m.Snapshot().Unavailable(name); ok {
		return &CallError{Tool: name, Kind: KindServerDown, msg: textServerDown(name, down.Server, down.Why)}
	}
	return &CallError{Tool: name, Kind: KindUnknownTool, msg: textUnknownTool(name)}
}

// whyDown says why a server is not connected, from its status.
func (m *Manager) whyDown(server string) string {
	m.mu.Lock()
	defer m.mu.Unlock()
	if why := m.status[server].Why(); why != "" {
		return forModel(m.redactor, why)
	}
	// Listed as connected, but its session is gone: the run loop has not
	// recorded the end yet.
	return errConnectionEnding.Error()
}
