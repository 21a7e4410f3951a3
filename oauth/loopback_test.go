package oauth_test

import (
	"context"
	"io"
	"net/http"
	"net/url"
	"strings"
	"testing"
	"time"

	"github.com/mcpexec/mcpexec/oauth"
)

// loopback returns a Loopback that reports each URL it is asked to show.
func loopback(t *testing.T) (*oauth.Loopback, chan oauth.Request) {
	t.Helper()
	shown := make(chan oauth.Request, 4)
	lb, err := oauth.NewLoopback("", func(_ context.Context, req oauth.Request) error {
		shown <- req
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = lb.Close() })
	return lb, shown
}

// redirect plays the authorization server sending the browser back.
func redirect(t *testing.T, lb *oauth.Loopback, query url.Values) (int, string) {
	t.Helper()
	client := &http.Client{Transport: &http.Transport{DisableKeepAlives: true}}
	resp, err := client.Get(lb.RedirectURL() + "?" + query.Encode())
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	body, _ := io.ReadAll(resp.Body)
	return resp.StatusCode, string(body)
}

type outcome struct {
	code, iss string
	err       error
}

// Two servers authorizing at once each get the redirect that carries their
// own state.
func TestLoopbackDeliversEachRedirectToItsAuthorization(t *testing.T) {
	lb, shown := loopback(t)
	if !strings.HasPrefix(lb.RedirectURL(), "http://127.0.0.1:") || !strings.HasSuffix(lb.RedirectURL(), "/callback") {
		t.Fatalf("redirect URL %q is not a loopback URL", lb.RedirectURL())
	}
	results := map[string]chan outcome{"a": make(chan outcome, 1), "b": make(chan outcome, 1)}
	for server, ch := range results {
		go func() {
			res, err := lb.Authorize(context.Background(), oauth.Request{
				Server: server, URL: "https://as.example/authorize?state=state-" + server,
			})
			if err != nil {
				ch <- outcome{err: err}
				return
			}
			ch <- outcome{code: res.Code, iss: res.Iss}
		}()
	}
	for range 2 {
		<-shown
	}
	for _, server := range []string{"b", "a"} {
		status, body := redirect(t, lb, url.Values{"state": {"state-" + server}, "code": {"code-" + server}, "iss": {"https://as.example"}})
		if status != http.StatusOK || !strings.Contains(body, "complete") {
			t.Errorf("redirect for %s: %d %q", server, status, body)
		}
	}
	for server, ch := range results {
		select {
		case got := <-ch:
			if got.err != nil || got.code != "code-"+server || got.iss != "https://as.example" {
				t.Errorf("authorization of %s: %+v", server, got)
			}
		case <-time.After(time.Minute):
			t.Fatalf("authorization of %s never returned", server)
		}
	}
}

// A refusal comes back as an error naming it; a redirect nobody waits for
// is turned away.
func TestLoopbackReportsRefusalsAndUnknownRedirects(t *testing.T) {
	lb, shown := loopback(t)
	errs := make(chan error, 1)
	go func() {
		_, err := lb.Authorize(context.Background(), oauth.Request{Server: "s", URL: "https://as.example/authorize?state=xyz"})
		errs <- err
	}()
	<-shown
	if status, _ := redirect(t, lb, url.Values{"state": {"other"}, "code": {"c"}}); status != http.StatusBadRequest {
		t.Errorf("redirect with an unknown state: %d, want 400", status)
	}
	redirect(t, lb, url.Values{"state": {"xyz"}, "error": {"access_denied"}, "error_description": {"the person said no"}})
	select {
	case err := <-errs:
		if err == nil || !strings.Contains(err.Error(), "access_denied (the person said no)") {
			t.Errorf("refusal: %v", err)
		}
	case <-time.After(time.Minute):
		t.Fatal("the refused authorization never returned")
	}
}

// An authorization nobody completes ends with its context.
func TestLoopbackAuthorizationEndsWithItsContext(t *testing.T) {
	lb, _ := loopback(t)
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	if _, err := lb.Authorize(ctx, oauth.Request{Server: "s", URL: "https://as.example/authorize?state=s1"}); err != context.Canceled {
		t.Errorf("err = %v, want context.Canceled", err)
	}
}
