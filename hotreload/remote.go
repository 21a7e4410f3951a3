package hotreload

import (
	"context"
	"fmt"
	"io"
	"net/http"
	"net/url"
)

// maxSettingsBytes bounds a settings document read from a file or an
// endpoint; real ones are a few kilobytes.
const maxSettingsBytes = 4 << 20

// remoteEndpoint fetches the remote override with conditional requests: the
// ETag of the last accepted document goes out as If-None-Match, and a 304
// means the last value still holds.
type remoteEndpoint struct {
	url    string
	client *http.Client
	// etag belongs to the last document the config actor accepted.
	etag string
}

// fetched is one answer of the endpoint.
type fetched struct {
	body        []byte
	etag        string
	notModified bool
}

func newRemoteEndpoint(rawURL string, client *http.Client) (*remoteEndpoint, error) {
	u, err := url.Parse(rawURL)
	if err != nil {
		return nil, fmt.Errorf("remote settings URL: %w", err)
	}
	if u.Scheme != "http" && u.Scheme != "https" {
		return nil, fmt.Errorf("remote settings URL %q: want http or https", rawURL)
	}
	return &remoteEndpoint{url: rawURL, client: client}, nil
}

func (r *remoteEndpoint) fetch(ctx context.Context) (fetched, error) {
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, r.url, nil)
	if err != nil {
		return fetched{}, err
	}
	req.Header.Set("Accept", "application/json")
	if r.etag != "" {
		req.Header.Set("If-None-Match", r.etag)
	}
	resp, err := r.client.Do(req)
	if err != nil {
		return fetched{}, fmt.Errorf("remote settings: %w", err)
	}
	defer resp.Body.Close()
	switch resp.StatusCode {
	case http.StatusNotModified:
		return fetched{notModified: true}, nil
	case http.StatusOK:
	default:
		_, _ = io.Copy(io.Discard, io.LimitReader(resp.Body, maxSettingsBytes))
		return fetched{}, fmt.Errorf("remote settings: %s answered %s", r.url, resp.Status)
	}
	body, err := io.ReadAll(io.LimitReader(resp.Body, maxSettingsBytes+1))
	if err != nil {
		return fetched{}, fmt.Errorf("remote settings: %w", err)
	}
	if len(body) > maxSettingsBytes {
		return fetched{}, fmt.Errorf("remote settings: %s sent a document that is too large", r.url)
	}
	return fetched{body: body, etag: resp.Header.Get("ETag")}, nil
}
