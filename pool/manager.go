package pool

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"net/http"
	"slices"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"
	"github.com/rs/zerolog"

	"github.com/mcpexec/mcpexec/elicit"
	"github.com/mcpexec/mcpexec/internal/slogzero"
	"github.com/mcpexec/mcpexec/internal/telemetry"
	"github.com/mcpexec/mcpexec/oauth"
	"github.com/mcpexec/mcpexec/toolpool"
)

// Options configures a Manager. The zero value works.
type Options struct {
	// Logger receives connection events; quiet by default.
	Logger zerolog.Logger
	// Gate is the funnel's permission step; nil admits every call.
	Gate Gate
	// Exclude removes tools from the pool (deny rules, disallowedTools); it
	// can be replaced later with SetExclude.
	Exclude Exclude
	// ClientInfo names this client to servers.
	ClientInfo *mcp.Implementation
	// Elicitor answers the questions servers ask during a call
	// (elicitation/create): it is where they reach the person. When set,
	// the pool declares the elicitation capability, and Elicitor replaces
	// ClientOptions.ElicitationHandler.
	Elicitor elicit.Elicitor
	// ClientOptions carries the handlers for requests servers send to the
	// client (sampling, elicitation, logging...). Declaring a capability
	// makes some servers list more tools. Its ToolListChangedHandler is
	// replaced: the pool owns list_changed. A nil Logger sends the SDK's own
	// log lines to Logger.
	ClientOptions mcp.ClientOptions
	// HTTPClient is used for url servers (default: a client of the
	// Manager's own, whose idle connections Close drops).
	HTTPClient *http.Client
	// ConnectTimeout bounds starting a server plus initialize, and each
	// ping, for servers without a timeout of their own (default
	// DefaultConnectTimeout). Servers connect in the background: a slow
	// one holds up only its own tools, and one that times out is retried.
	ConnectTimeout time.Duration
	// ListTimeout bounds each full tools/list (every page), at least the
	// server's connect timeout (default DefaultListTimeout): a server with
	// thousands of tools takes a while to page through, and it is already
	// known to answer.
	ListTimeout time.Duration
	// BackoffBase and BackoffMax shape the reconnect delays (defaults 500ms
	// and 30s).
	BackoffBase, BackoffMax time.Duration
	// StopGrace is how long a stdio server gets after its stdin closes, and
	// again after SIGTERM, before its process group is killed (default 2s).
	StopGrace time.Duration
	// OAuth, when set, authorizes streamable HTTP servers that answer 401
	// (those whose entry sends no Authorization header of its own): tokens
	// come from OAuth.Store, and a person is asked through
	// OAuth.Authorizer. Nil: such servers fail to connect.
	OAuth *oauth.Options
	// PingInterval is how often a connected server is pinged (default 30s;
	// negative: never). Over HTTP nothing else tells the pool that a server
	// went away while no call is made; a stdio server that hangs is found
	// the same way. A failed call triggers a ping at once in any case.
	PingInterval time.Duration
	// Telemetry traces every MCP request made on behalf of a traced call
	// (a CLIENT span, its context sent to the server in params._meta and,
	// over HTTP, the traceparent header) and measures every request; nil:
	// none.
	Telemetry *telemetry.Telemetry

	ownHTTP bool // HTTPClient was made by withDefaults
}

// DefaultConnectTimeout bounds a server's start and handshake. A first npx
// run that downloads its package may need longer; it is retried, and the
// download is cached by then.
const DefaultConnectTimeout = 15 * time.Second

// DefaultListTimeout bounds one full tools/list.
const DefaultListTimeout = 60 * time.Second

