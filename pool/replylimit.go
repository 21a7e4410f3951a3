package pool

import (
	"bytes"
	"errors"
	"io"
	"mime"
	"net/http"
)

// limitRoundTripper holds the replies of an HTTP server to the server's
// reply limit without losing the connection. The SDK's clients fail the
// whole connection on an SSE event over their MaxEventSize (a "malformed"
// event) and read a JSON body whole, whatever its size. Below the SDK,
// each response body is read through a limiter: an event or a JSON body
// within the limit passes byte for byte; one over it is read to its end
// without being kept, and what reaches the SDK in its place is a JSON-RPC
// error answering the same request id (codeReplyTooLarge, as for stdio),
// so that call alone fails and names the size. An over-limit message with
// no id (a notification) is dropped. The SDK's own event limit stays as a
// backstop above this one.
type limitRoundTripper struct {
	next  http.RoundTripper
	limit int64
}

func (t limitRoundTripper) RoundTrip(req *http.Request) (*http.Response, error) {
	resp, err := t.next.RoundTrip(req)
	if err != nil || resp.Body == nil {
		return resp, err
	}
	mediaType, _, _ := mime.ParseMediaType(resp.Header.Get("Content-Type"))
	switch mediaType {
	case "text/event-stream":
		resp.Body = &sseLimiter{src: resp.Body, limit: t.limit}
	case "application/json":
		resp.Body = &jsonLimiter{src: resp.Body, limit: t.limit}
	}
	return resp, nil
}

// sdkEventLimit is the SDK's own event limit under a reply limit: room for
// the field names and line ends around the largest event let through.
func sdkEventLimit(limit int) int {
	return limit + 64<<10
}

// readChunk is how much of a response body a limiter reads at a time.
const readChunk = 32 << 10

// maxEventIDBytes bounds the id: field kept for an event replaced.
const maxEventIDBytes = 1 << 10

// sseLimiter passes a server-sent event stream through event by event,
// replacing each event larger than limit (see limitRoundTripper). An event
// is held until its blank line, as the SDK does before it acts on one, so
// nothing reaches the SDK later than it would have.
type sseLimiter struct {
	src   io.ReadCloser
	limit int64

	out [][]byte // complete events, ready for Read
	err error    // the source's error, returned once out is drained
	buf []byte   // what is read from the source

	// event holds the current event's pieces while it is within the
	// limit: pieces, not one buffer, so that a large event is neither
	// copied as it grows nor copied again on its way out.
	event [][]byte
	size  int64 // the current event's size so far
	over  bool
	ids   idScanner // the JSON-RPC id, from the event's data
	// fedData: the scanner has had a data line (the next one adds '\n').
	fedData bool
	// eventID is the current event's id: field, kept for the replacement:
	// the SDK resumes a stream from the last event id it saw.
	eventID []byte

	// The current line.
	lineLen   int
	field     []byte // its field name, up to the colon (or the whole line)
	inValue   bool   // past the colon
	skipSpace bool   // a space that comes next is not part of the value
	value     []byte // an id: line's value
	// afterCR: the last read ended on a '\r' line end; pendingEnd: that
	// line was blank, so the event ends once its '\n' (if any) is read.
	afterCR, pendingEnd bool
}

func (l *sseLimiter) Read(p []byte) (int, error) {
	if l.buf == nil {
		l.buf = make([]byte, readChunk)
	}
	for len(l.out) == 0 && l.err == nil {
		n, err := l.src.Read(l.buf)
		l.process(l.buf[:n])
		if err != nil {
			if l.pendingEnd {
				l.afterCR, l.pendingEnd = false, false
				l.endEvent()
			}
			// A stream that ends mid-event hands on what it had: the
			// SDK decides what a truncated event means.
			if !l.over {
				l.out = append(l.out, l.event...)
			}
			l.event = l.event[:0]
			l.err = err
		}
	}
	if len(l.out) > 0 {
		n := copy(p, l.out[0])
		if l.out[0] = l.out[0][n:]; len(l.out[0]) == 0 {
			l.out[0], l.out = nil, l.out[1:]
		}
		return n, nil
	}
	return 0, l.err
}

func (l *sseLimiter) Close() error { return l.src.Close() }

// process takes the next bytes of the stream.
func (l *sseLimiter) process(b []byte) {
	if l.afterCR {
		// A read ended on '\r': its '\n', if any, comes first here and
		// belongs to that line end, and so to the event it may end.
		l.afterCR = false
		if len(b) > 0 && b[0] == '\n' {
			l.keep(b[:1])
			b = b[1:]
		}
		if l.pendingEnd {
			l.pendingEnd = false
			l.endEvent()
		}
	}
	for len(b) > 0 {
		i := bytes.IndexAny(b, "\r\n")
		if i < 0 {
			l.linePart(b)
			l.keep(b)
			return
		}
		l.linePart(b[:i])
		end := i + 1
		if b[i] == '\r' && end < len(b) && b[end] == '\n' {
			end++
		}
		l.keep(b[:end])
		if b[i] == '\r' && end == len(b) {
			// Whether a '\n' follows is for the next read to say.
			l.afterCR, l.pendingEnd = true, l.lineLen == 0
			if l.pendingEnd {
				return
			}
		}
		b = b[end:]
		if l.lineLen == 0 {
			l.endEvent()
		} else {
			l.endLine()
		}
	}
}

