package gateway

import (
	"context"
	"crypto/rand"
	"encoding/json"
	"fmt"
	"sync"
	"time"

	"github.com/modelcontextprotocol/go-sdk/jsonrpc"
	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/mcpexec/mcpexec/exectool"
	"github.com/mcpexec/mcpexec/state"
)

// Each client is one conversation: its scripts' store and load reach a
// state of its own, and the results its Execs keep by reference are read
// with resources/read by that client alone. A client is a session where the
// protocol has one (2025-11-25 and older, and any version over stdio): the
// state lives in memory as long as the session does. A client of the
// stateless 2026-07-28 protocol over HTTP has no session; it is named by
// what it sends with every request (clientKey), and its state is forgotten
// once it has sent nothing for idleClientTimeout.

// idleClientTimeout is how long the state of a client without a session
// outlives its last request.
const idleClientTimeout = idleSessionTimeout

// sessionStates holds the state of every client that ran an Exec.
type sessionStates struct {
	limits state.Limits

	mu       sync.Mutex
	sessions map[*mcp.ServerSession]*sessionEntry
	clients  map[string]*clientEntry
	closed   bool
	ended    sync.WaitGroup // the goroutines forgetting ended sessions
}

// sessionEntry is what a session holds: its state, and the nonce that
// names it as a client.
type sessionEntry struct {
	state *state.State
	nonce string
}

// clientEntry is the state of a client without a session, and when it was
// last used.
type clientEntry struct {
	state *state.State
	used  time.Time
}

// entry returns the entry of ss, made on its first use; it is forgotten
// when the session ends. Nil when the gateway is closing.
func (s *sessionStates) entry(ss *mcp.ServerSession) *sessionEntry {
	s.mu.Lock()
	defer s.mu.Unlock()
	if e, ok := s.sessions[ss]; ok || s.closed {
		return e
	}
	if s.sessions == nil {
		s.sessions = map[*mcp.ServerSession]*sessionEntry{}
	}
	e := &sessionEntry{state: state.NewMemory(s.limits), nonce: rand.Text()}
	s.sessions[ss] = e
	s.ended.Add(1)
	go func() {
		defer s.ended.Done()
		_ = ss.Wait()
		s.mu.Lock()
		delete(s.sessions, ss)
		s.mu.Unlock()
	}()
	return e
}

// of returns the state of ss, made on its first use. Nil when the gateway
// is closing.
func (s *sessionStates) of(ss *mcp.ServerSession) *state.State {
	if e := s.entry(ss); e != nil {
		return e.state
	}
	return nil
}

// lookup returns the state of ss if it has one, without making it.
func (s *sessionStates) lookup(ss *mcp.ServerSession) *state.State {
	s.mu.Lock()
	defer s.mu.Unlock()
	if e, ok := s.sessions[ss]; ok {
		return e.state
	}
	return nil
}

// ofClient returns the state of the client without a session named key,
// made on its first use (create false: nil unless it exists), and forgets the
// states of clients idle too long. Nil when the gateway is closing.
func (s *sessionStates) ofClient(key string, create bool) *state.State {
	s.mu.Lock()
	defer s.mu.Unlock()
	now := time.Now()
	for k, e := range s.clients {
		if now.Sub(e.used) > idleClientTimeout {
			delete(s.clients, k)
		}
	}
	e, ok := s.clients[key]
	switch {
	case ok:
	case !create || s.closed:
		return nil
	default:
		if s.clients == nil {
			s.clients = map[string]*clientEntry{}
		}
		e = &clientEntry{state: state.NewMemory(s.limits)}
		s.clients[key] = e
	}
	e.used = now
	return e.state
}

// close stops making states, waits until every session's is forgotten (the
// sessions are closed first) and forgets the clients'.
func (s *sessionStates) close() {
	s.mu.Lock()
	s.closed = true
	s.clients = nil
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
	st := g.stateOf(callerOf(req.Session, req.Extra, req.ClientInfo()), false)
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
