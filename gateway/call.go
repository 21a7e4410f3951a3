package gateway

import (
	"context"
	"sync"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/mcpexec/mcpexec"
	"github.com/mcpexec/mcpexec/exectool"
)

// handler serves one offered tool: Exec runs a script, any other name is a
// flat MCP call. Both ask the calling session's person about calls no rule
// settles, and pass on to them the questions servers ask during the calls.
func (g *Gateway) handler(name string) mcp.ToolHandler {
	if name == exectool.Name {
		return g.exec
	}
	return func(ctx context.Context, req *mcp.CallToolRequest) (*mcp.CallToolResult, error) {
		ctx, cancel := g.bound(ctx)
		defer cancel()
		if asksByRoundTrip(req) {
			return g.flatParking(ctx, req, name)
		}
		ctx = mcpexec.WithPrompter(ctx, sessionPrompter{session: req.Session})
		ctx = mcpexec.WithElicitor(ctx, g.elicitorFor(req))
		res := g.sys.CallFlat(ctx, name, req.Params.Arguments)
		if res.Reply != nil {
			return passedOn(res.Reply), nil
		}
		return toolResult(res.OK, res.Text, res.Images), nil
	}
}

// exec runs an Exec call. Cancelling the request aborts the script; with a
// progress token, every nested call sends the live summary as a progress
// notification. A caller of the 2026-07-28 protocol gets the questions as
// input_required results (v20260728.go); an older one is asked within the
// call.
func (g *Gateway) exec(ctx context.Context, req *mcp.CallToolRequest) (*mcp.CallToolResult, error) {
	ctx, cancel := g.bound(ctx)
	defer cancel()
	ctx = tracedRequest(ctx, req)
	ctx = mcpexec.WithPrompter(ctx, sessionPrompter{session: req.Session})
	ctx = mcpexec.WithElicitor(ctx, g.elicitorFor(req))
	c := callerOf(req.Session, req.Extra, req.ClientInfo())
	if st := g.stateOf(c, true); st != nil {
		ctx = mcpexec.WithState(ctx, st)
	}
	var onProgress func(string)
	if token := req.Params.GetProgressToken(); token != nil {
		p := newProgress(ctx, req.Session, token)
		defer p.close()
		onProgress = p.update
	}
	if g.yield > 0 {
		hr, err := exectool.ParseHandle(req.Params.Arguments)
		switch {
		case err != nil:
			return toolResult(false, err.Error(), nil), nil
		case hr.Wait != "" || hr.Cancel != "":
			return g.execHandle(ctx, c, hr, onProgress), nil
		}
	}
	if asksByRoundTrip(req) {
		return g.execParking(ctx, req, c, onProgress)
	}
	if g.yield > 0 {
		res := g.sys.StartDetached(ctx, mcpexec.DeclareOptions{}, req.Params.Arguments, mcpexec.DetachOptions{Wait: g.yield}, onProgress)
		return g.execOutcome(c, "", res, false), nil
	}
	return execResult(g.sys.Exec(ctx, req.Params.Arguments, onProgress)), nil
}

// execResult is the tool result of an Exec run that ended.
func execResult(res mcpexec.ExecResult) *mcp.CallToolResult {
	out := toolResult(res.OK, res.Text, res.Images)
	if res.Stored != nil && res.Stored.URI != "" {
		// The text shows the value's first part: the link reaches the
		// whole, right after it.
		out.Content = append(out.Content[:1], append([]mcp.Content{resultLink(res.Stored)}, out.Content[1:]...)...)
	}
	out.Meta = mcp.Meta{AuditMetaKey: res.Audit}
	return out
}

// toolResult is a result as the model receives it: the text, then the
// images; a failure is flagged isError.
func toolResult(ok bool, text string, images []mcpexec.Image) *mcp.CallToolResult {
	res := &mcp.CallToolResult{Content: []mcp.Content{&mcp.TextContent{Text: text}}, IsError: !ok}
	for _, img := range images {
		res.Content = append(res.Content, &mcp.ImageContent{Data: img.Data, MIMEType: img.MIMEType})
	}
	return res
}

// progress sends a run's summaries as progress notifications, in order, from
// its own goroutine: a slow client must not hold up the script.
type progress struct {
	ctx     context.Context
	session *mcp.ServerSession
	token   any

	mu      sync.Mutex
	pending []string
	wake    chan struct{}
	done    chan struct{}
	closed  bool
}

func newProgress(ctx context.Context, ss *mcp.ServerSession, token any) *progress {
	p := &progress{ctx: ctx, session: ss, token: token, wake: make(chan struct{}, 1), done: make(chan struct{})}
	go p.send()
	return p
}

func (p *progress) update(summary string) {
	p.mu.Lock()
	defer p.mu.Unlock()
	if p.closed {
		return
	}
	p.pending = append(p.pending, summary)
	select {
	case p.wake <- struct{}{}:
	default:
	}
}

// close sends what is pending and stops: the client hears every
// notification before the result.
func (p *progress) close() {
	p.mu.Lock()
	p.closed = true
	p.mu.Unlock()
	select {
	case p.wake <- struct{}{}:
	default:
	}
	<-p.done
}

func (p *progress) send() {
	defer close(p.done)
	sent := 0
	for {
		<-p.wake
		p.mu.Lock()
		batch, closed := p.pending, p.closed
		p.pending = nil
		p.mu.Unlock()
		for _, summary := range batch {
			sent++
			err := p.session.NotifyProgress(p.ctx, &mcp.ProgressNotificationParams{
				ProgressToken: p.token, Progress: float64(sent), Message: exectool.OneLine(summary),
			})
			if err != nil {
				closed = true // the client is gone: the rest cannot be delivered
				break
			}
		}
		if closed {
			return
		}
	}
}
