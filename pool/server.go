package pool

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"slices"
	"sync"
	"sync/atomic"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/mcpexec/mcpexec/internal/telemetry"
)

// maxListPages stops a server whose tools/list never ends.
const maxListPages = 10000

// server keeps one configured server connected: connect, list, follow
// list_changed, and on any failure withdraw its tools and reconnect after a
// backoff. Its run loop is the only writer of live.
type server struct {
	cfg     ServerConfig
	m       *Manager
	changed chan struct{} // list_changed signals, coalesced
	probe   chan struct{} // a call failed in transport: is the server still there?
	live    atomic.Pointer[liveSession]
	tried   sync.Once // the first attempt has finished
	calls   inflight  // calls waiting for their reply
	urlAsks urlAsks   // url-mode questions awaiting their completion (elicit_url.go)
	// countsForReady: the server was configured at New, so Ready waits
	// for its first attempt.
	countsForReady bool
	// stop ends the server's run; done is closed when it has returned.
	stop context.CancelFunc
	done chan struct{}
	// stopping says why stop was called (see endReason).
	stopping atomic.Pointer[error]
}

func newServer(m *Manager, cfg ServerConfig) *server {
	return &server{cfg: cfg, m: m, changed: make(chan struct{}, 1), probe: make(chan struct{}, 1), done: make(chan struct{})}
}

// errClosedByServer ends a session the server closed (or died in).
var errClosedByServer = errors.New("connection closed by the server")

// errHandshakeTimeout is a server that did not finish initialize in time.
// Models read it (as why a server is down): no figures in it.
var errHandshakeTimeout = errors.New("the server did not finish the MCP handshake in time")

// connectTimeout is the server's own, or the Manager's.
func (s *server) connectTimeout() time.Duration {
	if s.cfg.ConnectTimeout > 0 {
		return s.cfg.ConnectTimeout
	}
	return s.m.opts.ConnectTimeout
}

// connHandle keeps the connection a transport made, so that a dead one can
// be closed without waiting for the session. The connection itself is
// handed to the SDK unwrapped: it looks for methods of its own types on it.
type connHandle struct {
	mcp.Transport
	mu   sync.Mutex
	conn mcp.Connection
}

func (h *connHandle) Connect(ctx context.Context) (mcp.Connection, error) {
	conn, err := h.Transport.Connect(ctx)
	h.mu.Lock()
	h.conn = conn
	h.mu.Unlock()
	return conn, err
}

// abort closes the connection: reads end, and with them every call still
// waiting for an answer.
func (h *connHandle) abort() {
	h.mu.Lock()
	conn := h.conn
	h.mu.Unlock()
	if conn != nil {
		_ = conn.Close()
	}
}

// suspect asks the run loop to check the connection: over HTTP a server that
// went away is only noticed when a request fails.
func (s *server) suspect() {
	select {
	case s.probe <- struct{}{}:
	default:
	}
}

// firstAttemptDone tells the Manager, once, that this server has been tried.
func (s *server) firstAttemptDone() {
	s.tried.Do(func() {
		if s.countsForReady {
			s.m.attempted()
		}
	})
}

// liveSession is the connection calls go to.
type liveSession struct {
	session *mcp.ClientSession
	ended   chan struct{} // closed when the connection is gone
	tap     *wireTap
	tasks   *liveTasks
	// newProtocol: the session speaks 2026-07-28 or later; offersTasks:
	// its server declared the tasks extension (tasks20260728.go).
	newProtocol, offersTasks bool
}

func (s *server) run(ctx context.Context) {
	log := s.m.log.With().Str("server", s.cfg.Name).Logger()
	defer s.firstAttemptDone() // stopped before its first attempt ended
	for attempt := 0; ; attempt++ {
		up, err := s.connectAndServe(ctx)
		if ctx.Err() != nil {
			return
		}
		if up >= s.m.opts.BackoffMax {
			// It stayed up for a while: start the schedule over. A server
			// that dies right after every start keeps backing off.
			attempt = 0
		}
		delay := Backoff(attempt, s.m.opts.BackoffBase, s.m.opts.BackoffMax)
		log.Warn().Err(err).Dur("retry_in", delay).Msg("mcp server unavailable")
		s.m.withdraw(s.cfg.Name, failureState(err), err)
		s.firstAttemptDone()
		timer := time.NewTimer(delay)
		select {
		case <-ctx.Done():
			timer.Stop()
			return
		case <-timer.C:
		}
	}
}

