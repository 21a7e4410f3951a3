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
}

// add records a call until the returned function is called.
func (f *inflight) add(ctx context.Context, tool string) (done func()) {
	c := &callInFlight{ctx: ctx, tool: tool}
	f.mu.Lock()
	if f.calls == nil {
		f.calls = map[*callInFlight]struct{}{}
	}
	f.calls[c] = struct{}{}
	f.mu.Unlock()
	return func() {
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

// elicit answers a server's elicitation/create with the person's answer
// through Options.Elicitor. While the person answers, the budget clocks of
// the server's calls in flight are stopped; when all of those calls have
// ended (an Exec aborted, a call timed out) the question is cancelled.
func (s *server) elicit(ctx context.Context, req *mcp.ElicitRequest) (*mcp.ElicitResult, error) {
	calls := s.calls.list()
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
	resp, err := s.m.opts.Elicitor.Elicit(ctx, r)
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
