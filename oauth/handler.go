package oauth

import (
	"context"
	"net/http"
	"sync"

	"github.com/modelcontextprotocol/go-sdk/auth"
	"github.com/modelcontextprotocol/go-sdk/oauthex"
	"github.com/rs/zerolog"
	"golang.org/x/oauth2"
)

// Options are the OAuth settings shared by every server.
type Options struct {
	// Authorizer asks the person to authorize a server. Nil: a server that
	// needs authorization fails its connection with
	// ErrAuthorizationRequired (a stored grant is still used and
	// refreshed).
	Authorizer Authorizer
	// Store keeps the grants. Nil: FileStore in DefaultDir.
	Store Store
	// ClientName is the client's name in dynamic client registration
	// (default "mcpexec").
	ClientName string
	// ClientMetadataURL is the https URL of this client's published client
	// ID metadata document, for servers whose Config names none. Empty:
	// clients register otherwise.
	ClientMetadataURL string
	// HTTPClient reaches the authorization servers (metadata, registration,
	// token). Nil: http.DefaultClient.
	HTTPClient *http.Client
	// Logger receives what goes wrong with the store; no secret is logged.
	Logger zerolog.Logger
}

// Server is one MCP server that may need authorization.
type Server struct {
	Name   string
	URL    string
	Config Config
}

// NewHandler returns the OAuth handler for srv's HTTP transport: the SDK's
// authorization code handler, seeded with the grant opts.Store kept for srv
// and saving every new token there.
func NewHandler(ctx context.Context, srv Server, opts Options) (auth.OAuthHandler, error) {
	if err := srv.Config.Validate(); err != nil {
		return nil, err
	}
	if opts.Store == nil {
		dir, err := DefaultDir()
		if err != nil {
			return nil, err
		}
		opts.Store = FileStore{Dir: dir}
	}
	if opts.HTTPClient == nil {
		opts.HTTPClient = http.DefaultClient
	}
	if opts.ClientName == "" {
		opts.ClientName = "mcpexec"
	}
	h := &handler{srv: srv, opts: opts, authorizing: make(chan struct{}, 1)}
	// Refreshes outlive every request: the context carries only the client.
	h.refreshCtx = context.WithValue(context.Background(), oauth2.HTTPClient, opts.HTTPClient)
	h.initial = h.storedSource(ctx)
	if opts.Authorizer == nil {
		return h, nil
	}
	cfg := &auth.AuthorizationCodeHandlerConfig{
		RedirectURL:              opts.Authorizer.RedirectURL(),
		AuthorizationCodeFetcher: h.fetch,
		DynamicClientRegistrationConfig: &auth.DynamicClientRegistrationConfig{
			Metadata: &oauthex.ClientRegistrationMetadata{
				ClientName:    opts.ClientName,
				RedirectURIs:  []string{opts.Authorizer.RedirectURL()},
				GrantTypes:    []string{"authorization_code", "refresh_token"},
				ResponseTypes: []string{"code"},
			},
		},
		RequestRefreshToken: true,
		Client:              opts.HTTPClient,
		NewTokenSource: func(ctx context.Context, cfg *oauth2.Config, tok *oauth2.Token) (oauth2.TokenSource, error) {
			return h.granted(cfg, tok), nil
		},
	}
	if h.initial != nil {
		cfg.InitialTokenSource = h.initial
	}
	if u := srv.Config.ClientMetadataURL; u != "" {
		cfg.ClientIDMetadataDocumentConfig = &auth.ClientIDMetadataDocumentConfig{URL: u}
	} else if u := opts.ClientMetadataURL; u != "" {
		cfg.ClientIDMetadataDocumentConfig = &auth.ClientIDMetadataDocumentConfig{URL: u}
	}
	if id := srv.Config.ClientID; id != "" {
		cfg.PreregisteredClient = &oauthex.ClientCredentials{ClientID: id}
		if secret := srv.Config.ClientSecret; secret != "" {
			cfg.PreregisteredClient.ClientSecretAuth = &oauthex.ClientSecretAuth{ClientSecret: secret}
		}
	}
	sdk, err := auth.NewAuthorizationCodeHandler(cfg)
	if err != nil {
		return nil, h.redact(err)
	}
	h.sdk = sdk
	return h, nil
}

// handler wraps the SDK's handler: it keeps secrets out of its errors and
// stands in for it when no one can authorize.
type handler struct {
	srv        Server
	opts       Options
	refreshCtx context.Context
	initial    oauth2.TokenSource             // from the stored grant; nil without one
	sdk        *auth.AuthorizationCodeHandler // nil without an Authorizer

	// authorizing admits one authorization at a time: calls refused
	// together wait for the first one's token instead of each asking the
	// person.
	authorizing chan struct{}

	mu    sync.Mutex
	grant *Grant // the latest grant, for redaction
}

