package pool

import (
	"context"
	"strconv"
	"sync"
	"sync/atomic"

	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// Progress is one progress notification a server sent about a call.
type Progress struct {
	// Tool is the call's full name.
	Tool string
	// Message, Progress and Total are the server's own (Total is 0 when
	// unknown).
	Message         string
	Progress, Total float64
}

type progressKey struct{}

// WithProgress returns ctx asking the servers of the calls made under it
// for progress notifications, which are handed to onProgress as they
// arrive, on the connection's goroutine: keep it short.
func WithProgress(ctx context.Context, onProgress func(Progress)) context.Context {
	return context.WithValue(ctx, progressKey{}, onProgress)
}

func progressFrom(ctx context.Context) func(Progress) {
	f, _ := ctx.Value(progressKey{}).(func(Progress))
	return f
}

// progressRoutes hands servers' progress notifications to the callers that
// asked for them, by progress token.
type progressRoutes struct {
	next   atomic.Uint64
	routes sync.Map // token string -> func(*mcp.ProgressNotificationParams)
}

// open gives params a fresh progress token routed to onProgress until
// close is called.
func (r *progressRoutes) open(params *mcp.CallToolParams, tool string, onProgress func(Progress)) (close func()) {
	token := "mcpexec-" + strconv.FormatUint(r.next.Add(1), 10)
	params.SetProgressToken(token)
	r.routes.Store(token, func(p *mcp.ProgressNotificationParams) {
		onProgress(Progress{Tool: tool, Message: p.Message, Progress: p.Progress, Total: p.Total})
	})
	return func() { r.routes.Delete(token) }
}

// deliver routes one notification; one whose call has returned is dropped.
func (r *progressRoutes) deliver(_ context.Context, req *mcp.ProgressNotificationClientRequest) {
	token, ok := req.Params.ProgressToken.(string)
	if !ok {
		return
	}
	if f, ok := r.routes.Load(token); ok {
		f.(func(*mcp.ProgressNotificationParams))(req.Params)
	}
}