func (o Options) withDefaults() Options {
	if o.Gate == nil {
		o.Gate = AllowAll{}
	}
	if o.ClientOptions.Logger == nil {
		o.ClientOptions.Logger = slog.New(slogzero.New(o.Logger.With().Str("source", "mcp-sdk").Logger()))
	}
	if o.ClientInfo == nil {
		o.ClientInfo = &mcp.Implementation{Name: "mcpexec", Version: "1"}
	}
	if o.ConnectTimeout <= 0 {
		o.ConnectTimeout = DefaultConnectTimeout
	}
	if o.ListTimeout <= 0 {
		o.ListTimeout = DefaultListTimeout
	}
	if o.BackoffBase <= 0 {
		o.BackoffBase = 500 * time.Millisecond
	}
	if o.BackoffMax <= 0 {
		o.BackoffMax = 30 * time.Second
	}
	if o.StopGrace <= 0 {
		o.StopGrace = 2 * time.Second
	}
	if o.PingInterval == 0 {
		o.PingInterval = 30 * time.Second
	}
	if o.HTTPClient == nil {
		// Our own connection pool, so Close can drop its idle connections
		// (and their goroutines) without touching anyone else's.
		o.HTTPClient = &http.Client{Transport: http.DefaultTransport.(*http.Transport).Clone()}
		o.ownHTTP = true
	}
	return o
}

// errManagerClosed is why a server is down after Close.
var errManagerClosed = errors.New("the MCP connections were closed")

// Manager keeps the configured servers connected and publishes the pool.
// Every method is safe for concurrent use.
type Manager struct {
	opts Options
	log  zerolog.Logger
	// servers and names (sorted) are the configured servers. They change
	// only in SetServers, under mu; the goroutines of New's and SetServers'
	// callers read them without it.
	servers map[string]*server
	names   []string
	// redactor keeps the configured values out of what a model reads
	// (redact.go); guarded by mu.
	redactor *strings.Replacer

	ctx    context.Context // the servers' lifetime
	cancel context.CancelFunc

	reconfigure sync.Mutex // one SetServers at a time
	progress    progressRoutes
	// slowTools holds the full names of tools whose servers offer tasks
	// optionally and whose plain calls took long: they run as tasks.
	slowTools sync.Map
	wg        sync.WaitGroup
	ready     chan struct{} // closed when every server finished its first attempt

	mu       sync.Mutex
	live     map[string]ServerTools // connected servers only
	status   map[string]ServerStatus
	pending  int // servers still on their first attempt
	exclude  Exclude
	version  uint64
	subs     map[chan struct{}]struct{}
	snapshot atomic.Pointer[Snapshot]
}

// New starts connecting every configured server and returns at once. When
// ctx ends, every connection is closed and every process stopped; Close does
// the same and waits for it. Two servers with one name are an error; an entry
// with Err set is reported in Status and never connected.
func New(ctx context.Context, servers []ServerConfig, opts Options) (*Manager, error) {
	opts = opts.withDefaults()
	m := &Manager{
		opts:    opts,
		log:     opts.Logger,
		servers: make(map[string]*server, len(servers)),
		ready:   make(chan struct{}),
		live:    map[string]ServerTools{},
		status:  map[string]ServerStatus{},
		exclude: opts.Exclude,
		subs:    map[chan struct{}]struct{}{},
	}
	for _, cfg := range servers {
		if _, dup := m.servers[cfg.Name]; dup {
			return nil, fmt.Errorf("mcp server %q is configured twice", cfg.Name)
		}
		if cfg.Err == nil {
			cfg.Err = cfg.Validate()
		}
		s := newServer(m, cfg)
		s.countsForReady = true
		m.servers[cfg.Name] = s
		m.names = append(m.names, cfg.Name)
	}
	slices.Sort(m.names)
	m.ctx, m.cancel = context.WithCancel(ctx)
	var valid []*server
	for _, name := range m.names {
		s := m.servers[name]
		switch {
		case s.cfg.Disabled:
			m.status[name] = ServerStatus{Name: name, State: StateDisabled}
			continue
		case s.cfg.Err != nil:
			m.status[name] = ServerStatus{Name: name, State: StateInvalid, Err: s.cfg.Err}
			continue
		}
		m.status[name] = ServerStatus{Name: name, State: StateConnecting}
		valid = append(valid, s)
	}
	m.redactor = m.newRedactorLocked()
	m.rebuildLocked() // the servers still starting are known from the start
	m.pending = len(valid)
	if m.pending == 0 {
		close(m.ready)
	}
	for _, s := range valid {
		m.startServer(s)
	}
	return m, nil
}

