package pool

import (
	"context"
	"encoding/json"
	"sync"

	"github.com/modelcontextprotocol/go-sdk/jsonrpc"
	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// The SDK client decodes every inputSchema into a map[string]any, which loses
// the order of properties as the server wrote them (and that order is what a
// model reads in a signature). listTap records the raw result of every
// tools/list reply on the connection, by cursor, so the pool can keep each
// tool's entry exactly as listed. It wraps only newline-JSON connections
// (stdio, in-memory): the SDK keeps private hooks on its HTTP connections
// that a wrapper would hide.
type listTap struct {
	mu      sync.Mutex
	pending map[jsonrpc.ID]string // request id -> cursor asked for
	pages   map[string]json.RawMessage
}

func newListTap() *listTap {
	return &listTap{pending: map[jsonrpc.ID]string{}, pages: map[string]json.RawMessage{}}
}

// page returns the last raw tools/list result seen for cursor.
func (t *listTap) page(cursor string) (json.RawMessage, bool) {
	t.mu.Lock()
	defer t.mu.Unlock()
	raw, ok := t.pages[cursor]
	return raw, ok
}

func (t *listTap) sent(msg jsonrpc.Message) {
	req, ok := msg.(*jsonrpc.Request)
	if !ok || req.Method != "tools/list" || !req.ID.IsValid() {
		return
	}
	var params struct {
		Cursor string `json:"cursor"`
	}
	_ = json.Unmarshal(req.Params, &params) // absent or odd params: first page
	t.mu.Lock()
	t.pending[req.ID] = params.Cursor
	t.mu.Unlock()
}

func (t *listTap) received(msg jsonrpc.Message) {
	resp, ok := msg.(*jsonrpc.Response)
	if !ok {
		return
	}
	t.mu.Lock()
	defer t.mu.Unlock()
	cursor, ok := t.pending[resp.ID]
	if !ok {
		return
	}
	delete(t.pending, resp.ID)
	if resp.Error == nil {
		t.pages[cursor] = resp.Result
	}
}

// tapTransport wraps a transport so its connection reports to tap.
type tapTransport struct {
	mcp.Transport
	tap *listTap
}

func (t tapTransport) Connect(ctx context.Context) (mcp.Connection, error) {
	conn, err := t.Transport.Connect(ctx)
	if err != nil {
		return nil, err
	}
	return &tapConn{Connection: conn, tap: t.tap}, nil
}

// exitReason forwards to a wrapped process transport.
func (t tapTransport) exitReason() error {
	if r, ok := t.Transport.(interface{ exitReason() error }); ok {
		return r.exitReason()
	}
	return nil
}

type tapConn struct {
	mcp.Connection
	tap *listTap
}

func (c *tapConn) Read(ctx context.Context) (jsonrpc.Message, error) {
	msg, err := c.Connection.Read(ctx)
	if err == nil {
		c.tap.received(msg)
	}
	return msg, err
}

func (c *tapConn) Write(ctx context.Context, msg jsonrpc.Message) error {
	c.tap.sent(msg)
	return c.Connection.Write(ctx, msg)
}

// rawTools decodes a raw tools/list result into tools keyed by name, in
// listing order. Entries the SDK rejected are dropped by the caller.
func rawTools(raw json.RawMessage) (map[string]Tool, error) {
	var page struct {
		Tools []json.RawMessage `json:"tools"`
	}
	if err := json.Unmarshal(raw, &page); err != nil {
		return nil, err
	}
	out := make(map[string]Tool, len(page.Tools))
	for _, entry := range page.Tools {
		var t struct {
			Name         string          `json:"name"`
			Description  string          `json:"description"`
			InputSchema  json.RawMessage `json:"inputSchema"`
			OutputSchema json.RawMessage `json:"outputSchema"`
		}
		if err := json.Unmarshal(entry, &t); err != nil {
			continue
		}
		if _, dup := out[t.Name]; dup {
			continue
		}
		out[t.Name] = Tool{Leaf: t.Name, Description: t.Description, InputSchema: t.InputSchema, OutputSchema: t.OutputSchema}
	}
	return out, nil
}
