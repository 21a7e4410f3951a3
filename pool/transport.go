package pool

import (
	"context"
	"net/http"

	"github.com/modelcontextprotocol/go-sdk/auth"
	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// transportFor builds a fresh transport for one connection attempt. tap, when
// the transport is newline JSON, records raw tools/list replies; broken is
// called when an HTTP request or stream fails in transport; authz, when not
// nil, authorizes a streamable HTTP connection with OAuth.
func transportFor(ctx context.Context, cfg ServerConfig, opts *Options, tap *wireTap, broken func(), authz auth.OAuthHandler) (mcp.Transport, error) {
	switch {
	case cfg.Dial != nil:
		t, err := cfg.Dial(ctx)
		if err != nil {
			return nil, err
		}
		switch t.(type) {
		case *mcp.InMemoryTransport, *mcp.IOTransport, *mcp.CommandTransport:
			return tapTransport{Transport: t, tap: tap}, nil
		}
		return t, nil
	case cfg.Command != "":
		return tapTransport{Transport: &stdioTransport{cfg: cfg, grace: opts.StopGrace, log: opts.Logger}, tap: tap}, nil
	case cfg.Type == "sse":
		client := *httpClient(opts.HTTPClient, cfg.Headers)
		client.Transport = traced(opts, limitRoundTripper{next: watchRoundTripper{next: orDefault(client.Transport), broken: broken}, limit: int64(cfg.maxReplyBytes())})
		return &mcp.SSEClientTransport{Endpoint: cfg.URL, HTTPClient: &client, MaxEventSize: sdkEventLimit(cfg.maxReplyBytes())}, nil
	default:
		// The tap sees what the limiter lets through, never a reply
		// over the limit.
		client := *httpClient(opts.HTTPClient, cfg.Headers)
		client.Transport = traced(opts, taskNameRoundTripper{next: tapRoundTripper{next: limitRoundTripper{next: watchRoundTripper{next: orDefault(client.Transport), broken: broken}, limit: int64(cfg.maxReplyBytes())}, tap: tap}})
		return &mcp.StreamableClientTransport{Endpoint: cfg.URL, HTTPClient: &client, OAuthHandler: authz, MaxEventSize: sdkEventLimit(cfg.maxReplyBytes())}, nil
	}
}

// httpClient returns base sending headers with every
// request.
func httpClient(base *http.Client, headers map[string]string) *http.Client {
	if len(headers) == 0 {
		return base
	}
	c := *base
	c.Transport = headerTransport{next: orDefault(c.Transport), headers: headers}
	return &c
}

type headerTransport struct {
	next    http.RoundTripper
	headers map[string]string
}

func (t headerTransport) RoundTrip(req *http.Request) (*http.Response, error) {
	req = req.Clone(req.Context())
	for k, v := range t.headers {
		req.Header.Set(k, v)
	}
	return t.next.RoundTrip(req)
}

func orDefault(t http.RoundTripper) http.RoundTripper {
	if t == nil {
		return http.DefaultTransport
	}
	return t
}
