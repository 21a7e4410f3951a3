package mcpexec

import (
	"context"
	"encoding/json"
	"errors"

	"github.com/mcpexec/mcpexec/actors"
	"github.com/mcpexec/mcpexec/pool"
	"github.com/mcpexec/mcpexec/sandbox"
)

// execHost serves one Exec run's nested calls. A tool call goes through the
// same funnel as a flat call (NFR-3): the permission gate, then the pool;
// a search goes to the index of the run's own view, the same pool the run
// can reach (SEARCH-4).
type execHost struct {
	s    *System
	view *actors.View
	// caller is the Exec call's context, whose values (WithPrompter,
	// WithServerProgress) apply to every nested call.
	caller context.Context
}

func (h execHost) CallTool(ctx context.Context, name string, args json.RawMessage) (sandbox.CallResult, error) {
	res, err := h.s.call(withValuesOf{Context: ctx, values: h.caller}, name, args)
	if err != nil {
		return sandbox.CallResult{}, err
	}
	h.s.observe(h.view.Snapshot, name, res)
	value, err := valueJSON(res)
	if err != nil {
		return sandbox.CallResult{}, err
	}
	return sandbox.CallResult{Value: value, Images: images(res)}, nil
}

func (h execHost) Search(_ context.Context, args json.RawMessage) (json.RawMessage, error) {
	results, err := h.view.SearchIndex().Search(args)
	if err != nil {
		return nil, err
	}
	return json.Marshal(results)
}

var errUnreadableResult = errors.New("The tool returned a result that could not be read.")

// valueJSON is a projected tool value as JSON: the structured content (as
// the server wrote it, key order kept), the text as a JSON string, or null
// (ORCH-2).
func valueJSON(res pool.Result) (json.RawMessage, error) {
	if len(res.JSON) > 0 {
		return res.JSON, nil
	}
	if res.Value == nil {
		return json.RawMessage("null"), nil
	}
	data, err := json.Marshal(res.Value)
	if err != nil {
		return nil, errUnreadableResult
	}
	return data, nil
}

func images(res pool.Result) []sandbox.Image {
	if len(res.Images) == 0 {
		return nil
	}
	out := make([]sandbox.Image, len(res.Images))
	for i, img := range res.Images {
		out[i] = sandbox.Image{MIMEType: img.MIMEType, Data: img.Data}
	}
	return out
}

// call runs one MCP call through the pool's funnel (gate, tools/call,
// projection). Cancelling ctx cancels the call.
func (s *System) call(ctx context.Context, name string, args []byte) (pool.Result, error) {
	if s.pool == nil {
		return pool.Result{}, errors.New(msgNoMCPManager)
	}
	return s.pool.Call(ctx, name, args)
}

// snapshot is the pool as it is now; without an MCP manager it is empty
// (nil).
func (s *System) snapshot() *pool.Snapshot {
	if s.pool == nil {
		return nil
	}
	return s.pool.Snapshot()
}

// WaitReady waits until every configured server has been tried once
// (connected, or failed and retrying), or ctx ends.
func (s *System) WaitReady(ctx context.Context) error {
	if s.pool == nil {
		return nil
	}
	select {
	case <-s.pool.Ready():
		return nil
	case <-ctx.Done():
		return ctx.Err()
	}
}
