package pool

import (
	"errors"
	"io"
	"net/http"
	"sync/atomic"
)

// watchRoundTripper tells the pool when an HTTP server may be gone: a
// request that fails in transport (connection refused, reset) or a response
// stream that breaks off. The SDK's streamable client resumes a broken call
// stream with a backoff schedule of several seconds, which is right for a
// flaky network and wrong for a server that died; the pool answers the
// signal with a ping, which fails at once when nothing listens any more and
// then fails the calls in flight with that reason.
type watchRoundTripper struct {
	next   http.RoundTripper
	broken func()
}

func (t watchRoundTripper) RoundTrip(req *http.Request) (*http.Response, error) {
	resp, err := t.next.RoundTrip(req)
	if err != nil {
		if req.Context().Err() == nil {
			t.broken()
		}
		return nil, err
	}
	resp.Body = &watchedBody{ReadCloser: resp.Body, req: req, broken: t.broken}
	return resp, nil
}

// watchedBody reports a read that fails other than by the stream's end.
type watchedBody struct {
	io.ReadCloser
	req    *http.Request
	broken func()
	closed atomic.Bool // Close may run beside a Read
}

func (b *watchedBody) Read(p []byte) (int, error) {
	n, err := b.ReadCloser.Read(p)
	if err != nil && !errors.Is(err, io.EOF) && !b.closed.Load() && b.req.Context().Err() == nil {
		b.broken()
	}
	return n, err
}

func (b *watchedBody) Close() error {
	b.closed.Store(true)
	return b.ReadCloser.Close()
}
