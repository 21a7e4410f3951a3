package testservers

import (
	"context"
	"crypto/rand"
	"crypto/sha256"
	"encoding/base64"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"net/url"
	"sync"
	"time"

	"github.com/modelcontextprotocol/go-sdk/auth"
	"github.com/modelcontextprotocol/go-sdk/mcp"
	"github.com/modelcontextprotocol/go-sdk/oauthex"
)

// OAuthOptions shape an OAuthServer.
type OAuthOptions struct {
	// TokenLifetime is the access tokens' lifetime (default one hour).
	TokenLifetime time.Duration
	// CarelessRefusals makes the token endpoint refuse an unknown refresh
	// token with a server_error that quotes it, as a careless
	// authorization server might: a client must not pass that on.
	CarelessRefusals bool
}

// OAuthServer is an MCP server over streamable HTTP behind an OAuth 2.1
// authorization server of its own, on one httptest server, the shape of
// most hosted MCP servers: protected resource metadata (RFC 9728),
// authorization server metadata (RFC 8414), dynamic client registration
// (RFC 7591), an authorization endpoint that approves at once and redirects
// back, a PKCE-checked code exchange, refresh, and the SDK's bearer check on
// the MCP endpoint. Every token it issues is recorded, so tests can look
// for them where they must never appear.
type OAuthServer struct {
	// URL is the MCP endpoint.
	URL  string
	opts OAuthOptions
	http *httptest.Server

	mu             sync.Mutex
	codes          map[string]codeGrant
	access         map[string]time.Time // access token -> expiry
	refresh        map[string]bool      // live refresh tokens
	issued         []string             // every access and refresh token, in order
	authorizations int
	refreshes      int
}

type codeGrant struct {
	clientID, redirectURI, challenge string
}

// NewOAuthServer serves mcpServer behind its own authorization server. Close
// it when done.
func NewOAuthServer(mcpServer *mcp.Server, opts OAuthOptions) *OAuthServer {
	if opts.TokenLifetime == 0 {
		opts.TokenLifetime = time.Hour
	}
	s := &OAuthServer{opts: opts, codes: map[string]codeGrant{}, access: map[string]time.Time{}, refresh: map[string]bool{}}
	mux := http.NewServeMux()
	s.http = httptest.NewServer(mux)
	base := s.http.URL
	s.URL = base + "/mcp"
	prm := base + "/.well-known/oauth-protected-resource/mcp"
	mux.Handle("/.well-known/oauth-protected-resource/mcp", auth.ProtectedResourceMetadataHandler(&oauthex.ProtectedResourceMetadata{
		Resource: s.URL, AuthorizationServers: []string{base},
	}))
	mux.HandleFunc("/.well-known/oauth-authorization-server", func(w http.ResponseWriter, _ *http.Request) {
		writeJSON(w, http.StatusOK, map[string]any{
			"issuer": base, "authorization_endpoint": base + "/authorize", "token_endpoint": base + "/token",
			"registration_endpoint": base + "/register", "response_types_supported": []string{"code"},
			"grant_types_supported":                 []string{"authorization_code", "refresh_token"},
			"code_challenge_methods_supported":      []string{"S256"},
			"token_endpoint_auth_methods_supported": []string{"none"},
		})
	})
	mux.HandleFunc("/register", s.register)
	mux.HandleFunc("/authorize", s.authorize)
	mux.HandleFunc("/token", s.token)
	streamable := mcp.NewStreamableHTTPHandler(func(*http.Request) *mcp.Server { return mcpServer }, nil)
	mux.Handle("/mcp", auth.RequireBearerToken(s.verify, &auth.RequireBearerTokenOptions{ResourceMetadataURL: prm})(streamable))
	return s
}

// Close stops the server.
func (s *OAuthServer) Close() { s.http.Close() }

// Issued returns every access and refresh token handed out so far.
func (s *OAuthServer) Issued() []string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return append([]string(nil), s.issued...)
}

// Authorizations counts the codes exchanged; Refreshes the refresh grants
// honoured.
func (s *OAuthServer) Authorizations() int {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.authorizations
}

// Refreshes counts the refresh grants honoured.
func (s *OAuthServer) Refreshes() int {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.refreshes
}

// RevokeAll invalidates every access and refresh token: the next request
// needs a new authorization.
func (s *OAuthServer) RevokeAll() {
	s.mu.Lock()
	defer s.mu.Unlock()
	clear(s.access)
	clear(s.refresh)
}

