package oauth

import (
	"context"
	"errors"
	"fmt"
	"html"
	"net"
	"net/http"
	"net/url"
	"sync"
	"time"

	"github.com/modelcontextprotocol/go-sdk/auth"
)

// callbackPath is the redirect URL's path on the loopback listener.
const callbackPath = "/callback"

// Loopback is an Authorizer for a program running on the person's machine
// (RFC 8252 section 7.3): it shows the authorization URL with the function
// it was given and receives the browser's redirect on a listener on the
// loopback interface. Authorizations of several servers may be pending at
// once; each redirect reaches the one whose state it carries.
type Loopback struct {
	show     func(ctx context.Context, req Request) error
	listener net.Listener
	server   *http.Server
	served   chan struct{}

	mu      sync.Mutex
	pending map[string]chan redirect // by state
}

// redirect is what the browser brought back.
type redirect struct {
	result *auth.AuthorizationResult
	err    error
}

// NewLoopback listens on addr ("127.0.0.1:0" when empty: any free port; a
// fixed port suits a client registered ahead of time with that redirect
// URL). show is called once per authorization with the URL to open; it
// should return at once (print the URL, start a browser).
func NewLoopback(addr string, show func(ctx context.Context, req Request) error) (*Loopback, error) {
	if addr == "" {
		addr = "127.0.0.1:0"
	}
	ln, err := net.Listen("tcp", addr)
	if err != nil {
		return nil, fmt.Errorf("oauth redirect listener: %w", err)
	}
	l := &Loopback{show: show, listener: ln, served: make(chan struct{}), pending: map[string]chan redirect{}}
	mux := http.NewServeMux()
	mux.HandleFunc(callbackPath, l.callback)
	l.server = &http.Server{Handler: mux, ReadHeaderTimeout: 10 * time.Second}
	go func() {
		defer close(l.served)
		_ = l.server.Serve(ln)
	}()
	return l, nil
}

// RedirectURL is http://<listener address>/callback.
func (l *Loopback) RedirectURL() string {
	return "http://" + l.listener.Addr().String() + callbackPath
}

// Authorize shows req.URL and waits for its redirect.
func (l *Loopback) Authorize(ctx context.Context, req Request) (*auth.AuthorizationResult, error) {
	u, err := url.Parse(req.URL)
	if err != nil {
		return nil, fmt.Errorf("authorization URL: %w", err)
	}
	state := u.Query().Get("state")
	if state == "" {
		return nil, errors.New("authorization URL carries no state")
	}
	ch := make(chan redirect, 1)
	l.mu.Lock()
	l.pending[state] = ch
	l.mu.Unlock()
	defer func() {
		l.mu.Lock()
		delete(l.pending, state)
		l.mu.Unlock()
	}()
	if err := l.show(ctx, req); err != nil {
		return nil, err
	}
	select {
	case r := <-ch:
		return r.result, r.err
	case <-ctx.Done():
		return nil, ctx.Err()
	}
}

// callback receives the browser's redirect.
func (l *Loopback) callback(w http.ResponseWriter, r *http.Request) {
	q := r.URL.Query()
	l.mu.Lock()
	ch, ok := l.pending[q.Get("state")]
	l.mu.Unlock()
	if !ok {
		http.Error(w, "This authorization is unknown or no longer awaited; start it again.", http.StatusBadRequest)
		return
	}
	var got redirect
	if e := q.Get("error"); e != "" {
		got.err = fmt.Errorf("the authorization server refused: %s", describe(e, q.Get("error_description")))
	} else {
		got.result = &auth.AuthorizationResult{Code: q.Get("code"), State: q.Get("state"), Iss: q.Get("iss")}
	}
	select {
	case ch <- got:
	default: // a second redirect for the same state: the first one counts
	}
	w.Header().Set("Content-Type", "text/html; charset=utf-8")
	if got.err != nil {
		fmt.Fprintf(w, "<p>Authorization failed: %s</p>", html.EscapeString(got.err.Error()))
		return
	}
	fmt.Fprint(w, "<p>Authorization complete. You can close this window.</p>")
}

func describe(code, description string) string {
	if description == "" {
		return code
	}
	return code + " (" + description + ")"
}

// Close stops the listener; authorizations still pending end with an error
// once their context ends.
func (l *Loopback) Close() error {
	err := l.server.Close()
	<-l.served
	return err
}
