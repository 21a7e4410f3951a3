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
// A handle belongs to the session that started its run: another session's
// wait is refused, and a session that ends cancels the runs it left going.
// Once a wait or a cancel has returned a run's end, its handle is
// forgotten; the System remembers an ended run that nobody waited on for a
// bounded time (an hour) and count.

// runHandles records which session started each run still answerable.
type runHandles struct {
	mu     sync.Mutex
	runs   map[mcpexec.RunID]*mcp.ServerSession
	watch  map[*mcp.ServerSession]bool // sessions whose end is watched
	closed bool
	ended  sync.WaitGroup
}

// add records run as ss's; when ss ends, its runs are cancelled.
func (h *runHandles) add(sys *mcpexec.System, ss *mcp.ServerSession, run mcpexec.RunID) {
	h.mu.Lock()
	defer h.mu.Unlock()
	if h.closed {
		sys.CancelRun(run)
		return
	}
	if h.runs == nil {
		h.runs, h.watch = map[mcpexec.RunID]*mcp.ServerSession{}, map[*mcp.ServerSession]bool{}
	}
	h.runs[run] = ss
	if h.watch[ss] {
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
			if owner == ss {
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

// owns reports whether run is ss's and still answerable.
func (h *runHandles) owns(ss *mcp.ServerSession, run mcpexec.RunID) bool {
	h.mu.Lock()
	defer h.mu.Unlock()
	return h.runs[run] == ss && ss != nil
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
func (g *Gateway) execHandle(ctx context.Context, ss *mcp.ServerSession, hr exectool.HandleRequest, onProgress func(string)) *mcp.CallToolResult {
	handle := hr.Wait + hr.Cancel
	run := mcpexec.RunID(handle)
	if !g.handles.owns(ss, run) {
		return toolResult(false, textUnknownHandle(handle), nil)
	}
	// A run that ended before the cancel came gives its end as it is.
	cancelled := hr.Cancel != "" && g.sys.CancelRun(run)
	res, err := g.sys.WaitRun(ctx, run, g.yieldAfter(hr), onProgress)
	if err != nil {
		g.handles.forget(run)
		return toolResult(false, textUnknownHandle(handle), nil)
	}
	return g.execOutcome(ss, run, res, cancelled)
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
func (g *Gateway) execOutcome(ss *mcp.ServerSession, run mcpexec.RunID, res mcpexec.ExecResult, cancelled bool) *mcp.CallToolResult {
	if res.Running != "" {
		g.handles.add(g.sys, ss, res.Running)
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
