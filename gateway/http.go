package gateway

import (
	"context"
	"crypto/subtle"
	"errors"
	"net"
	"net/http"
	"net/url"
	"slices"
	"strings"
	"time"
)

// HTTPOptions configure the streamable HTTP endpoint.
type HTTPOptions struct {
	// Token, when set, is the bearer token every request must carry
	// (Authorization: Bearer <token>).
	Token string
	// AllowedOrigins are the browser origins ("https://app.example") allowed
	// besides loopback ones. A request with any other Origin is refused.
	AllowedOrigins []string
}

// Handler serves the gateway over streamable HTTP, all clients sharing the
// System's pool: one MCP session per client of 2025-11-25 and older, and
// stateless requests for clients of 2026-07-28 (route.go).
//
// Against DNS rebinding, a request that reaches a loopback address with a
// Host that is not loopback is refused (the SDK's check), and so is a
// request whose Origin is neither loopback nor allowed. A missing Origin is
// accepted: only browsers send one, and they always do.
func (g *Gateway) Handler(opts HTTPOptions) http.Handler {
	sessions := newVersionRouter(g)
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if origin := r.Header.Get("Origin"); origin != "" && !originAllowed(origin, opts.AllowedOrigins) {
			http.Error(w, "Forbidden: origin not allowed", http.StatusForbidden)
			return
		}
		if opts.Token != "" {
			if problem := bearerProblem(r.Header.Get("Authorization"), opts.Token); problem != "" {
				unauthorized(w, problem)
				return
			}
		}
		sessions.ServeHTTP(w, r)
	})
}

func originAllowed(origin string, allowed []string) bool {
	if slices.Contains(allowed, origin) {
		return true
	}
	u, err := url.Parse(origin)
	return err == nil && (u.Scheme == "http" || u.Scheme == "https") && isLoopbackHost(u.Hostname())
}

func isLoopbackHost(host string) bool {
	if strings.EqualFold(host, "localhost") {
		return true
	}
	ip := net.ParseIP(host)
	return ip != nil && ip.IsLoopback()
}

// Why a request's bearer token is refused.
const (
	tokenMissing = "a bearer token is required"
	tokenInvalid = "the bearer token is invalid"
)

// bearerProblem says why the Authorization header does not carry token, or
// "" when it does: a client told its token is wrong knows not to look for
// a missing header.
func bearerProblem(header, token string) string {
	if strings.TrimSpace(header) == "" {
		return tokenMissing
	}
	scheme, got, ok := strings.Cut(header, " ")
	if !ok || !strings.EqualFold(scheme, "Bearer") {
		return tokenMissing
	}
	if subtle.ConstantTimeCompare([]byte(strings.TrimSpace(got)), []byte(token)) != 1 {
		return tokenInvalid
	}
	return ""
}

// unauthorized refuses a request, with the challenge of RFC 6750: a wrong
// token is an invalid_token error, a missing one a bare challenge.
func unauthorized(w http.ResponseWriter, problem string) {
	challenge := `Bearer realm="mcpexec"`
	if problem == tokenInvalid {
		challenge += `, error="invalid_token", error_description="` + problem + `"`
	}
	w.Header().Set("WWW-Authenticate", challenge)
	http.Error(w, "Unauthorized: "+problem, http.StatusUnauthorized)
}

// idleSessionTimeout closes the session of a client that went away without
// saying so, once it has sent nothing for this long.
const idleSessionTimeout = 30 * time.Minute

// shutdownGrace bounds the wait for connections to close once the requests
// in flight are answered and the open ones (event streams) are ended.
const shutdownGrace = 5 * time.Second

// Serve serves Handler(opts) on ln until ctx ends, then drains: running
// scripts abort, every request in flight gets its response (see
// drainTimeout), and the Gateway closes. It returns nil after a shutdown
// caused by ctx.
func (g *Gateway) Serve(ctx context.Context, ln net.Listener, opts HTTPOptions) error {
	// Every request's context ends with serving, so open event streams end
	// and Shutdown does not wait on them.
	base, cancelBase := context.WithCancel(context.Background())
	defer cancelBase()
	posts := &outstanding{}
	srv := &http.Server{
		Handler:           countPosts(g.Handler(opts), posts),
		ReadHeaderTimeout: 10 * time.Second,
		BaseContext:       func(net.Listener) context.Context { return base },
	}
	served := make(chan error, 1)
	go func() { served <- srv.Serve(ln) }()
	var err error
	select {
	case err = <-served:
	case <-ctx.Done():
	}
	g.drainHTTP(srv, posts, cancelBase)
	if err == nil || errors.Is(err, http.ErrServerClosed) {
		return nil
	}
	return err
}
