package testservers

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net"
	"strconv"
	"sync"

	"github.com/modelcontextprotocol/go-sdk/jsonrpc"
	"github.com/modelcontextprotocol/go-sdk/mcp"
)

type jsonrpcError = jsonrpc.Error

// Replay is a hand-written JSON-RPC MCP server that answers tools/list with
// recorded entries byte for byte, which the SDK's server cannot do for
// schemas it rejects (the gitlab-legacy-npm recording has inputSchemas that
// are only {"$schema": ...}). It speaks the 2025-11-25 protocol and refuses
// server/discover, as servers built on other SDKs do.
type Replay struct {
	// Tools are the tools/list entries, served as given.
	Tools []json.RawMessage
	// PageSize splits tools/list into pages of this many entries (0: one page).
	PageSize int
	// Instructions is sent in the initialize result when non-empty.
	Instructions string
	// ListResult, when set, replaces every tools/list result verbatim (for
	// malformed replies).
	ListResult json.RawMessage
	// StallList leaves every tools/list unanswered.
	StallList bool
	// CircularCursor makes every page point back to the first one.
	CircularCursor bool

	mu    sync.Mutex
	conns map[*replayConn]struct{}
	lists int
}

type replayConn struct {
	mu sync.Mutex // serialises writes
	w  io.WriteCloser
}

func (c *replayConn) send(v any) error {
	// Keep '<', '>' and '&' as recorded: json.Marshal would escape them.
	var buf bytes.Buffer
	enc := json.NewEncoder(&buf)
	enc.SetEscapeHTML(false)
	if err := enc.Encode(v); err != nil {
		return err
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	_, err := c.w.Write(buf.Bytes())
	return err
}

// Lists counts the tools/list requests served.
func (r *Replay) Lists() int {
	r.mu.Lock()
	defer r.mu.Unlock()
	return r.lists
}

// Flood sends n notifications/tools/list_changed on every open connection.
func (r *Replay) Flood(n int) {
	r.mu.Lock()
	conns := make([]*replayConn, 0, len(r.conns))
	for c := range r.conns {
		conns = append(conns, c)
	}
	r.mu.Unlock()
	note := map[string]any{"jsonrpc": "2.0", "method": "notifications/tools/list_changed"}
	for _, c := range conns {
		for range n {
			if c.send(note) != nil {
				break
			}
		}
	}
}

// DisconnectAll closes every open connection, as a server that goes away.
func (r *Replay) DisconnectAll() {
	r.mu.Lock()
	defer r.mu.Unlock()
	for c := range r.conns {
		_ = c.w.Close()
	}
}

// SetTools replaces the tools served from now on.
func (r *Replay) SetTools(tools []json.RawMessage) {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.Tools = tools
}

// Dial is a pool Dial function: each call starts a new in-memory connection
// served by r.
func (r *Replay) Dial(ctx context.Context) (mcp.Transport, error) {
	client, server := net.Pipe()
	go func() { _ = r.Serve(server) }()
	return &mcp.IOTransport{Reader: client, Writer: nopClose{client}}, nil
}

type nopClose struct{ io.Writer }

func (nopClose) Close() error { return nil }

type request struct {
	ID     json.RawMessage `json:"id"`
	Method string          `json:"method"`
	Params json.RawMessage `json:"params"`
}

// Serve answers requests on rw until it is closed.
func (r *Replay) Serve(rw io.ReadWriteCloser) error {
	defer rw.Close()
	c := &replayConn{w: rw}
	r.mu.Lock()
	if r.conns == nil {
		r.conns = map[*replayConn]struct{}{}
	}
	r.conns[c] = struct{}{}
	r.mu.Unlock()
	defer func() {
		r.mu.Lock()
		delete(r.conns, c)
		r.mu.Unlock()
	}()
	sc := bufio.NewScanner(rw)
	sc.Buffer(make([]byte, 1<<20), 64<<20)
	for sc.Scan() {
		var req request
		if err := json.Unmarshal(sc.Bytes(), &req); err != nil || req.ID == nil {
			continue // notifications and responses need no answer
		}
		if req.Method == "tools/list" && r.StallList {
			continue
		}
		result, rpcErr := r.answer(req)
		msg := map[string]any{"jsonrpc": "2.0", "id": req.ID}
		if rpcErr != nil {
			msg["error"] = rpcErr
		} else {
			msg["result"] = result
		}
		if err := c.send(msg); err != nil {
			return err
		}
	}
	return sc.Err()
}

func (r *Replay) answer(req request) (any, *jsonrpcError) {
	switch req.Method {
	case "initialize":
		init := map[string]any{
			"protocolVersion": "2025-11-25",
			"capabilities":    map[string]any{"tools": map[string]any{"listChanged": true}},
			"serverInfo":      map[string]any{"name": "replay", "version": "1"},
		}
		if r.Instructions != "" {
			init["instructions"] = r.Instructions
		}
		return init, nil
	case "ping":
		return map[string]any{}, nil
	case "tools/list":
		return r.list(req.Params)
	case "tools/call":
		var p struct {
			Name string `json:"name"`
		}
		_ = json.Unmarshal(req.Params, &p)
		return map[string]any{"content": []any{map[string]any{"type": "text", "text": "called " + p.Name}}}, nil
	}
	return nil, &jsonrpcError{Code: jsonrpc.CodeMethodNotFound, Message: "method not found: " + req.Method}
}

func (r *Replay) list(params json.RawMessage) (any, *jsonrpcError) {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.lists++
	if r.ListResult != nil {
		return r.ListResult, nil
	}
	var p struct {
		Cursor string `json:"cursor"`
	}
	_ = json.Unmarshal(params, &p)
	start := 0
	if p.Cursor != "" {
		n, err := strconv.Atoi(p.Cursor)
		if err != nil || n < 0 || n > len(r.Tools) {
			return nil, &jsonrpcError{Code: jsonrpc.CodeInvalidParams, Message: fmt.Sprintf("bad cursor %q", p.Cursor)}
		}
		start = n
	}
	end := len(r.Tools)
	if r.PageSize > 0 && start+r.PageSize < end {
		end = start + r.PageSize
	}
	page := map[string]any{"tools": append([]json.RawMessage{}, r.Tools[start:end]...)}
	switch {
	case r.CircularCursor && end == len(r.Tools):
		page["nextCursor"] = "0"
	case end < len(r.Tools):
		page["nextCursor"] = strconv.Itoa(end)
	}
	return page, nil
}
