package oauth

import (
	"context"
	"sync"
	"time"

	"golang.org/x/oauth2"
)

// refreshMargin is how long before its expiry an access token is replaced:
// long enough that a request never leaves with a token about to lapse on
// the way.
const refreshMargin = time.Minute

// savingSource hands out the current access token, replaces it through the
// refresh token once it has less than refreshMargin left, and saves every
// new token. The refresh itself is golang.org/x/oauth2's refresh grant.
type savingSource struct {
	ctx  context.Context // carries the HTTP client (oauth2.HTTPClient); never cancelled
	cfg  *oauth2.Config
	save func(*oauth2.Token) // keeps the new token; reports its own failures
	now  func() time.Time

	mu  sync.Mutex
	tok *oauth2.Token
}

func newSavingSource(ctx context.Context, cfg *oauth2.Config, tok *oauth2.Token, save func(*oauth2.Token)) *savingSource {
	if tok == nil {
		tok = &oauth2.Token{}
	}
	return &savingSource{ctx: ctx, cfg: cfg, save: save, now: time.Now, tok: tok}
}

// Token returns a token to send. With no token left to send (expired, and
// no refresh token) it returns nil and no error: the request then goes out
// without one, the server answers 401, and the transport asks the handler
// to authorize again.
func (s *savingSource) Token() (*oauth2.Token, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if !s.due() {
		return s.tok, nil
	}
	if s.tok.RefreshToken == "" {
		if s.live() {
			return s.tok, nil
		}
		return nil, nil
	}
	fresh, err := s.cfg.TokenSource(s.ctx, &oauth2.Token{RefreshToken: s.tok.RefreshToken}).Token()
	if err != nil {
		if s.live() {
			return s.tok, nil // it still works: try the refresh again next time
		}
		// An invalid_grant error makes the transport send the request
		// without a token, so that a new authorization starts.
		return nil, redact(err, s.tok.AccessToken, s.tok.RefreshToken, s.cfg.ClientSecret)
	}
	s.tok = fresh
	s.save(fresh)
	return fresh, nil
}

// due reports whether the token should be replaced now.
func (s *savingSource) due() bool {
	if s.tok.AccessToken == "" {
		return true
	}
	return !s.tok.Expiry.IsZero() && !s.now().Add(refreshMargin).Before(s.tok.Expiry)
}

// live reports whether the token has not expired yet.
func (s *savingSource) live() bool {
	return s.tok.AccessToken != "" && (s.tok.Expiry.IsZero() || s.now().Before(s.tok.Expiry))
}
