package oauth

import (
	"context"
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"sync"
	"testing"
	"time"

	"golang.org/x/oauth2"
)

// tokenEndpoint answers refresh grants with a new token, counting them.
type tokenEndpoint struct {
	mu        sync.Mutex
	refreshes int
	refuse    bool
}

func (e *tokenEndpoint) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	_ = r.ParseForm()
	e.mu.Lock()
	defer e.mu.Unlock()
	w.Header().Set("Content-Type", "application/json")
	if e.refuse || r.PostForm.Get("grant_type") != "refresh_token" {
		w.WriteHeader(http.StatusBadRequest)
		_ = json.NewEncoder(w).Encode(map[string]string{"error": "invalid_grant"})
		return
	}
	e.refreshes++
	_ = json.NewEncoder(w).Encode(map[string]any{
		"access_token": "fresh", "token_type": "Bearer", "expires_in": 3600,
	})
}

func (e *tokenEndpoint) count() int {
	e.mu.Lock()
	defer e.mu.Unlock()
	return e.refreshes
}

// The access token is replaced once it has less than refreshMargin left,
// not before; the new one is saved and keeps the refresh token the server
// did not rotate. A token that cannot be refreshed is used while it lives.
func TestSavingSourceRefreshesWithinTheMarginOnly(t *testing.T) {
	endpoint := &tokenEndpoint{}
	srv := httptest.NewServer(endpoint)
	defer srv.Close()
	cfg := &oauth2.Config{ClientID: "c", Endpoint: oauth2.Endpoint{TokenURL: srv.URL, AuthStyle: oauth2.AuthStyleInParams}}
	now := time.Unix(1e9, 0)
	expiry := now.Add(refreshMargin + time.Second)
	var saved []*oauth2.Token
	src := newSavingSource(context.WithValue(context.Background(), oauth2.HTTPClient, srv.Client()), cfg,
		&oauth2.Token{AccessToken: "old", RefreshToken: "rt", Expiry: expiry},
		func(tok *oauth2.Token) { saved = append(saved, tok) })
	src.now = func() time.Time { return now }

	tok, err := src.Token()
	if err != nil || tok.AccessToken != "old" || endpoint.count() != 0 {
		t.Fatalf("outside the margin: %v %v, %d refreshes", tok, err, endpoint.count())
	}
	now = now.Add(2 * time.Second) // within the margin, still valid
	tok, err = src.Token()
	if err != nil || tok.AccessToken != "fresh" || endpoint.count() != 1 {
		t.Fatalf("within the margin: %v %v, %d refreshes", tok, err, endpoint.count())
	}
	if len(saved) != 1 || saved[0].AccessToken != "fresh" || saved[0].RefreshToken != "rt" {
		t.Errorf("saved %+v, want the fresh token with the refresh token kept", saved)
	}
	if tok, _ := src.Token(); tok.AccessToken != "fresh" || endpoint.count() != 1 {
		t.Errorf("the fresh token was not reused: %v, %d refreshes", tok, endpoint.count())
	}

	// A refusal while the token still lives: keep using it.
	endpoint.mu.Lock()
	endpoint.refuse = true
	endpoint.mu.Unlock()
	src.tok = &oauth2.Token{AccessToken: "still-good", RefreshToken: "rt", Expiry: now.Add(time.Second)}
	if tok, err := src.Token(); err != nil || tok.AccessToken != "still-good" {
		t.Errorf("refused refresh of a live token: %v, %v", tok, err)
	}
	// Expired and refused: the error goes to the transport, which then asks
	// for a new authorization.
	now = now.Add(time.Hour)
	if tok, err := src.Token(); err == nil || tok != nil {
		t.Errorf("refused refresh of an expired token: %v, %v", tok, err)
	}
	// Expired with no refresh token: nothing to send.
	src.tok = &oauth2.Token{AccessToken: "gone", Expiry: now.Add(-time.Second)}
	if tok, err := src.Token(); err != nil || tok != nil {
		t.Errorf("expired token without a refresh token: %v, %v", tok, err)
	}
}
