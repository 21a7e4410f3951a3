package pool_test

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/rs/zerolog"

	"github.com/mcpexec/mcpexec/internal/testkit"
	"github.com/mcpexec/mcpexec/internal/testservers"
	"github.com/mcpexec/mcpexec/oauth"
	"github.com/mcpexec/mcpexec/pool"
)

// oauthServer starts the behaviour server behind its own OAuth
// authorization server.
func oauthServer(t *testing.T, opts testservers.OAuthOptions) *testservers.OAuthServer {
	t.Helper()
	s := testservers.NewOAuthServer(testservers.Behaviour(testservers.BehaviourOptions{}), opts)
	t.Cleanup(s.Close)
	return s
}

// person is an Authorizer whose authorizations the test performs: each
// authorization URL arrives on asked, and following it (as a browser would)
// completes the authorization through a real loopback redirect.
type person struct {
	*oauth.Loopback
	asked chan oauth.Request
	times atomic.Int32 // authorizations asked for
}

func newPerson(t *testing.T) *person {
	t.Helper()
	p := &person{asked: make(chan oauth.Request, 8)}
	lb, err := oauth.NewLoopback("", func(_ context.Context, req oauth.Request) error {
		p.times.Add(1)
		p.asked <- req
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	p.Loopback = lb
	t.Cleanup(func() { _ = lb.Close() })
	return p
}

// approve waits for the next authorization request and follows its URL.
func (p *person) approve(t *testing.T) oauth.Request {
	t.Helper()
	select {
	case req := <-p.asked:
		if err := testservers.FollowAuthorization(context.Background(), req.URL); err != nil {
			t.Fatalf("authorizing %s: %v", req.Server, err)
		}
		return req
	case <-time.After(patience):
		t.Fatal("no authorization was asked for")
		return oauth.Request{}
	}
}

// approveAll follows every authorization URL as it comes, until the test ends.
func (p *person) approveAll(t *testing.T) {
	done := make(chan struct{})
	stopped := make(chan struct{})
	go func() {
		defer close(stopped)
		for {
			select {
			case req := <-p.asked:
				_ = testservers.FollowAuthorization(context.Background(), req.URL)
			case <-done:
				return
			}
		}
	}()
	t.Cleanup(func() { close(done); <-stopped })
}

func waitState(t *testing.T, m *pool.Manager, name string, want pool.State) pool.ServerStatus {
	t.Helper()
	deadline := time.Now().Add(patience)
	for {
		st := statusOf(t, m, name)
		if st.State == want {
			return st
		}
		if time.Now().After(deadline) {
			t.Fatalf("server %q never reached %v: %+v", name, want, st)
		}
		time.Sleep(10 * time.Millisecond)
	}
}

// A server behind OAuth waits for the person's authorization as "authorization
// required", longer than the connect timeout, while the other servers work;
// once authorized it connects, and its grant is kept in a file only its
// owner can read.
func TestOAuthServerWaitsForAuthorizationWhileOthersWork(t *testing.T) {
	as := oauthServer(t, testservers.OAuthOptions{})
	p := newPerson(t)
	store := oauth.FileStore{Dir: filepath.Join(t.TempDir(), "tokens")}
	m := start(t, []pool.ServerConfig{behaviourInMemory("plain"), {Name: "secure", URL: as.URL}}, pool.Options{
		OAuth:          &oauth.Options{Authorizer: p, Store: store},
		ConnectTimeout: 100 * time.Millisecond,
	})

	var req oauth.Request
	select {
	case req = <-p.asked:
	case <-time.After(patience):
		t.Fatal("the person was never asked")
	}
	if req.Server != "secure" || !strings.HasPrefix(req.URL, strings.TrimSuffix(as.URL, "/mcp")+"/authorize?") {
		t.Fatalf("authorization request %+v", req)
	}
	st := waitState(t, m, "secure", pool.StateAuthorizationRequired)
	if !errors.Is(st.Err, oauth.ErrAuthorizationRequired) || st.State.String() != "authorization required" {
		t.Errorf("status while waiting: %+v", st)
	}
	if _, err := m.Call(context.Background(), "mcp__plain__text", raw(`{}`)); err != nil {
		t.Errorf("the other server while one waits for authorization: %v", err)
	}
	_, err := m.Call(context.Background(), "mcp__secure__text", raw(`{}`))
	var ce *pool.CallError
	if !errors.As(err, &ce) || ce.Kind != pool.KindServerDown || err.Error() != needsAuthorization("mcp__secure__text", "secure") {
		t.Errorf("call to the waiting server: %v", err)
	}
	// The person takes longer than a handshake may.
	time.Sleep(3 * 100 * time.Millisecond)
	if err := testservers.FollowAuthorization(context.Background(), req.URL); err != nil {
		t.Fatal(err)
	}
	waitFor(t, m, "authorized server's tools", has("mcp__secure__text"))
	res, err := m.Call(context.Background(), "mcp__secure__echo", raw(`{"a":1}`))
	if err != nil || res.Value != `{"a":1}` {
		t.Fatalf("call after authorization: %+v, %v", res, err)
	}
	if as.Authorizations() != 1 {
		t.Errorf("authorizations: %d, want 1", as.Authorizations())
	}

	file := filepath.Join(store.Dir, "secure.json")
	info, err := os.Stat(file)
	if err != nil {
		t.Fatal(err)
	}
	if info.Mode().Perm() != 0o600 {
		t.Errorf("grant file mode %v, want 0600", info.Mode().Perm())
	}
	if dir, _ := os.Stat(store.Dir); dir.Mode().Perm() != 0o700 {
		t.Errorf("grant directory mode %v, want 0700", dir.Mode().Perm())
	}
	g, err := store.Load(context.Background(), "secure")
	if err != nil || g == nil || g.ServerURL != as.URL || g.Token.RefreshToken == "" || g.ClientID == "" {
		t.Fatalf("stored grant %+v, %v", g, err)
	}
}

// A stored grant connects the server after a restart without asking anyone,
// and a token that has expired (or is about to) is refreshed before it is
// sent; the refreshed token replaces the stored one.
func TestOAuthGrantSurvivesARestartAndIsRefreshedBeforeUse(t *testing.T) {
	as := oauthServer(t, testservers.OAuthOptions{})
	store := oauth.FileStore{Dir: t.TempDir()}
	servers := []pool.ServerConfig{{Name: "secure", URL: as.URL}}

	p := newPerson(t)
	p.approveAll(t)
	first := start(t, servers, pool.Options{OAuth: &oauth.Options{Authorizer: p, Store: store}})
	waitFor(t, first, "first authorization", has("mcp__secure__text"))
	if err := first.Close(); err != nil {
		t.Fatal(err)
	}
	// The access token lapses while the daemon is down.
	g, err := store.Load(context.Background(), "secure")
	if err != nil || g == nil {
		t.Fatalf("grant after the first run: %+v, %v", g, err)
	}
	stale := g.Token.AccessToken
	g.Token.Expiry = time.Now().Add(-time.Minute)
	if err := store.Save(context.Background(), "secure", g); err != nil {
		t.Fatal(err)
	}
	refreshes := as.Refreshes()

	// No Authorizer: only the stored grant can connect it.
	second := start(t, servers, pool.Options{OAuth: &oauth.Options{Store: store}})
	waitFor(t, second, "reconnect with the stored grant", has("mcp__secure__text"))
	if _, err := second.Call(context.Background(), "mcp__secure__text", raw(`{}`)); err != nil {
		t.Fatalf("call with the refreshed token: %v", err)
	}
	if as.Authorizations() != 1 || as.Refreshes() <= refreshes {
		t.Errorf("authorizations %d (want 1), refreshes %d (want more than %d)", as.Authorizations(), as.Refreshes(), refreshes)
	}
	g, err = store.Load(context.Background(), "secure")
	if err != nil || g.Token.AccessToken == stale || !g.Token.Expiry.After(time.Now()) {
		t.Errorf("the refreshed token was not stored: %+v, %v", g, err)
	}
}

// With no one to ask and no grant, the server is "authorization required"
// and the others serve.
func TestOAuthServerWithoutAnAuthorizerIsAuthorizationRequired(t *testing.T) {
	as := oauthServer(t, testservers.OAuthOptions{})
	m := start(t, []pool.ServerConfig{behaviourInMemory("plain"), {Name: "secure", URL: as.URL}}, pool.Options{
		OAuth: &oauth.Options{Store: oauth.FileStore{Dir: t.TempDir()}},
	})
	st := waitState(t, m, "secure", pool.StateAuthorizationRequired)
	if !errors.Is(st.Err, oauth.ErrAuthorizationRequired) {
		t.Errorf("status %+v", st)
	}
	if _, err := m.Call(context.Background(), "mcp__plain__text", raw(`{}`)); err != nil {
		t.Errorf("the other server: %v", err)
	}
	if _, err := m.Call(context.Background(), "mcp__secure__text", raw(`{}`)); err == nil || err.Error() != needsAuthorization("mcp__secure__text", "secure") {
		t.Errorf("call to the unauthorized server: %v", err)
	}
}

// needsAuthorization is what a caller of a server waiting for
// authorization reads.
func needsAuthorization(tool, server string) string {
	return `MCP tool "` + tool + `" is not available: its server "` + server + `" is not connected: authorization required`
}

// No token or refresh token reaches a log line, a status or an error, even
// when the authorization server quotes one in its refusal.
func TestOAuthTokensStayOutOfLogsAndErrors(t *testing.T) {
	as := oauthServer(t, testservers.OAuthOptions{CarelessRefusals: true})
	store := oauth.FileStore{Dir: t.TempDir()}
	servers := []pool.ServerConfig{{Name: "secure", URL: as.URL}}
	logs := &testkit.SyncBuffer{}
	logger := zerolog.New(logs).Level(zerolog.TraceLevel)

	p := newPerson(t)
	p.approveAll(t)
	first := start(t, servers, pool.Options{Logger: logger, OAuth: &oauth.Options{Authorizer: p, Store: store}})
	waitFor(t, first, "authorization", has("mcp__secure__text"))
	if _, err := first.Call(context.Background(), "mcp__secure__echo", raw(`{}`)); err != nil {
		t.Fatal(err)
	}
	if err := first.Close(); err != nil {
		t.Fatal(err)
	}

	// The next run finds an expired token and a refresh token the server
	// no longer honours, and refuses quoting it.
	g, _ := store.Load(context.Background(), "secure")
	g.Token.Expiry = time.Now().Add(-time.Minute)
	if err := store.Save(context.Background(), "secure", g); err != nil {
		t.Fatal(err)
	}
	as.RevokeAll()
	second := start(t, servers, pool.Options{Logger: logger, OAuth: &oauth.Options{Store: store}})
	st := waitState(t, second, "secure", pool.StateRetrying)
	if st.Err == nil || !strings.Contains(st.Err.Error(), "[redacted]") {
		t.Errorf("the refusal should be reported with the token taken out: %v", st.Err)
	}
	_, callErr := second.Call(context.Background(), "mcp__secure__echo", raw(`{}`))

	seen := logs.String() + "\n" + st.Err.Error() + "\n" + callErr.Error()
	for _, tok := range as.Issued() {
		if strings.Contains(seen, tok) {
			t.Fatalf("a token reached the logs or an error: %s\n%s", tok, seen)
		}
	}
	if !strings.Contains(logs.String(), "[redacted]") {
		t.Errorf("the failed refresh was not logged:\n%s", logs.String())
	}
}

// Calls refused together (the server revoked the token) ask the person
// once: the others wait and use the token that authorization brought.
func TestOAuthCallsRefusedTogetherAskThePersonOnce(t *testing.T) {
	as := oauthServer(t, testservers.OAuthOptions{})
	p := newPerson(t)
	p.approveAll(t)
	m := start(t, []pool.ServerConfig{{Name: "secure", URL: as.URL}}, pool.Options{
		OAuth: &oauth.Options{Authorizer: p, Store: oauth.FileStore{Dir: t.TempDir()}},
	})
	waitFor(t, m, "first authorization", has("mcp__secure__echo"))
	as.RevokeAll()
	before := p.times.Load()
	var wg sync.WaitGroup
	errs := make(chan error, 4)
	for range 4 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			_, err := m.Call(context.Background(), "mcp__secure__echo", raw(`{}`))
			errs <- err
		}()
	}
	wg.Wait()
	close(errs)
	for err := range errs {
		if err != nil {
			t.Errorf("call after the revocation: %v", err)
		}
	}
	if asked := p.times.Load() - before; asked != 1 {
		t.Errorf("the person was asked %d times, want once", asked)
	}
}