// connectAndServe runs one connection until it ends. up is how long the
// server's tools were in the pool (0 if they never got there).
func (s *server) connectAndServe(ctx context.Context) (up time.Duration, err error) {
	// Some transports keep Connect's context for the whole session (the SSE
	// transport's event stream), so it must outlive Connect: the deadline
	// cancels it only while connecting.
	sessionCtx, endSession := context.WithCancel(ctx)
	defer endSession()
	deadline := newConnectDeadline(s.connectTimeout(), endSession)
	defer deadline.stop()
	authz, err := s.oauthHandler(ctx, deadline)
	if err != nil {
		return 0, err
	}
	tap := newWireTap()
	transport, err := transportFor(ctx, s.cfg, &s.m.opts, tap, s.suspect, authz)
	if err != nil {
		return 0, err
	}
	copts := s.m.opts.ClientOptions
	copts.ToolListChangedHandler = func(context.Context, *mcp.ToolListChangedRequest) {
		select {
		case s.changed <- struct{}{}:
		default: // a refresh is already due; floods coalesce here
		}
	}
	if copts.ProgressNotificationHandler == nil {
		copts.ProgressNotificationHandler = s.m.progress.deliver
	}
	if copts.LoggingMessageHandler == nil && debugging(s.m.log) {
		copts.LoggingMessageHandler = relayLogs(s.m.log, s.cfg.Name)
	}
	if s.m.opts.Elicitor != nil {
		copts.ElicitationHandler = s.elicit
		copts.ElicitationCompleteHandler = s.elicitationComplete
		copts.Capabilities = elicitationCapabilities(copts.Capabilities)
	}
	holdInputForCaller(&copts)
	client := mcp.NewClient(s.m.opts.ClientInfo, &copts)
	registerTaskMethods(client)
	if t := s.m.opts.Telemetry; t != nil {
		client.AddSendingMiddleware(traceRequests(t, telemetry.NewPeer(s.cfg.Name, s.cfg.URL)))
	}
	handle := &connHandle{Transport: transport}
	deadline.start()
	session, err := client.Connect(sessionCtx, handle, nil)
	if deadline.stop() {
		if err == nil {
			_ = session.Close()
		}
		// The process ends because it was stopped, which says nothing.
		return 0, errHandshakeTimeout
	}
	if err != nil {
		return 0, explain(transport, err)
	}
	ended := make(chan struct{})
	go func() {
		_ = session.Wait()
		close(ended)
	}()
	tasks := newLiveTasks()
	defer func() {
		// Calls must learn why at once: closing a stdio session waits for
		// the process to be reaped, and until the run loop records the
		// exit the server would read as connected with no session.
		s.m.withdraw(s.cfg.Name, StateRetrying, s.endReason(ctx, err))
		s.live.Store(nil)
		// Calls running as tasks cancel them on the server while the
		// connection still carries the request.
		tasks.close(taskCancelGrace)
		if err != nil {
			// The connection is dead: close it under the session first.
			// The SDK's Close waits for the calls in flight, and over HTTP
			// those wait out a reconnect schedule before they fail.
			handle.abort()
		}
		_ = session.Close() // for stdio: returns once the process is reaped
		<-ended
		if err != nil {
			err = explain(transport, err) // a crash shows up as any of several errors
		}
	}()
	// Drop signals left over from an earlier connection: we list now anyway,
	// and this connection is new.
	for _, ch := range []chan struct{}{s.changed, s.probe} {
		select {
		case <-ch:
		default:
		}
	}
	tools, err := s.list(ctx, session, tap)
	if err != nil {
		return 0, err
	}
	if debugging(s.m.log) {
		askForLogs(ctx, session)
	}
	instructions, implementation := "", ""
	if init := session.InitializeResult(); init != nil {
		instructions = init.Instructions
		if info := init.ServerInfo; info != nil {
			implementation = info.Name + " " + info.Version
		}
	}
	s.live.Store(&liveSession{session: session, ended: ended, tap: tap, tasks: tasks,
		newProtocol: newProtocol(session), offersTasks: offersTasksExtension(session)})
	s.m.countConnect(s.cfg.Name)
	s.m.publish(ServerTools{Server: s.cfg.Name, Instructions: instructions, Implementation: implementation, Tools: tools})
	s.m.log.Debug().Str("server", s.cfg.Name).Int("tools", len(tools)).Msg("mcp server connected")
	since := time.Now()
	s.firstAttemptDone()
	var tick <-chan time.Time // nil: never
	if every := s.m.opts.PingInterval; every > 0 {
		ticker := time.NewTicker(every)
		defer ticker.Stop()
		tick = ticker.C
	}
	for {
		select {
		case <-ctx.Done():
			return time.Since(since), nil
		case <-ended:
			return time.Since(since), errClosedByServer
		case <-s.probe:
			if err := s.ping(ctx, session, handle); err != nil {
				return time.Since(since), err
			}
		case <-tick:
			if err := s.ping(ctx, session, handle); err != nil {
				return time.Since(since), err
			}
		case <-s.changed:
			tools, err := s.list(ctx, session, tap)
			if err != nil {
				// The old list stays: a failed refresh says nothing about
				// which tools went away. A dead connection ends the loop.
				s.m.log.Warn().Str("server", s.cfg.Name).Err(err).Msg("tools/list refresh failed")
				continue
			}
			s.m.publish(ServerTools{Server: s.cfg.Name, Instructions: instructions, Implementation: implementation, Tools: tools})
			s.m.log.Debug().Str("server", s.cfg.Name).Int("tools", len(tools)).Msg("mcp server tools changed")
		}
	}
}