// keep adds raw bytes to the current event, until it is over the limit.
func (l *sseLimiter) keep(b []byte) {
	l.size += int64(len(b))
	if l.over {
		return
	}
	if l.size > l.limit {
		l.over = true
		l.event = nil // let the memory go
		return
	}
	l.event = append(l.event, bytes.Clone(b))
}

// linePart takes a piece of the current line (not its end): its field
// name, an id: line's value, and a data line's value for the id scanner
// (which must have seen the whole event by the time it is over the limit).
func (l *sseLimiter) linePart(b []byte) {
	l.lineLen += len(b)
	if !l.inValue {
		name, value, colon := bytes.Cut(b, []byte(":"))
		l.field = append(l.field, name[:min(len(name), max(0, 8-len(l.field)))]...)
		if !colon {
			return
		}
		b, l.inValue, l.skipSpace = value, true, true
		if string(l.field) == "data" {
			if l.fedData {
				l.ids.feed([]byte{'\n'}) // data lines join with a newline
			}
			l.fedData = true
		}
	}
	if l.skipSpace && len(b) > 0 {
		// One space after the colon is not part of the value.
		b, l.skipSpace = bytes.TrimPrefix(b, []byte(" ")), false
	}
	switch string(l.field) {
	case "data":
		l.ids.feed(b)
	case "id":
		l.value = append(l.value, b[:min(len(b), max(0, maxEventIDBytes-len(l.value)))]...)
	}
}

// endLine ends a non-empty line.
func (l *sseLimiter) endLine() {
	if string(l.field) == "id" && l.inValue {
		l.eventID = append(l.eventID[:0], l.value...)
	}
	l.lineLen, l.field, l.inValue, l.skipSpace, l.value = 0, l.field[:0], false, false, l.value[:0]
}

// endEvent ends an event at its blank line: it passes on, or its
// replacement does.
func (l *sseLimiter) endEvent() {
	switch {
	case !l.over:
		l.out = append(l.out, l.event...)
	default:
		var r bytes.Buffer
		if len(l.eventID) > 0 {
			r.WriteString("id: ")
			r.Write(l.eventID)
			r.WriteString("\n")
		}
		// Without an id (a notification), an event with no data: the
		// SDK passes over it.
		if id, ok := l.ids.value(); ok {
			r.WriteString("data: ")
			r.Write(bytes.TrimSpace(tooLarge(id, l.size)))
			r.WriteString("\n")
		}
		r.WriteString("\n")
		l.out = append(l.out, r.Bytes())
	}
	l.event = l.event[:0]
	l.size, l.over, l.ids, l.fedData, l.eventID = 0, false, idScanner{}, false, l.eventID[:0]
	l.lineLen, l.field, l.inValue, l.skipSpace, l.value = 0, l.field[:0], false, false, l.value[:0]
}

// jsonLimiter passes a JSON response body within the limit through, and
// answers one over it with the error that stands for it. The SDK reads a
// JSON body whole before it acts, so holding it loses no time.
type jsonLimiter struct {
	src   io.ReadCloser
	limit int64
	out   io.Reader // the body or its replacement, once read
}

func (l *jsonLimiter) Read(p []byte) (int, error) {
	if l.out == nil {
		if err := l.load(); err != nil {
			return 0, err
		}
	}
	return l.out.Read(p)
}

func (l *jsonLimiter) load() error {
	var body bytes.Buffer
	n, err := io.Copy(&body, io.LimitReader(l.src, l.limit+1))
	if err != nil {
		return err
	}
	if n <= l.limit {
		l.out = &body
		return nil
	}
	var ids idScanner
	ids.feed(body.Bytes())
	body = bytes.Buffer{}
	buf := make([]byte, readChunk)
	size := n
	for {
		m, err := l.src.Read(buf)
		ids.feed(buf[:m])
		size += int64(m)
		if errors.Is(err, io.EOF) {
			break
		}
		if err != nil {
			return err
		}
	}
	id, ok := ids.value()
	if !ok {
		return errors.New("a reply without an id larger than the server is allowed to send")
	}
	l.out = bytes.NewReader(tooLarge(id, size))
	return nil
}

func (l *jsonLimiter) Close() error { return l.src.Close() }