func (h *handler) TokenSource(ctx context.Context) (oauth2.TokenSource, error) {
	if h.sdk == nil {
		return h.initial, nil
	}
	ts, err := h.sdk.TokenSource(ctx)
	return ts, h.redact(err)
}

func (h *handler) Authorize(ctx context.Context, req *http.Request, resp *http.Response) error {
	if h.sdk == nil {
		resp.Body.Close()
		return ErrAuthorizationRequired
	}
	select {
	case h.authorizing <- struct{}{}:
		defer func() { <-h.authorizing }()
	case <-ctx.Done():
		resp.Body.Close()
		return ctx.Err()
	}
	if resp.StatusCode == http.StatusUnauthorized && h.renewedSince(ctx, req) {
		resp.Body.Close()
		return nil // another request's authorization already brought a new token
	}
	return h.redact(h.sdk.Authorize(ctx, req, resp))
}

// renewedSince reports whether the token to send now differs from the one
// the refused request carried.
func (h *handler) renewedSince(ctx context.Context, req *http.Request) bool {
	ts, err := h.sdk.TokenSource(ctx)
	if err != nil || ts == nil {
		return false
	}
	tok, err := ts.Token()
	if err != nil || tok == nil || tok.AccessToken == "" {
		return false
	}
	return req.Header.Get("Authorization") != "Bearer "+tok.AccessToken
}

// fetch hands the authorization URL to the person.
func (h *handler) fetch(ctx context.Context, args *auth.AuthorizationArgs) (*auth.AuthorizationResult, error) {
	return h.opts.Authorizer.Authorize(ctx, Request{Server: h.srv.Name, URL: args.URL})
}

// storedSource is the token source of the stored grant, or nil.
func (h *handler) storedSource(ctx context.Context) oauth2.TokenSource {
	g, err := h.opts.Store.Load(ctx, h.srv.Name)
	if err != nil {
		h.opts.Logger.Warn().Str("server", h.srv.Name).Err(h.redact(err)).Msg("stored oauth grant unreadable; authorizing anew")
		return nil
	}
	if g == nil || g.Token == nil || g.ServerURL != h.srv.URL {
		return nil
	}
	h.remember(g)
	cfg := &oauth2.Config{
		ClientID:     g.ClientID,
		ClientSecret: g.ClientSecret,
		Endpoint:     oauth2.Endpoint{TokenURL: g.TokenURL, AuthStyle: g.AuthStyle},
		Scopes:       g.Scopes,
	}
	return newSavingSource(h.refreshCtx, cfg, g.Token, h.saver(cfg))
}

// granted is the token source after an authorization: it saves the grant
// now and every refreshed token later.
func (h *handler) granted(cfg *oauth2.Config, tok *oauth2.Token) oauth2.TokenSource {
	save := h.saver(cfg)
	save(tok)
	return newSavingSource(h.refreshCtx, cfg, tok, save)
}

// saver returns the function that stores a new token of cfg's client.
func (h *handler) saver(cfg *oauth2.Config) func(*oauth2.Token) {
	return func(tok *oauth2.Token) {
		g := &Grant{
			ServerURL: h.srv.URL, ClientID: cfg.ClientID, ClientSecret: cfg.ClientSecret,
			TokenURL: cfg.Endpoint.TokenURL, AuthStyle: cfg.Endpoint.AuthStyle,
			Scopes: cfg.Scopes, Token: tok,
		}
		h.remember(g)
		if err := h.opts.Store.Save(h.refreshCtx, h.srv.Name, g); err != nil {
			// The token works in this process; a restart will ask again.
			h.opts.Logger.Warn().Str("server", h.srv.Name).Err(h.redact(err)).Msg("oauth grant not saved")
		}
	}
}

func (h *handler) remember(g *Grant) {
	h.mu.Lock()
	h.grant = g
	h.mu.Unlock()
}

// redact removes every secret the handler knows from err's text.
func (h *handler) redact(err error) error {
	if err == nil {
		return nil
	}
	secrets := []string{h.srv.Config.ClientSecret}
	h.mu.Lock()
	if g := h.grant; g != nil {
		secrets = append(secrets, g.ClientSecret)
		if g.Token != nil {
			secrets = append(secrets, g.Token.AccessToken, g.Token.RefreshToken)
		}
	}
	h.mu.Unlock()
	return redact(err, secrets...)
}
