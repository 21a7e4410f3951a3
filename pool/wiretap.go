package pool

import (
	"bytes"
	"context"
	"encoding/json"
	"slices"
	"sync"

	"github.com/modelcontextprotocol/go-sdk/jsonrpc"
	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// The SDK client decodes every inputSchema and every structuredContent into
// map[string]any, which loses the order of keys as the server wrote them (and
// that order is what a model reads in a signature or a result). wireTap
// records the raw result of tools/list replies (by cursor) and of the
// tools/call replies the funnel asks for (by a slot in the call's context),
// so the pool can keep both exactly as sent. It sees newline-JSON
// connections through tapConn and streamable HTTP through tapRoundTripper.
type wireTap struct {
	mu    sync.Mutex
	lists map[jsonrpc.ID]string // tools/list request id -> cursor asked for
	calls map[jsonrpc.ID]*rawReply
	pages map[string]json.RawMessage
	// forms holds the requested schemas of recent elicitations as sent,
	// keyed by their re-encoding (keys sorted), which is all the SDK's
	// handler gets: a form's fields are shown in the server's order.
	forms     map[string]json.RawMessage
	formOrder []string
}

// keptForms bounds the elicitation schemas remembered.
const keptForms = 16

func newWireTap() *wireTap {
	return &wireTap{lists: map[jsonrpc.ID]string{}, calls: map[jsonrpc.ID]*rawReply{}, pages: map[string]json.RawMessage{}, forms: map[string]json.RawMessage{}}
}

// form returns the schema as the server wrote it, given the SDK's decoding
// of it; decoded itself when it was not seen.
func (t *wireTap) form(decoded any) json.RawMessage {
	canonical, err := json.Marshal(decoded)
	if err != nil {
		return nil
	}
	t.mu.Lock()
	defer t.mu.Unlock()
	if raw, ok := t.forms[string(canonical)]; ok {
		return raw
	}
	return canonical
}

// sawForms records the requested schemas of an elicitation/create request
// or of a call result that requests input.
func (t *wireTap) sawForms(msg jsonrpc.Message) {
	var schemas []json.RawMessage
	switch m := msg.(type) {
	case *jsonrpc.Request:
		if m.Method != "elicitation/create" {
			return
		}
		var p struct {
			RequestedSchema json.RawMessage `json:"requestedSchema"`
		}
		if json.Unmarshal(m.Params, &p) == nil && len(p.RequestedSchema) > 0 {
			schemas = append(schemas, p.RequestedSchema)
		}
	case *jsonrpc.Response:
		if m.Error != nil || !bytes.Contains(m.Result, []byte(`"inputRequests"`)) {
			return
		}
		var r struct {
			InputRequests map[string]struct {
				Method string `json:"method"`
				Params struct {
					RequestedSchema json.RawMessage `json:"requestedSchema"`
				} `json:"params"`
				RequestedSchema json.RawMessage `json:"requestedSchema"`
			} `json:"inputRequests"`
		}
		if json.Unmarshal(m.Result, &r) != nil {
			return
		}
		for _, ir := range r.InputRequests {
			for _, s := range []json.RawMessage{ir.Params.RequestedSchema, ir.RequestedSchema} {
				if len(s) > 0 {
					schemas = append(schemas, s)
				}
			}
		}
	}
	for _, raw := range schemas {
		var decoded any
		if json.Unmarshal(raw, &decoded) != nil {
			continue
		}
		canonical, err := json.Marshal(decoded)
		if err != nil {
			continue
		}
		t.mu.Lock()
		if _, known := t.forms[string(canonical)]; !known {
			t.formOrder = append(t.formOrder, string(canonical))
			if len(t.formOrder) > keptForms {
				delete(t.forms, t.formOrder[0])
				t.formOrder = t.formOrder[1:]
			}
		}
		t.forms[string(canonical)] = raw
		t.mu.Unlock()
	}
}

// rawReply receives the raw result of one tools/call.
type rawReply struct {
	mu     sync.Mutex
	result json.RawMessage
}

func (r *rawReply) get() json.RawMessage {
	r.mu.Lock()
	defer r.mu.Unlock()
	return r.result
}

type rawReplyKey struct{}

// withRawReply returns a context under which a tools/call's raw result is
// recorded in the returned slot. The SDK hands the caller's context down to
// the connection's Write (and to the HTTP request), which is how the tap
// finds the slot.
func withRawReply(ctx context.Context) (context.Context, *rawReply) {
	r := &rawReply{}
	return context.WithValue(ctx, rawReplyKey{}, r), r
}

// page returns the last raw tools/list result seen for cursor.
func (t *wireTap) page(cursor string) (json.RawMessage, bool) {
	t.mu.Lock()
	defer t.mu.Unlock()
	raw, ok := t.pages[cursor]
	return raw, ok
}

// retain drops recorded pages other than those of cursors, the pages of the
// latest full listing: servers whose cursors change would otherwise make the
// record grow with every refresh.
func (t *wireTap) retain(cursors []string) {
	t.mu.Lock()
	defer t.mu.Unlock()
	for cursor := range t.pages {
		if !slices.Contains(cursors, cursor) {
			delete(t.pages, cursor)
		}
	}
}

// sent notes an outgoing request whose reply is wanted raw; it reports
// whether it noted msg.
func (t *wireTap) sent(ctx context.Context, msg jsonrpc.Message) bool {
	req, ok := msg.(*jsonrpc.Request)
	if !ok || !req.ID.IsValid() {
		return false
	}
	switch req.Method {
	case "tools/list":
		var params struct {
			Cursor string `json:"cursor"`
		}
		_ = json.Unmarshal(req.Params, &params) // absent or odd params: first page
		t.mu.Lock()
		t.lists[req.ID] = params.Cursor
		t.mu.Unlock()
		return true
	case "tools/call", methodTaskResult:
		slot, ok := ctx.Value(rawReplyKey{}).(*rawReply)
		if !ok {
			return false
		}
		t.mu.Lock()
		t.calls[req.ID] = slot
		t.mu.Unlock()
		return true
	}
	return false
}

func (t *wireTap) received(msg jsonrpc.Message) {
	t.sawForms(msg)
	resp, ok := msg.(*jsonrpc.Response)
	if !ok {
		return
	}
	t.mu.Lock()
	defer t.mu.Unlock()
	if cursor, ok := t.lists[resp.ID]; ok {
		delete(t.lists, resp.ID)
		if resp.Error == nil {
			t.pages[cursor] = resp.Result
		}
		return
	}
	if slot, ok := t.calls[resp.ID]; ok {
		delete(t.calls, resp.ID)
		slot.mu.Lock()
		slot.result = resp.Result
		slot.mu.Unlock()
	}
}

// forget drops a call whose reply will never come (cancelled, connection
// lost), so the map does not grow.
func (t *wireTap) forget(slot *rawReply) {
	t.mu.Lock()
	defer t.mu.Unlock()
	for id, s := range t.calls {
		if s == slot {
			delete(t.calls, id)
		}
	}
}

// tapTransport wraps a transport so its connection reports to tap.
type tapTransport struct {
	mcp.Transport
	tap *wireTap
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
	tap *wireTap
}

func (c *tapConn) Read(ctx context.Context) (jsonrpc.Message, error) {
	msg, err := c.Connection.Read(ctx)
	if err == nil {
		c.tap.received(msg)
	}
	return msg, err
}

// inputActivity forwards to a wrapped connection that counts it.
func (c *tapConn) inputActivity() int64 {
	if r, ok := c.Connection.(activeInput); ok {
		return r.inputActivity()
	}
	return 0
}

func (c *tapConn) Write(ctx context.Context, msg jsonrpc.Message) error {
	c.tap.sent(ctx, msg)
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
			Annotations  Annotations     `json:"annotations"`
			Execution    struct {
				TaskSupport string `json:"taskSupport"`
			} `json:"execution"`
		}
		if err := json.Unmarshal(entry, &t); err != nil {
			continue
		}
		if _, dup := out[t.Name]; dup {
			continue
		}
		out[t.Name] = Tool{Leaf: t.Name, Description: t.Description, InputSchema: t.InputSchema, OutputSchema: t.OutputSchema,
			Annotations: t.Annotations, TaskSupport: taskSupportOf(t.Execution.TaskSupport)}
	}
	return out, nil
}
