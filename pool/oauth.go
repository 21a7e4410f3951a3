package pool

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"sync"
	"time"

	"github.com/modelcontextprotocol/go-sdk/auth"

	"github.com/mcpexec/mcpexec/oauth"
)

// usesOAuth reports whether a server may be authorized with OAuth: a
// streamable HTTP server (the SDK's SSE transport takes no OAuth handler)
// whose entry does not already send an Authorization header of its own.
func usesOAuth(cfg ServerConfig) bool {
	if cfg.URL == "" || cfg.Type == "sse" {
		return false
	}
	for k := range cfg.Headers {
		if strings.EqualFold(k, "Authorization") {
			return false
		}
	}
	return true
}

// expandOAuth expands ${VAR} and ${VAR:-default} in an entry's oauth
// settings, like the rest of the entry: a client secret belongs in the
// environment, not in the file.
func expandOAuth(c *oauth.Config, lookup func(string) (string, bool)) error {
	if c == nil {
		return nil
	}
	for _, f := range []struct {
		key   string
		value *string
	}{{"oauth.clientId", &c.ClientID}, {"oauth.clientSecret", &c.ClientSecret}, {"oauth.clientMetadataUrl", &c.ClientMetadataURL}} {
		v, err := ExpandVars(*f.value, lookup)
		if err != nil {
			return fmt.Errorf("%s: %w", f.key, err)
		}
		*f.value = v
	}
	return nil
}

// oauthHandler returns the OAuth handler for one connection attempt, or nil
// when the server does not use OAuth. A fresh handler per attempt reads the
// store again, so a grant another process saved meanwhile is used.
func (s *server) oauthHandler(ctx context.Context, deadline *connectDeadline) (auth.OAuthHandler, error) {
	if s.m.opts.OAuth == nil || !usesOAuth(s.cfg) {
		return nil, nil
	}
	opts := *s.m.opts.OAuth
	if opts.Authorizer != nil {
		opts.Authorizer = &personAuthorizer{next: opts.Authorizer, s: s, deadline: deadline}
	}
	if opts.HTTPClient == nil {
		opts.HTTPClient = s.m.opts.HTTPClient
	}
	opts.Logger = s.m.log
	var cfg oauth.Config
	if s.cfg.OAuth != nil {
		cfg = *s.cfg.OAuth
	}
	return oauth.NewHandler(ctx, oauth.Server{Name: s.cfg.Name, URL: s.cfg.URL, Config: cfg}, opts)
}

// personAuthorizer marks the time a connecting server waits for a person:
// the server is "authorization required" meanwhile, its first attempt
// counts as made (Ready does not wait for a person), and the connect
// timeout is suspended (people take longer than handshakes).
type personAuthorizer struct {
	next     oauth.Authorizer
	s        *server
	deadline *connectDeadline
}

func (a *personAuthorizer) RedirectURL() string { return a.next.RedirectURL() }

func (a *personAuthorizer) Authorize(ctx context.Context, req oauth.Request) (*auth.AuthorizationResult, error) {
	if a.deadline.pause() {
		a.s.m.withdraw(a.s.cfg.Name, StateAuthorizationRequired, oauth.ErrAuthorizationRequired)
		a.s.firstAttemptDone()
		defer func() {
			a.s.m.withdraw(a.s.cfg.Name, StateConnecting, nil)
			a.deadline.resume()
		}()
	}
	return a.next.Authorize(ctx, req)
}

// failureState is the state a failed connection leaves its server in.
func failureState(err error) State {
	if errors.Is(err, oauth.ErrAuthorizationRequired) {
		return StateAuthorizationRequired
	}
	return StateRetrying
}

// connectDeadline ends a connection attempt that takes longer than its
// timeout, except while a person is authorizing it.
type connectDeadline struct {
	after time.Duration

	mu      sync.Mutex
	timer   *time.Timer
	paused  bool
	stopped bool
}

// newConnectDeadline returns a deadline that starts running at start.
func newConnectDeadline(after time.Duration, end func()) *connectDeadline {
	t := time.AfterFunc(time.Hour, end)
	t.Stop()
	return &connectDeadline{after: after, timer: t}
}

// start starts the clock: right before the handshake, so that building the
// transport does not eat into it.
func (d *connectDeadline) start() {
	d.mu.Lock()
	defer d.mu.Unlock()
	d.timer.Reset(d.after)
}

// stop ends the deadline once Connect returned; it reports whether the
// deadline had already ended the attempt.
func (d *connectDeadline) stop() (expired bool) {
	d.mu.Lock()
	defer d.mu.Unlock()
	if d.stopped {
		return false
	}
	d.stopped = true
	if d.paused {
		return false
	}
	return !d.timer.Stop()
}

// pause suspends the deadline while a person authorizes. It reports false
// when there is nothing to suspend: the attempt is over or connected (a
// step-up authorization during a call), or the deadline already expired.
func (d *connectDeadline) pause() bool {
	d.mu.Lock()
	defer d.mu.Unlock()
	if d.stopped || d.paused || !d.timer.Stop() {
		return false
	}
	d.paused = true
	return true
}

// resume restarts the deadline with its whole timeout: what is left of the
// connection (token exchange, initialize, tools/list) gets a fresh window.
func (d *connectDeadline) resume() {
	d.mu.Lock()
	defer d.mu.Unlock()
	if d.paused && !d.stopped {
		d.timer.Reset(d.after)
	}
	d.paused = false
}