// ping checks that the server still answers; nil when ctx ended, and nil
// when the ping went unanswered while the server's bytes kept arriving
// (see liveness.go).
func (s *server) ping(ctx context.Context, session *mcp.ClientSession, conn *connHandle) error {
	before, counted := conn.activity()
	pctx, cancel := context.WithTimeout(ctx, s.connectTimeout())
	defer cancel()
	err := session.Ping(pctx, nil)
	if err == nil || ctx.Err() != nil {
		return nil
	}
	if after, _ := conn.activity(); counted && after > before && pctx.Err() != nil {
		s.m.log.Debug().Str("server", s.cfg.Name).Msg("ping unanswered while the server's output was still coming in: kept the connection")
		return nil
	}
	return fmt.Errorf("the server stopped answering: %w", err)
}

// list reads every page of tools/list. Entries come from the raw reply when
// the transport records it (exact bytes), else from the SDK's decoding.
// Task marks are kept only where calls can run as tasks, on the first
// list and on every refresh alike.
func (s *server) list(ctx context.Context, session *mcp.ClientSession, tap *wireTap) ([]Tool, error) {
	ctx, cancel := context.WithTimeout(ctx, max(s.connectTimeout(), s.m.opts.ListTimeout))
	defer cancel()
	var tools []Tool
	seen := map[string]bool{}
	cursor := ""
	var cursors []string
	for page := 0; ; page++ {
		if page == maxListPages {
			return nil, errors.New("tools/list: too many pages")
		}
		res, err := session.ListTools(ctx, &mcp.ListToolsParams{Cursor: cursor})
		if err != nil {
			return nil, fmt.Errorf("tools/list: %w", err)
		}
		cursors = append(cursors, cursor)
		var raw map[string]Tool
		if listed, ok := tap.page(cursor); ok {
			raw, _ = rawTools(listed)
		}
		for _, t := range res.Tools {
			if t == nil || seen[t.Name] {
				continue
			}
			seen[t.Name] = true
			if rt, ok := raw[t.Name]; ok {
				tools = append(tools, normalize(rt))
				continue
			}
			tools = append(tools, normalize(fromSDK(t)))
		}
		if res.NextCursor == "" {
			tap.retain(cursors)
			return tasksAsOffered(session, tools), nil
		}
		if slices.Contains(cursors, res.NextCursor) {
			return nil, errors.New("tools/list: the server's page cursors go round in a circle")
		}
		cursor = res.NextCursor
	}
}

// fromSDK re-encodes a tool the SDK decoded (schema key order is lost).
func fromSDK(t *mcp.Tool) Tool {
	out := Tool{Leaf: t.Name, Description: t.Description, Annotations: annotationsOf(t.Annotations)}
	if t.InputSchema != nil {
		out.InputSchema, _ = json.Marshal(t.InputSchema)
	}
	if t.OutputSchema != nil {
		out.OutputSchema, _ = json.Marshal(t.OutputSchema)
	}
	return out
}

// annotationsOf copies a tool's annotations as the SDK decoded them.
func annotationsOf(a *mcp.ToolAnnotations) Annotations {
	if a == nil {
		return Annotations{}
	}
	return Annotations{Title: a.Title, ReadOnly: hint(a.ReadOnlyHint), Destructive: a.DestructiveHint,
		Idempotent: hint(a.IdempotentHint), OpenWorld: a.OpenWorldHint}
}

// hint is a boolean annotation the SDK decodes without "not given": only
// true says something.
func hint(b bool) *bool {
	if !b {
		return nil
	}
	return &b
}

// normalize makes an explicit JSON null schema the same as an absent one.
func normalize(t Tool) Tool {
	if string(t.InputSchema) == "null" {
		t.InputSchema = nil
	}
	if string(t.OutputSchema) == "null" {
		t.OutputSchema = nil
	}
	return t
}

// explain replaces err by how the server process ended, with the tail of
// its stderr, when the transport started one that has exited: after a
// crash the protocol error (EOF, a failed ping) says nothing the exit does
// not say better.
func explain(t mcp.Transport, err error) error {
	r, ok := t.(interface{ exitReason() error })
	if !ok {
		return err
	}
	if why := r.exitReason(); why != nil {
		return &exitError{why: why, err: err}
	}
	return err
}

// exitError is a connection that ended with its server process.
type exitError struct {
	why error // how the process ended
	err error // what the connection saw
}

func (e *exitError) Error() string { return e.why.Error() }
func (e *exitError) Unwrap() error { return e.err }