// Close stops every server and returns once every goroutine the Manager
// started has returned and every server process is reaped.
//
// A closed Manager's pool is empty; subscribers hear of it.
func (m *Manager) Close() error {
	m.cancel()
	m.wg.Wait()
	if m.opts.ownHTTP {
		m.opts.HTTPClient.CloseIdleConnections()
	}
	m.mu.Lock()
	defer m.mu.Unlock()
	if len(m.live) > 0 {
		clear(m.live)
		for name, st := range m.status {
			if st.State == StateConnected {
				st.State, st.Err = StateRetrying, errManagerClosed
				m.status[name] = st
			}
		}
		m.rebuildLocked()
	}
	return nil
}

// Ready is closed once every server has been tried once (connected and
// listed, or failed).
func (m *Manager) Ready() <-chan struct{} { return m.ready }

// Snapshot returns the current pool. It is one atomic load: take a fresh one
// per request and per Exec.
func (m *Manager) Snapshot() *Snapshot { return m.snapshot.Load() }

// SetExclude replaces the exclusion (after a permissions change) and
// rebuilds the pool.
func (m *Manager) SetExclude(exclude Exclude) {
	m.mu.Lock()
	defer m.mu.Unlock()
	m.exclude = exclude
	m.rebuildLocked()
}

// Subscribe returns a channel that receives a signal after each change of
// the pool (a server connected, disconnected or changed its tools, or the
// exclusion changed). Signals coalesce: read Snapshot after each one. cancel
// stops the subscription.
func (m *Manager) Subscribe() (changes <-chan struct{}, cancel func()) {
	ch := make(chan struct{}, 1)
	m.mu.Lock()
	m.subs[ch] = struct{}{}
	m.mu.Unlock()
	return ch, func() {
		m.mu.Lock()
		delete(m.subs, ch)
		m.mu.Unlock()
	}
}

// Status reports every configured server, sorted by name.
func (m *Manager) Status() []ServerStatus {
	m.mu.Lock()
	defer m.mu.Unlock()
	out := make([]ServerStatus, 0, len(m.names))
	for _, name := range m.names {
		out = append(out, m.status[name])
	}
	return out
}

// publish records a server's current tools (connected) and rebuilds.
func (m *Manager) publish(st ServerTools) {
	m.mu.Lock()
	defer m.mu.Unlock()
	m.live[st.Server] = st
	s := m.status[st.Server]
	s.State, s.Err, s.Tools = StateConnected, nil, len(st.Tools)
	m.status[st.Server] = s
	m.rebuildLocked()
}

// withdraw removes a server from the pool after it disconnected or failed.
func (m *Manager) withdraw(name string, state State, err error) {
	m.mu.Lock()
	defer m.mu.Unlock()
	s := m.status[name]
	before := s.Why()
	s.State, s.Err, s.Tools = state, err, 0
	m.status[name] = s
	_, was := m.live[name]
	delete(m.live, name)
	if was || s.Why() != before { // the pool, or why a server is down, changed
		m.rebuildLocked()
	}
}

// attempted marks a server's first attempt as finished.
func (m *Manager) attempted() {
	m.mu.Lock()
	defer m.mu.Unlock()
	m.pending--
	if m.pending == 0 {
		close(m.ready)
	}
}

func (m *Manager) countConnect(name string) {
	m.mu.Lock()
	defer m.mu.Unlock()
	s := m.status[name]
	s.Connects++
	m.status[name] = s
}

func (m *Manager) rebuildLocked() {
	servers := make([]ServerTools, 0, len(m.live))
	for _, name := range m.names {
		if st, ok := m.live[name]; ok {
			servers = append(servers, st)
		}
	}
	var down []ServerDown
	for _, name := range m.names {
		if _, ok := m.live[name]; !ok {
			st := m.status[name]
			expected := st.State == StateConnecting || st.State == StateRetrying
			down = append(down, ServerDown{Server: name, Why: forModel(m.redactor, st.Why()), Expected: expected})
		}
	}
	m.version++
	snap := toolpool.BuildVersion(servers, m.exclude, m.version).WithDown(down)
	m.snapshot.Store(snap)
	for ch := range m.subs {
		select {
		case ch <- struct{}{}:
		default:
		}
	}
}