func (s *OAuthServer) verify(_ context.Context, token string, _ *http.Request) (*auth.TokenInfo, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	expiry, ok := s.access[token]
	if !ok {
		return nil, auth.ErrInvalidToken
	}
	return &auth.TokenInfo{Expiration: expiry}, nil
}

func (s *OAuthServer) register(w http.ResponseWriter, r *http.Request) {
	var meta oauthex.ClientRegistrationMetadata
	if err := json.NewDecoder(r.Body).Decode(&meta); err != nil || len(meta.RedirectURIs) == 0 {
		writeJSON(w, http.StatusBadRequest, map[string]string{"error": "invalid_client_metadata"})
		return
	}
	writeJSON(w, http.StatusCreated, map[string]any{
		"client_id": "client-" + rand.Text(), "redirect_uris": meta.RedirectURIs,
		"token_endpoint_auth_method": "none",
	})
}

// authorize approves at once: the person said yes.
func (s *OAuthServer) authorize(w http.ResponseWriter, r *http.Request) {
	q := r.URL.Query()
	redirect, err := url.Parse(q.Get("redirect_uri"))
	if err != nil || q.Get("code_challenge_method") != "S256" || q.Get("code_challenge") == "" {
		http.Error(w, "bad authorization request", http.StatusBadRequest)
		return
	}
	code := rand.Text()
	s.mu.Lock()
	s.codes[code] = codeGrant{clientID: q.Get("client_id"), redirectURI: q.Get("redirect_uri"), challenge: q.Get("code_challenge")}
	s.mu.Unlock()
	back := redirect.Query()
	back.Set("code", code)
	back.Set("state", q.Get("state"))
	redirect.RawQuery = back.Encode()
	http.Redirect(w, r, redirect.String(), http.StatusFound)
}

func (s *OAuthServer) token(w http.ResponseWriter, r *http.Request) {
	if err := r.ParseForm(); err != nil {
		writeJSON(w, http.StatusBadRequest, map[string]string{"error": "invalid_request"})
		return
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	switch r.PostForm.Get("grant_type") {
	case "authorization_code":
		grant, ok := s.codes[r.PostForm.Get("code")]
		delete(s.codes, r.PostForm.Get("code"))
		sum := sha256.Sum256([]byte(r.PostForm.Get("code_verifier")))
		if !ok || grant.redirectURI != r.PostForm.Get("redirect_uri") ||
			base64.RawURLEncoding.EncodeToString(sum[:]) != grant.challenge {
			writeJSON(w, http.StatusBadRequest, map[string]string{"error": "invalid_grant"})
			return
		}
		s.authorizations++
	case "refresh_token":
		given := r.PostForm.Get("refresh_token")
		if !s.refresh[given] {
			refusal := map[string]string{"error": "invalid_grant"}
			if s.opts.CarelessRefusals {
				refusal = map[string]string{"error": "server_error", "error_description": "unknown refresh token " + given}
			}
			writeJSON(w, http.StatusBadRequest, refusal)
			return
		}
		delete(s.refresh, given) // rotated
		s.refreshes++
	default:
		writeJSON(w, http.StatusBadRequest, map[string]string{"error": "unsupported_grant_type"})
		return
	}
	access, refresh := "at-"+rand.Text(), "rt-"+rand.Text()
	s.access[access] = time.Now().Add(s.opts.TokenLifetime)
	s.refresh[refresh] = true
	s.issued = append(s.issued, access, refresh)
	writeJSON(w, http.StatusOK, map[string]any{
		"access_token": access, "token_type": "Bearer", "refresh_token": refresh,
		"expires_in": int(s.opts.TokenLifetime / time.Second),
	})
}

func writeJSON(w http.ResponseWriter, status int, v any) {
	w.Header().Set("Content-Type", "application/json")
	w.WriteHeader(status)
	_ = json.NewEncoder(w).Encode(v)
}

// FollowAuthorization does what a person's browser does with an
// authorization URL: opens it and follows the redirects, which bring the
// code back to the client's redirect URL.
func FollowAuthorization(ctx context.Context, authorizationURL string) error {
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, authorizationURL, nil)
	if err != nil {
		return err
	}
	// No connection is kept: a test's servers see every one of them end.
	browser := &http.Client{Transport: &http.Transport{DisableKeepAlives: true}}
	resp, err := browser.Do(req)
	if err != nil {
		return err
	}
	defer resp.Body.Close()
	_, _ = io.Copy(io.Discard, resp.Body)
	if resp.StatusCode != http.StatusOK {
		return fmt.Errorf("authorization redirect ended with %s", resp.Status)
	}
	return nil
}
