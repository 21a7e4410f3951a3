package gateway

import (
	"context"
	"io"
	"net"
	"net/http"
	"net/http/httptest"
	"strconv"
	"strings"
	"testing"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/mcpexec/mcpexec"
	"github.com/mcpexec/mcpexec/internal/testservers"
	"github.com/mcpexec/mcpexec/pool"
)

const initializeBody = `{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-11-25","capabilities":{},"clientInfo":{"name":"t","version":"1"}}}`

// post sends an initialize request with the given headers and returns the
// status.
func post(t *testing.T, url string, headers map[string]string) int {
	t.Helper()
	req, err := http.NewRequest(http.MethodPost, url, strings.NewReader(initializeBody))
	if err != nil {
		t.Fatal(err)
	}
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("Accept", "application/json, text/event-stream")
	for k, v := range headers {
		if k == "Host" {
			req.Host = v
			continue
		}
		req.Header.Set(k, v)
	}
	res, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	res.Body.Close()
	return res.StatusCode
}

// Against DNS rebinding: a foreign Host or Origin is refused, loopback ones
// and allowed origins are served.
func TestHTTPRefusesForeignHostAndOrigin(t *testing.T) {
	f := start(t, allowB, mcpexec.Options{})
	srv := httptest.NewServer(f.gw.Handler(HTTPOptions{AllowedOrigins: []string{"https://app.example"}}))
	defer srv.Close()
	port := srv.Listener.Addr().(*net.TCPAddr).Port
	for _, tt := range []struct {
		name    string
		headers map[string]string
		want    int
	}{
		{"foreign host", map[string]string{"Host": "evil.example.com", "Origin": "http://evil.example.com"}, http.StatusForbidden},
		{"foreign host alone", map[string]string{"Host": "evil.example.com"}, http.StatusForbidden},
		{"foreign origin", map[string]string{"Origin": "http://evil.example.com"}, http.StatusForbidden},
		{"loopback origin", map[string]string{"Origin": "http://localhost:" + strconv.Itoa(port)}, http.StatusOK},
		{"allowed origin", map[string]string{"Origin": "https://app.example"}, http.StatusOK},
		{"no origin", nil, http.StatusOK},
	} {
		if got := post(t, srv.URL, tt.headers); got != tt.want {
			t.Errorf("%s: status %d, want %d", tt.name, got, tt.want)
		}
	}
}

// tokenTransport adds a bearer token to every request.
type tokenTransport struct{ token string }

func (tt tokenTransport) RoundTrip(r *http.Request) (*http.Response, error) {
	r = r.Clone(r.Context())
	r.Header.Set("Authorization", "Bearer "+tt.token)
	return http.DefaultTransport.RoundTrip(r)
}

// With a token set, a request without it is refused and a client that
// sends it is served.
func TestHTTPBearerToken(t *testing.T) {
	f := start(t, allowB, mcpexec.Options{})
	srv := httptest.NewServer(f.gw.Handler(HTTPOptions{Token: "s3cret"}))
	defer srv.Close()
	for _, c := range []struct {
		header, want, challenge string
	}{
		{"", "Unauthorized: a bearer token is required", `Bearer realm="mcpexec"`},
		{"Basic dXNlcjpwdw==", "Unauthorized: a bearer token is required", `Bearer realm="mcpexec"`},
		{"Bearer wrong", "Unauthorized: the bearer token is invalid", `Bearer realm="mcpexec", error="invalid_token", error_description="the bearer token is invalid"`},
	} {
		req, err := http.NewRequest(http.MethodPost, srv.URL, strings.NewReader(`{}`))
		if err != nil {
			t.Fatal(err)
		}
		if c.header != "" {
			req.Header.Set("Authorization", c.header)
		}
		resp, err := http.DefaultClient.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		body, _ := io.ReadAll(resp.Body)
		resp.Body.Close()
		if resp.StatusCode != http.StatusUnauthorized || strings.TrimSpace(string(body)) != c.want || resp.Header.Get("WWW-Authenticate") != c.challenge {
			t.Errorf("Authorization %q: %d %q, challenge %q; want 401 %q, challenge %q",
				c.header, resp.StatusCode, body, resp.Header.Get("WWW-Authenticate"), c.want, c.challenge)
		}
	}
	ctx := context.Background()
	transport := &mcp.StreamableClientTransport{Endpoint: srv.URL, HTTPClient: &http.Client{Transport: tokenTransport{"s3cret"}}}
	cs, err := mcp.NewClient(&mcp.Implementation{Name: "t", Version: "1"}, nil).Connect(ctx, transport, nil)
	if err != nil {
		t.Fatal(err)
	}
	defer cs.Close()
	res, err := cs.CallTool(ctx, &mcp.CallToolParams{Name: "Exec", Arguments: map[string]string{"code": `return await tools.mcp__b__text({})`}})
	if err != nil {
		t.Fatal(err)
	}
	if res.IsError || !strings.Contains(firstText(res), "first") {
		t.Errorf("result isError=%v %q", res.IsError, firstText(res))
	}
}

// Serve stops when its context ends, even with a client connected and a
// script running: the script aborts and nothing is left behind (the
// fixture checks goroutines, and closes the System after).
func TestServeShutsDownWithAScriptRunning(t *testing.T) {
	blocker, started := blockingServer()
	f := start(t, `{"permissions": {"allow": ["mcp__w"]}}`, mcpexec.Options{
		Servers: []pool.ServerConfig{{Name: "w", Dial: testservers.DialInMemory(blocker)}},
	})
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	ctx, stop := context.WithCancel(context.Background())
	served := make(chan error, 1)
	go func() { served <- f.gw.Serve(ctx, ln, HTTPOptions{}) }()

	cs, err := mcp.NewClient(&mcp.Implementation{Name: "t", Version: "1"}, nil).Connect(context.Background(),
		&mcp.StreamableClientTransport{Endpoint: "http://" + ln.Addr().String()}, nil)
	if err != nil {
		t.Fatal(err)
	}
	defer cs.Close()
	called := make(chan *mcp.CallToolResult, 1)
	go func() {
		res, _ := cs.CallTool(context.Background(), &mcp.CallToolParams{Name: "Exec", Arguments: map[string]string{"code": `await tools.mcp__w__wait({})`}})
		called <- res
	}()
	<-started
	stop()
	if err := <-served; err != nil {
		t.Errorf("Serve: %v", err)
	}
	if res := <-called; res != nil && !res.IsError {
		t.Errorf("the running script was not aborted: %q", firstText(res))
	}
}
