package sandbox

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"sync"
)

// fakeHost is an in-process Host for tests: each tool is a Go function of the
// raw argument JSON, and every call is recorded.
type fakeHost struct {
	mu     sync.Mutex
	tools  map[string]func(ctx context.Context, args json.RawMessage) (CallResult, error)
	calls  []hostCallRecord
	search func(args json.RawMessage) (json.RawMessage, error)
}

type hostCallRecord struct {
	Name string
	Args string
}

func newFakeHost() *fakeHost {
	return &fakeHost{tools: map[string]func(context.Context, json.RawMessage) (CallResult, error){}}
}

func (h *fakeHost) tool(name string, fn func(ctx context.Context, args json.RawMessage) (CallResult, error)) *fakeHost {
	h.tools[name] = fn
	return h
}

// value registers a tool that always answers with the given JSON.
func (h *fakeHost) value(name, valueJSON string) *fakeHost {
	return h.tool(name, func(context.Context, json.RawMessage) (CallResult, error) {
		return CallResult{Value: json.RawMessage(valueJSON)}, nil
	})
}

func (h *fakeHost) CallTool(ctx context.Context, name string, args json.RawMessage) (CallResult, error) {
	h.mu.Lock()
	h.calls = append(h.calls, hostCallRecord{name, string(args)})
	fn := h.tools[name]
	h.mu.Unlock()
	if fn == nil {
		return CallResult{}, fmt.Errorf("tool %s vanished", name)
	}
	return fn(ctx, args)
}

func (h *fakeHost) Search(_ context.Context, args json.RawMessage) (json.RawMessage, error) {
	h.mu.Lock()
	h.calls = append(h.calls, hostCallRecord{SearchCallName, string(args)})
	fn := h.search
	h.mu.Unlock()
	if fn == nil {
		return nil, errors.New("search is not available")
	}
	return fn(args)
}

func (h *fakeHost) recorded() []hostCallRecord {
	h.mu.Lock()
	defer h.mu.Unlock()
	return append([]hostCallRecord(nil), h.calls...)
}

func (h *fakeHost) names() []string {
	var names []string
	for n := range h.tools {
		names = append(names, n)
	}
	return names
}

// run executes code against h with every registered tool reachable.
func run(h *fakeHost, code string, limits ...Limits) Result {
	req := Request{Code: code, Host: h, Tools: NewToolSet(h.names())}
	if len(limits) > 0 {
		req.Limits = limits[0]
	}
	return Run(context.Background(), req)
}
