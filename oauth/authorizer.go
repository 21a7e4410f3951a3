package oauth

import (
	"context"

	"github.com/modelcontextprotocol/go-sdk/auth"
)

// Authorizer is the embedder's part of an authorization: it shows the
// person the authorization URL (print it, open a browser) and returns the
// code the authorization server redirected back with.
type Authorizer interface {
	// RedirectURL is where the authorization server sends the person back,
	// the same for every server; it is registered with authorization servers
	// that take dynamic registration.
	RedirectURL() string
	// Authorize shows req.URL to the person and waits for the redirect. It
	// returns when the redirect arrives or ctx ends (the connection gave up
	// or the daemon is stopping). The pool calls it from the connecting
	// server's own goroutine, so other servers keep working meanwhile;
	// several servers may ask at once.
	Authorize(ctx context.Context, req Request) (*auth.AuthorizationResult, error)
}

// Request is one authorization the person is asked for.
type Request struct {
	// Server is the MCP server's name in the servers file.
	Server string
	// URL is the authorization server's page to open.
	URL string
}
