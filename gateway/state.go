package gateway

import (
	"context"
	"encoding/json"
	"fmt"
	"sync"

	"github.com/modelcontextprotocol/go-sdk/jsonrpc"
	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/mcpexec/mcpexec/exectool"
	"github.com/mcpexec/mcpexec/state"
)

// Each MCP session is one conversation: its scripts' store and load reach a
// state of its own, and the results its Execs keep by reference are read
// with resources/read by that session alone. A session's state lives in
// memory as long as the session does.

// sessionStates holds the state of every session that ran an Exec.
type sessionStates struct {
	limits state.Limits

	mu     sync.Mutex
	states map[*mcp.ServerSession]*state.State
	closed bool
	ended  sync.WaitGroup // the goroutines forgetting ended sessions
}

// of returns the state of ss, made on its first use; it is forgotten when
// the session ends. Nil when the gateway is closing.
func (s *sessionStates) of(ss *mcp.ServerSession) *state.State {
	s.mu.Lock()
	defer s.mu.Unlock()
	if st, ok := s.states[ss]; ok || s.closed {
		return st
	}
	if s.states == nil {
		s.states = map[*mcp.ServerSession]*state.State{}
	}
	st := state.NewMemory(s.limits)
	s.states[ss] = st
	s.ended.Add(1)
	go func() {
		defer s.ended.Done()
		_ = ss.Wait()
		s.mu.Lock()
		delete(s.states, ss)
		s.mu.Unlock()
	}()
	return st
}

// lookup returns the state of ss if it has one, without making it.
func (s *sessionStates) lookup(ss *mcp.ServerSession) *state.State {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.states[ss]
}

// close stops making states and waits until every session's is forgotten
// (the sessions are closed first).
func (s *sessionStates) close() {
	s.mu.Lock()
	s.closed = true
	s.mu.Unlock()
	s.ended.Wait()
}

// resultTemplate is the resource template of the results sessions keep by
// reference.
var resultTemplate = &mcp.ResourceTemplate{
	Name:        "Exec results",
	URITemplate: state.URIPrefix + "{id}",
	Description: "The whole return value of an Exec script whose result text showed only its first part. " +
		"Readable by the session that ran the script, while it lasts.",
}

// readResult serves resources/read of a result kept by reference: its text
// (a string's own text, any other value's JSON), to the session that kept
// it alone.
func (g *Gateway) readResult(_ context.Context, req *mcp.ReadResourceRequest) (*mcp.ReadResourceResult, error) {
	uri := req.Params.URI
	st := g.states.lookup(req.Session)
	if st == nil {
		return nil, mcp.ResourceNotFoundError(uri)
	}
	value, ok, err := st.Result(uri)
	switch {
	case err != nil:
		return nil, err
	case !ok && st.Dropped(uri):
		return nil, &jsonrpc.Error{
			Code:    mcp.CodeResourceNotFound,
			Message: fmt.Sprintf("%s was dropped to make room for newer results of this session", uri),
			Data:    json.RawMessage(fmt.Sprintf(`{"uri":%q}`, uri)),
		}
	case !ok:
		return nil, mcp.ResourceNotFoundError(uri)
	}
	text, mimeType := state.Text(value)
	return &mcp.ReadResourceResult{Contents: []*mcp.ResourceContents{{URI: uri, MIMEType: mimeType, Text: text}}}, nil
}

// resultLink is the resource_link item of a result kept by reference.
func resultLink(stored *exectool.Stored) *mcp.ResourceLink {
	size := stored.Size
	return &mcp.ResourceLink{
		URI:         stored.URI,
		Name:        stored.Name(),
		Description: stored.Description(),
		MIMEType:    stored.MIMEType,
		Size:        &size,
		Meta:        mcp.Meta{ShapeMetaKey: stored.Shape},
	}
}

// ShapeMetaKey is the _meta key of a result link that carries the observed
// shape of the value it links to.
const ShapeMetaKey = "mcpexec/shape"
