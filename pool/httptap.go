package pool

import (
	"bytes"
	"io"
	"mime"
	"net/http"

	"github.com/modelcontextprotocol/go-sdk/jsonrpc"
)

// tapRoundTripper records raw tools/list and tools/call replies of a
// streamable HTTP server for wireTap, as tapConn does for newline-JSON
// connections: a request is one POST, and its reply comes back in that
// POST's response, either as a JSON body or as an event of an SSE body.
// Other requests pass through untouched.
type tapRoundTripper struct {
	next http.RoundTripper
	tap  *wireTap
}

func (t tapRoundTripper) RoundTrip(req *http.Request) (*http.Response, error) {
	if req.Method != http.MethodPost || req.Body == nil || req.GetBody == nil {
		return t.next.RoundTrip(req)
	}
	body, err := req.GetBody() // a copy: the original still goes out
	if err != nil {
		return t.next.RoundTrip(req)
	}
	data, err := io.ReadAll(body)
	body.Close()
	if err != nil {
		return t.next.RoundTrip(req)
	}
	// Decode only what may be wanted: a funnel call, or a listing.
	if req.Context().Value(rawReplyKey{}) == nil && !bytes.Contains(data, []byte(`"tools/list"`)) {
		return t.next.RoundTrip(req)
	}
	msg, err := jsonrpc.DecodeMessage(data)
	if err != nil || !t.tap.sent(req.Context(), msg) {
		return t.next.RoundTrip(req)
	}
	resp, err := t.next.RoundTrip(req)
	if err != nil || resp.StatusCode != http.StatusOK {
		return resp, err
	}
	mediaType, _, _ := mime.ParseMediaType(resp.Header.Get("Content-Type"))
	switch mediaType {
	case "application/json":
		resp.Body = &tee{ReadCloser: resp.Body, sink: &jsonSink{tap: t.tap}}
	case "text/event-stream":
		resp.Body = &tee{ReadCloser: resp.Body, sink: &eventSink{tap: t.tap}}
	}
	return resp, nil
}

// tee hands a copy of everything read to sink.
type tee struct {
	io.ReadCloser
	sink io.Writer
}

func (t *tee) Read(p []byte) (int, error) {
	n, err := t.ReadCloser.Read(p)
	_, _ = t.sink.Write(p[:n])
	if err == io.EOF {
		if f, ok := t.sink.(interface{ flush() }); ok {
			f.flush()
		}
	}
	return n, err
}

// jsonSink collects a JSON body and reports it at EOF.
type jsonSink struct {
	tap *wireTap
	buf bytes.Buffer
}

func (s *jsonSink) Write(p []byte) (int, error) { return s.buf.Write(p) }

func (s *jsonSink) flush() {
	if msg, err := jsonrpc.DecodeMessage(s.buf.Bytes()); err == nil {
		s.tap.received(msg)
	}
	s.buf.Reset()
}

// eventSink reassembles server-sent events and reports each data payload.
type eventSink struct {
	tap     *wireTap
	partial []byte // an unfinished line
	data    bytes.Buffer
}

func (s *eventSink) Write(p []byte) (int, error) {
	s.partial = append(s.partial, p...)
	for {
		i := bytes.IndexByte(s.partial, '\n')
		if i < 0 {
			return len(p), nil
		}
		s.line(bytes.TrimSuffix(s.partial[:i], []byte("\r")))
		s.partial = s.partial[i+1:]
	}
}

func (s *eventSink) line(line []byte) {
	switch {
	case len(line) == 0:
		s.flush()
	case bytes.HasPrefix(line, []byte("data:")):
		if s.data.Len() > 0 {
			s.data.WriteByte('\n')
		}
		s.data.Write(bytes.TrimPrefix(bytes.TrimPrefix(line, []byte("data:")), []byte(" ")))
	}
}

func (s *eventSink) flush() {
	if s.data.Len() > 0 {
		if msg, err := jsonrpc.DecodeMessage(s.data.Bytes()); err == nil {
			s.tap.received(msg)
		}
	}
	s.data.Reset()
}
