package pool

import (
	"context"
	"encoding/json"
	"slices"
	"sync"
	"sync/atomic"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/mcpexec/mcpexec/elicit"
	"github.com/mcpexec/mcpexec/internal/telemetry"
	"github.com/mcpexec/mcpexec/pause"
)

// inflight is the set of a server's calls waiting for their reply. A
// server's question (elicitation) arrives on the connection, not on a call:
// these are the calls that may have asked it.
type inflight struct {
	mu    sync.Mutex
	calls map[*callInFlight]struct{}
}

type callInFlight struct {
	ctx  context.Context
	tool string
	// task is the id of the task the call runs as, once the server made
	// it ("" for a plain call).
	task atomic.Pointer[string]
}

// setTask records the task the call runs as: a server's question about
// that task is the call's.
func (c *callInFlight) setTask(id string) { c.task.Store(&id) }

func (c *callInFlight) runsTask(id string) bool {
	t := c.task.Load()
	return t != nil && *t == id
}

// askingCallKey marks the context of a call in flight: a question that
// arrives under it (a server that asks by returning input_required, which
// the SDK's client answers within the call) is known to be that call's.
type askingCallKey struct{}

// add records a call until done is called, and returns ctx marked as that
// call's.
func (f *inflight) add(ctx context.Context, tool string) (_ context.Context, _ *callInFlight, done func()) {
	c := &callInFlight{ctx: ctx, tool: tool}
	f.mu.Lock()
	if f.calls == nil {
		f.calls = map[*callInFlight]struct{}{}
	}
	f.calls[c] = struct{}{}
	f.mu.Unlock()
	return context.WithValue(ctx, askingCallKey{}, c), c, func() {
		f.mu.Lock()
		delete(f.calls, c)
		f.mu.Unlock()
	}
}

func (f *inflight) list() []*callInFlight {
	f.mu.Lock()
	defer f.mu.Unlock()
	out := make([]*callInFlight, 0, len(f.calls))
	for c := range f.calls {
		out = append(out, c)
	}
	return out
}

// elicit answers a server's elicitation/create with the person's answer.
// The question is about the call it arrived under when the SDK says so (a
// server that asks by returning input_required), else about every call of
// the server in flight (a server that sends the request on its own: MCP
// does not say which call asked). It goes to the Elicitor those calls were
// made under (elicit.WithElicitor), when they agree on one, else to
// Options.Elicitor. While the person answers, the budget clocks of those
// calls are stopped; when all of them have ended (an Exec aborted, a call
// timed out) the question is cancelled.
func (s *server) elicit(ctx context.Context, req *mcp.ElicitRequest) (*mcp.ElicitResult, error) {
	if _, returned := inputRouteOf(ctx); returned {
		// Asked by input_required during a call whose caller takes the
		// server's requests itself (inputrequired.go).
		return nil, errInputReturned
	}
	calls := s.calls.list()
	if c, ok := ctx.Value(askingCallKey{}).(*callInFlight); ok {
		calls = []*callInFlight{c}
	} else if task := relatedTask(req.Params.Meta); task != "" {
		// A task's question names its task: it is about the call that
		// runs it.
		for _, c := range calls {
			if c.runsTask(task) {
				calls = []*callInFlight{c}
				break
			}
		}
	}
	elicitor := s.elicitorFor(calls)
	if len(calls) == 1 {
		// The question belongs to the call: it is asked with the call's
		// context values (whose question it is), and ends with it.
		var stop func() bool
		ctx, stop = withCancelFrom(calls[0].ctx, ctx)
		defer stop()
	}
	ctx, cancel := context.WithCancel(ctx)
	defer cancel()
	r := elicit.Request{Server: s.cfg.Name, Mode: req.Params.Mode, Message: req.Params.Message,
		URL: req.Params.URL, ElicitationID: req.Params.ElicitationID}
	if r.Mode == "" {
		r.Mode = "form"
	}
	if req.Params.RequestedSchema != nil {
		if live := s.live.Load(); live != nil {
			r.Schema = live.tap.form(req.Params.RequestedSchema)
		} else {
			r.Schema, _ = json.Marshal(req.Params.RequestedSchema)
		}
	}
	if len(calls) > 0 {
		left := atomic.Int64{}
		left.Store(int64(len(calls)))
		for _, c := range calls {
			r.Tools = append(r.Tools, c.tool)
			defer pause.ForPerson(c.ctx)()
			stop := context.AfterFunc(c.ctx, func() {
				if left.Add(-1) == 0 {
					cancel()
				}
			})
			defer stop()
		}
		slices.Sort(r.Tools)
	}
	asked := time.Now()
	resp, err := elicitor.Elicit(ctx, r)
	for _, c := range calls {
		telemetry.PersonAnswered(c.ctx, "elicitation", string(resp.Action), time.Since(asked))
	}
	log := s.m.log.With().Str("server", s.cfg.Name).Logger()
	switch {
	case ctx.Err() != nil:
		log.Info().Msg("a server's question was cancelled: the calls waiting for it ended")
		return &mcp.ElicitResult{Action: string(elicit.Cancel)}, nil
	case err != nil:
		log.Warn().Err(err).Msg("a server's question could not be put to the person")
		return &mcp.ElicitResult{Action: string(elicit.Cancel)}, nil
	}
	switch resp.Action {
	case elicit.Accept:
		content := resp.Content
		if r.Mode == "form" {
			content = elicit.ApplyDefaults(r.Schema, content)
		} else {
			s.urlAsks.accepted(r.ElicitationID, elicitor)
		}
		return &mcp.ElicitResult{Action: string(elicit.Accept), Content: content}, nil
	case elicit.Decline:
		log.Warn().Str("question", r.Message).Str("reason", resp.Reason).Msg("declined a server's question")
		return &mcp.ElicitResult{Action: string(elicit.Decline)}, nil
	}
	if resp.Reason != "" {
		log.Info().Str("reason", resp.Reason).Msg("a server's question was cancelled")
	}
	return &mcp.ElicitResult{Action: string(elicit.Cancel)}, nil
}

// elicitorFor is who answers a question about calls: the Elicitor they were
// all made under, else the pool's own.
func (s *server) elicitorFor(calls []*callInFlight) elicit.Elicitor {
	var route elicit.Route
	for i, c := range calls {
		r := elicit.RouteOf(c.ctx)
		if i > 0 && r != route {
			s.m.log.Info().Str("server", s.cfg.Name).
				Msg("a server asked a question while calls made for different clients were in flight; the default answers it")
			return s.m.opts.Elicitor
		}
		route = r
	}
	if e := route.Elicitor(); e != nil {
		return e
	}
	return s.m.opts.Elicitor
}

// withCancelFrom returns a context with the values of base that ends when
// base or also ends; stop releases it.
func withCancelFrom(base, also context.Context) (context.Context, func() bool) {
	ctx, cancel := context.WithCancel(base)
	stop := context.AfterFunc(also, cancel)
	return ctx, func() bool {
		cancel()
		return stop()
	}
}

// relatedTask is the id of the task a server's request says it belongs to,
// "" when it names none.
func relatedTask(meta mcp.Meta) string {
	related, _ := meta[relatedTaskMetaKey].(map[string]any)
	id, _ := related["taskId"].(string)
	return id
}
