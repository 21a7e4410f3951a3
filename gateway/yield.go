package gateway

import (
	"context"
	"sync"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/mcpexec/mcpexec"
	"github.com/mcpexec/mcpexec/exectool"
)

// Yield and wait, for clients that give up on a tool call after a minute:
// with Options.YieldAfter, an Exec still running after that long returns a
// normal result that says "Still running" and names the run's handle; Exec
// with {"wait": handle} waits for it again and {"cancel": handle} stops it.
// A handle belongs to the client that started its run (its session, or a
// sessionless client's identity): another client's wait is refused, and a
// session that ends cancels the runs it left going.
// Once a wait or a cancel has returned a run's end, its handle is
// forgotten; the System remembers an ended run that nobody waited on for a
// bounded time (an hour), count and size.

// runHandles records which client started each run still answerable: a
// session, or a sessionless client by its identity (caller.go).
type runHandles struct {
	mu     sync.Mutex
	runs   map[mcpexec.RunID]string    // run -> its client's identity
	watch  map[*mcp.ServerSession]bool // sessions whose end is watched
	closed bool
	ended  sync.WaitGroup
}

// add records run as the client's (identity, and its session if it has
// one); when that session ends, its runs are cancelled.
func (h *runHandles) add(sys *mcpexec.System, identity string, ss *mcp.ServerSession, run mcpexec.RunID) {
	h.mu.Lock()
	defer h.mu.Unlock()
	if h.closed || identity == "" {
		sys.CancelRun(run)
		return
	}
	if h.runs == nil {
		h.runs, h.watch = map[mcpexec.RunID]string{}, map[*mcp.ServerSession]bool{}
	}
	h.runs[run] = identity
	if ss == nil || h.watch[ss] {
		return
	}
	h.watch[ss] = true
	h.ended.Add(1)
	go func() {
		defer h.ended.Done()
		_ = ss.Wait()
		h.mu.Lock()
		var left []mcpexec.RunID
		for id, owner := range h.runs {
			if owner == identity {
				left = append(left, id)
				delete(h.runs, id)
			}
		}
		delete(h.watch, ss)
		h.mu.Unlock()
		for _, id := range left {
			sys.CancelRun(id)
		}
	}()
}

// owns reports whether run is the client's and still answerable.
func (h *runHandles) owns(identity string, run mcpexec.RunID) bool {
	h.mu.Lock()
	defer h.mu.Unlock()
	owner, ok := h.runs[run]
	return ok && identity != "" && owner == identity
}

func (h *runHandles) forget(run mcpexec.RunID) {
	h.mu.Lock()
	defer h.mu.Unlock()
	delete(h.runs, run)
}

// close cancels no run itself: the sessions are closed first, and each
// one's end cancels its runs; close waits for that.
func (h *runHandles) close() {
	h.mu.Lock()
	h.closed = true
	h.mu.Unlock()
	h.ended.Wait()
}

// execHandle serves Exec's wait and cancel.
func (g *Gateway) execHandle(ctx context.Context, c caller, hr exectool.HandleRequest, onProgress func(string)) *mcp.CallToolResult {
	handle := hr.Wait + hr.Cancel
	run := mcpexec.RunID(handle)
	if !g.handles.owns(g.identity(c), run) {
		return toolResult(false, textUnknownHandle(handle), nil)
	}
	// A run that ended before the cancel came gives its end as it is.
	cancelled := hr.Cancel != "" && g.sys.CancelRun(run)
	res, err := g.sys.WaitRun(ctx, run, g.yieldAfter(hr), onProgress)
	if err != nil {
		g.handles.forget(run)
		return toolResult(false, textUnknownHandle(handle), nil)
	}
	return g.execOutcome(c, run, res, cancelled)
}

// yieldAfter is how long a call waits for a run: a cancel waits for its
// end, which comes at once.
func (g *Gateway) yieldAfter(hr exectool.HandleRequest) time.Duration {
	if hr.Cancel != "" {
		return 0
	}
	return g.yield
}

// execOutcome is the result of an Exec call that waited on a run (run,
// "" for the call that started it): still running (its handle kept), or
// its end (its handle forgotten).
func (g *Gateway) execOutcome(c caller, run mcpexec.RunID, res mcpexec.ExecResult, cancelled bool) *mcp.CallToolResult {
	if res.Running != "" {
		g.handles.add(g.sys, g.identity(c), c.session, res.Running)
		return toolResult(true, textStillRunning(string(res.Running), res.Summary), nil)
	}
	if run != "" {
		g.handles.forget(run)
	}
	if cancelled {
		return toolResult(false, textCancelledRun(res.Calls), nil)
	}
	return execResult(res)
}

// withHandles offers Exec's wait and cancel when runs may outlive calls.
func (g *Gateway) withHandles(decls []mcpexec.Declaration) []mcpexec.Declaration {
	if g.yield <= 0 {
		return decls
	}
	for i, d := range decls {
		if d.Name == exectool.Name {
			decls[i].Description = exectool.WithHandles(d.Description)
			decls[i].InputSchema = exectool.InputSchemaWithHandles()
		}
	}
	return decls
}
