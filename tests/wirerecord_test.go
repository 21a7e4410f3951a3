package tests

import (
	"bytes"
	"context"
	"io"
	"net/http"
	"strings"
	"sync"

	"github.com/modelcontextprotocol/go-sdk/jsonrpc"
	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// wireRecord keeps what a gateway sends its client as it was written,
// before the client's SDK decodes it (which sorts the keys of every
// schema): the bodies of HTTP responses, the results of stdio replies.
type wireRecord struct {
	mu  sync.Mutex
	got bytes.Buffer
}

// contains reports whether the gateway sent s, byte for byte.
func (w *wireRecord) contains(s string) bool {
	w.mu.Lock()
	defer w.mu.Unlock()
	return strings.Contains(w.got.String(), s)
}

func (w *wireRecord) write(p []byte) {
	w.mu.Lock()
	defer w.mu.Unlock()
	w.got.Write(p)
}

// httpClient is an HTTP client that records response bodies in w; the
// default client when w is nil.
func (w *wireRecord) httpClient() *http.Client {
	if w == nil {
		return nil
	}
	return &http.Client{Transport: recordingRoundTripper{w}}
}

// transport is t recording the replies it reads in w; t when w is nil.
func (w *wireRecord) transport(t mcp.Transport) mcp.Transport {
	if w == nil {
		return t
	}
	return recordingTransport{Transport: t, wire: w}
}

type recordingRoundTripper struct{ wire *wireRecord }

func (r recordingRoundTripper) RoundTrip(req *http.Request) (*http.Response, error) {
	resp, err := http.DefaultTransport.RoundTrip(req)
	if err == nil {
		resp.Body = recordingBody{ReadCloser: resp.Body, wire: r.wire}
	}
	return resp, err
}

type recordingBody struct {
	io.ReadCloser
	wire *wireRecord
}

func (b recordingBody) Read(p []byte) (int, error) {
	n, err := b.ReadCloser.Read(p)
	b.wire.write(p[:n])
	return n, err
}

type recordingTransport struct {
	mcp.Transport
	wire *wireRecord
}

func (t recordingTransport) Connect(ctx context.Context) (mcp.Connection, error) {
	conn, err := t.Transport.Connect(ctx)
	if err != nil {
		return nil, err
	}
	return recordingConn{Connection: conn, wire: t.wire}, nil
}

type recordingConn struct {
	mcp.Connection
	wire *wireRecord
}

func (c recordingConn) Read(ctx context.Context) (jsonrpc.Message, error) {
	msg, err := c.Connection.Read(ctx)
	if resp, ok := msg.(*jsonrpc.Response); ok && err == nil {
		c.wire.write(resp.Result)
	}
	return msg, err
}
