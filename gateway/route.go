package gateway

import (
	"bytes"
	"encoding/json"
	"io"
	"net/http"

	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// One URL serves every protocol version. A client of 2025-11-25 or older
// opens a session (initialize, then Mcp-Session-Id on every request), in
// which the gateway can ask it questions mid-call; the SDK serves those
// statefully. A client of 2026-07-28 or later has no session: every request
// stands alone, says its version in the MCP-Protocol-Version header (and in
// its _meta), and the SDK serves it statelessly. versionRouter sends each
// request to the handler of its version.
type versionRouter struct {
	stateful, stateless http.Handler
}

// newVersionRouter serves g.server both ways.
func newVersionRouter(g *Gateway) *versionRouter {
	server := func(*http.Request) *mcp.Server { return g.server }
	return &versionRouter{
		stateful: mcp.NewStreamableHTTPHandler(server, &mcp.StreamableHTTPOptions{SessionTimeout: idleSessionTimeout}),
		// A stateless request's lifetime is its POST: a client that hangs
		// up abandons the call, and its script is aborted.
		stateless: mcp.NewStreamableHTTPHandler(server, &mcp.StreamableHTTPOptions{Stateless: true, PropagateRequestCancellation: true}),
	}
}

func (v *versionRouter) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	// Only the gateway marks a request as carrying tasks (carryTaskParam):
	// a copy the client sent goes, whichever handler serves the request.
	r.Header.Del(tasksCarriedHeader)
	if sessionless(r) {
		if refusal := taskNameMismatch(r); refusal != nil {
			w.Header().Set("Content-Type", "application/json")
			w.WriteHeader(http.StatusBadRequest)
			_, _ = w.Write(refusal)
			return
		}
		v.stateless.ServeHTTP(w, r)
		return
	}
	carryTaskParam(r)
	if r.Method == http.MethodGet {
		// A session's event stream: it carries the task status notifications.
		w = taskStatusWriter{w}
	}
	v.stateful.ServeHTTP(w, r)
}

// protocolVersionHeader carries a request's protocol version over HTTP.
const protocolVersionHeader = "Mcp-Protocol-Version"

// metaProtocolVersion is the _meta key of a 2026-07-28 request's version.
const metaProtocolVersion = "io.modelcontextprotocol/protocolVersion"

// maxPeek bounds the body read to route a request without a version
// header; a larger one goes to the stateful handler, which refuses it.
const maxPeek = mcp.DefaultMaxRequestBodyBytes

// sessionless reports whether r is a request of the sessionless protocol
// (2026-07-28 or later): its header says so, or, without the header, its
// _meta does (the stateless handler then refuses it for the missing
// header, as that protocol requires). A request that names a session is
// never sessionless.
func sessionless(r *http.Request) bool {
	if r.Header.Get("Mcp-Session-Id") != "" {
		return false
	}
	if v := r.Header.Get(protocolVersionHeader); v != "" {
		return v >= protocol20260728
	}
	body, ok := peekBody(r)
	if !ok {
		return false
	}
	var msg struct {
		Params struct {
			Meta map[string]any `json:"_meta"`
		} `json:"params"`
	}
	if json.Unmarshal(body, &msg) != nil {
		return false
	}
	v, _ := msg.Params.Meta[metaProtocolVersion].(string)
	return v >= protocol20260728
}

// peekBody reads a POST's body, up to maxPeek, and puts back what it read,
// so that the handler still reads the body whole. ok is false for a request
// without a body, one too large to peek at, or a failed read.
func peekBody(r *http.Request) (body []byte, ok bool) {
	if r.Method != http.MethodPost || r.Body == nil {
		return nil, false
	}
	body, err := io.ReadAll(io.LimitReader(r.Body, maxPeek+1))
	r.Body = struct {
		io.Reader
		io.Closer
	}{io.MultiReader(bytes.NewReader(body), r.Body), r.Body}
	return body, err == nil && len(body) <= maxPeek
}
