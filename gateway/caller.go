package gateway

import (
	"crypto/sha256"
	"encoding/hex"
	"net/http"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/mcpexec/mcpexec/state"
)

// caller is who a request comes from: the conversation whose state a
// script reaches, and the one a requestState is issued to.
//
// Where the protocol has a session (2025-11-25 and older, and any version
// over stdio, where one process serves one connection), the client is the
// session. A 2026-07-28 request over HTTP comes without one: the client is
// then what the request proves or says about its sender, the same on every
// request: its credentials (the Authorization header; with a token
// required, that is who may use the gateway at all) and the name it gives
// in clientInfo. Two instances of one client application with one token
// are one client: they share a state, and may answer each other's
// questions, as two windows of one person.
type caller struct {
	// session is the client's session, nil for a sessionless client.
	session *mcp.ServerSession
	// key names a sessionless client.
	key string
}

// callerOf is the client of a request from ss, with the request's HTTP
// extra (nil over stdio) and the clientInfo it declared.
func callerOf(ss *mcp.ServerSession, extra *mcp.RequestExtra, info *mcp.Implementation) caller {
	if extra == nil || extra.Header == nil || ss.ID() != "" {
		return caller{session: ss}
	}
	return caller{key: sessionlessKey(extra.Header, info)}
}

// sessionlessKey names a sessionless client: a hash of its credentials
// (kept out of memory dumps and logs) and its declared name.
func sessionlessKey(h http.Header, info *mcp.Implementation) string {
	sum := sha256.Sum256([]byte(h.Get("Authorization")))
	name := ""
	if info != nil {
		name = info.Name
	}
	return "http " + hex.EncodeToString(sum[:]) + " " + name
}

// stateOf is the state of c, made on its first use when create is set; nil
// when it has none (or the gateway is closing).
func (g *Gateway) stateOf(c caller, create bool) *state.State {
	if c.session == nil {
		return g.states.ofClient(c.key, create)
	}
	if create {
		return g.states.of(c.session)
	}
	return g.states.lookup(c.session)
}

// identity is the string a requestState is bound to: a session's own
// random nonce (a session id would do over HTTP, but stdio has none), or a
// sessionless client's key.
func (g *Gateway) identity(c caller) string {
	if c.session == nil {
		return c.key
	}
	if e := g.states.entry(c.session); e != nil {
		return "session " + e.nonce
	}
	return ""
}
