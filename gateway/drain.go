package gateway

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"os"
	"sync"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// Stopping a gateway answers everyone. When serving ends (a signal), the
// tool calls still running are aborted, and the gateway waits for every
// request it has read to get its JSON-RPC response (an aborted Exec's
// failure result, typically within moments) before it closes a session or
// a connection. The wait is bounded by drainTimeout, well under the 30
// seconds a process supervisor usually gives before it kills.

// drainTimeout bounds the wait for the requests in flight to be answered
// once serving stops.
const drainTimeout = 10 * time.Second

// outstanding counts requests read and not yet answered.
type outstanding struct {
	mu    sync.Mutex
	n     int
	idle  chan struct{} // closed when n drops to 0 while someone waits
	byKey map[string]int
}

func (o *outstanding) add(key string) {
	o.mu.Lock()
	defer o.mu.Unlock()
	o.n++
	if key != "" {
		if o.byKey == nil {
			o.byKey = map[string]int{}
		}
		o.byKey[key]++
	}
}

func (o *outstanding) done(key string) {
	o.mu.Lock()
	defer o.mu.Unlock()
	if key != "" {
		if o.byKey[key] == 0 {
			return // a response to no request of the peer's: not counted
		}
		if o.byKey[key]--; o.byKey[key] == 0 {
			delete(o.byKey, key)
		}
	}
	o.n--
	if o.n == 0 && o.idle != nil {
		close(o.idle)
		o.idle = nil
	}
}

// wait returns once nothing is outstanding, or after timeout; it reports
// whether everything was answered.
func (o *outstanding) wait(timeout time.Duration) bool {
	o.mu.Lock()
	if o.n == 0 {
		o.mu.Unlock()
		return true
	}
	if o.idle == nil {
		o.idle = make(chan struct{})
	}
	idle := o.idle
	o.mu.Unlock()
	timer := time.NewTimer(timeout)
	defer timer.Stop()
	select {
	case <-idle:
		return true
	case <-timer.C:
		return false
	}
}

// abortCalls cancels the tool calls in flight (their scripts abort and
// their handlers return failure results) and every call that starts from
// now on; the sessions stay open to carry the answers.
func (g *Gateway) abortCalls() { g.stop() }

// countPosts counts the HTTP requests that carry JSON-RPC messages: a POST
// returns once the responses to what it carried are written. A GET (the
// client's event stream) is never answered and is not counted.
func countPosts(next http.Handler, o *outstanding) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.Method != http.MethodPost {
			next.ServeHTTP(w, r)
			return
		}
		o.add("")
		defer o.done("")
		next.ServeHTTP(w, r)
	})
}

// drainHTTP stops srv answering everyone: it stops taking connections,
// aborts the calls in flight, waits for the POSTs in flight to be answered,
// then ends the requests still open (event streams) and closes the
// Gateway.
func (g *Gateway) drainHTTP(srv *http.Server, posts *outstanding, endRequests context.CancelFunc) {
	shut := make(chan error, 1)
	shutdownCtx, cancel := context.WithTimeout(context.Background(), drainTimeout+shutdownGrace)
	defer cancel()
	go func() { shut <- srv.Shutdown(shutdownCtx) }() // no new connections from here on
	g.abortCalls()
	if !posts.wait(drainTimeout) {
		g.logger.Warn().Msg("gateway: some requests were still unanswered when the drain timeout ran out")
	}
	endRequests()
	if err := <-shut; err != nil {
		_ = srv.Close()
	}
	g.Close()
}

// ServeStdio serves the gateway on standard input and output until ctx
// ends or the client closes its side. When ctx ends, the calls in flight are
// aborted and every request read gets its response before the session
// closes (within the drain timeout). It returns nil after a stop caused by
// ctx.
func (g *Gateway) ServeStdio(ctx context.Context) error {
	return g.serveStreams(ctx, os.Stdin, os.Stdout)
}

func (g *Gateway) serveStreams(ctx context.Context, in io.ReadCloser, out io.Writer) error {
	pending := &outstanding{}
	run, stopRun := context.WithCancel(context.Background())
	defer stopRun()
	go func() {
		select {
		case <-ctx.Done():
		case <-run.Done():
			return
		}
		g.abortCalls()
		if !pending.wait(drainTimeout) {
			g.logger.Warn().Msg("gateway: some requests were still unanswered when the drain timeout ran out")
		}
		stopRun()
	}()
	transport := &mcp.IOTransport{
		Reader: readCloser{Reader: &lineWatcher{r: in, onLine: pending.sawRequest}, Closer: in},
		Writer: nopCloser{&lineWatcher{w: out, onLine: pending.sawResponse}},
	}
	err := g.runWithTasks(run, transport)
	if ctx.Err() != nil {
		return nil
	}
	return err
}

type readCloser struct {
	io.Reader
	io.Closer
}

type nopCloser struct{ io.Writer }

func (nopCloser) Close() error { return nil }

// lineWatcher passes newline-delimited JSON-RPC through unchanged and hands
// each complete line to onLine.
type lineWatcher struct {
	r      io.Reader
	w      io.Writer
	onLine func([]byte)
	part   []byte // the start of a line not yet ended
}

func (l *lineWatcher) Read(p []byte) (int, error) {
	n, err := l.r.Read(p)
	l.watch(p[:n])
	return n, err
}

func (l *lineWatcher) Write(p []byte) (int, error) {
	n, err := l.w.Write(p)
	l.watch(p[:n])
	return n, err
}

func (l *lineWatcher) watch(b []byte) {
	for len(b) > 0 {
		i := bytes.IndexByte(b, '\n')
		if i < 0 {
			l.part = append(l.part, b...)
			return
		}
		line := b[:i]
		if len(l.part) > 0 {
			line = append(l.part, line...)
			l.part = nil
		}
		l.onLine(line)
		b = b[i+1:]
	}
}

// envelope is what tells a request from a response: a request has a
// method, a response does not; a notification has no id.
type envelope struct {
	ID     json.RawMessage `json:"id"`
	Method string          `json:"method"`
}

// envelopes decodes one line: a message or a batch of them.
func envelopes(line []byte) []envelope {
	line = bytes.TrimSpace(line)
	if len(line) > 0 && line[0] == '[' {
		var batch []envelope
		_ = json.Unmarshal(line, &batch)
		return batch
	}
	var one envelope
	if json.Unmarshal(line, &one) != nil {
		return nil
	}
	return []envelope{one}
}

// idKey names a JSON-RPC id by its value: the client's 1 and the response's
// 1 are one id however each was spelled.
func idKey(raw json.RawMessage) string {
	var v any
	if len(raw) == 0 || json.Unmarshal(raw, &v) != nil || v == nil {
		return ""
	}
	return fmt.Sprintf("%T:%v", v, v)
}

// sawRequest counts the requests (not notifications) a line carries.
func (o *outstanding) sawRequest(line []byte) {
	for _, e := range envelopes(line) {
		if key := idKey(e.ID); key != "" && e.Method != "" {
			o.add(key)
		}
	}
}

// sawResponse settles the requests a line answers.
func (o *outstanding) sawResponse(line []byte) {
	for _, e := range envelopes(line) {
		if key := idKey(e.ID); key != "" && e.Method == "" {
			o.done(key)
		}
	}
}
