package gateway

import (
	"context"
	"encoding/json"
	"log/slog"
	"sync"
	"sync/atomic"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"
	"github.com/rs/zerolog"

	"github.com/mcpexec/mcpexec"
	"github.com/mcpexec/mcpexec/internal/slogzero"
	"github.com/mcpexec/mcpexec/replicas"
	"github.com/mcpexec/mcpexec/state"
)

// Options configure a Gateway.
type Options struct {
	// Name and Version identify the gateway to its clients (serverInfo).
	Name, Version string
	// Logger receives diagnostics; default: none. Over stdio it must not
	// write to standard output, which carries the protocol.
	Logger *zerolog.Logger
	// State bounds each session's state: what its scripts store, and the
	// results kept by reference. Zero fields take the state package's
	// defaults.
	State state.Limits
	// YieldAfter, when positive, is how long an Exec call waits for its
	// script: one still running then returns "Still running" with a
	// handle that Exec's wait and cancel arguments take (yield.go). Zero:
	// every call waits for its script's end.
	YieldAfter time.Duration
	// StateKey, when set, is the key requestStates are MAC'd under,
	// instead of one drawn at random for this process: the replicas of one
	// gateway share it, so that one verifies what another issued (see
	// JoinReplicas). Changing it invalidates every requestState issued
	// before.
	StateKey []byte
}

// refreshInterval is how often the gateway reads the tools it offers from
// the System. Reading is cheap (a cached view per pool snapshot) and only a
// change in the bytes reaches clients.
const refreshInterval = 200 * time.Millisecond

// Gateway is an MCP server offering a System's tools: Exec with the catalog
// in its description, or the flat MCP tools when Exec is switched off.
type Gateway struct {
	sys    *mcpexec.System
	server *mcp.Server
	logger zerolog.Logger

	// lifetime ends at Close: tool calls still running are cancelled (their
	// scripts abort) and the refresh loop stops.
	lifetime context.Context
	stop     context.CancelFunc
	loopDone chan struct{}

	mu      sync.Mutex
	offered map[string]mcpexec.Declaration // what clients see, by name

	// states holds each client's state (state.go).
	states sessionStates
	// requestStates issues and verifies the requestStates of parked runs
	// (requeststate.go).
	requestStates *requestStates
	// incarnation names this process among the holders of parked runs;
	// mesh joins the other replicas, nil without (replica.go).
	incarnation string
	sharedKey   bool
	mesh        *replicas.Mesh
	// yield is Options.YieldAfter; handles are the runs still answerable
	// by wait and cancel (yield.go).
	yield   time.Duration
	handles runHandles
	// wire is the stdio connection, which carries tasks; tasks are
	// the Exec runs started as tasks (tasks.go).
	wire  atomic.Pointer[taskWireTransport]
	tasks execTasks
}

// supportedVersions are the protocol versions the gateway speaks. Up to
// 2025-11-25 a question goes to the client in the middle of the call
// (elicitation); from 2026-07-28 the call returns it, and the run waits,
// parked, for the retry that answers it (v20260728.go).
var supportedVersions = []string{protocol20260728, "2025-11-25", "2025-06-18", "2025-03-26", "2024-11-05"}

// capabilities are the gateway's: tools that change, and prompts (it has
// none, but prompts/list answers, empty, and a 2026-07-28 client is told
// the truth about what answers).
var capabilities = &mcp.ServerCapabilities{Tools: &mcp.ToolCapabilities{ListChanged: true}, Prompts: &mcp.PromptCapabilities{}}

// New returns a Gateway for sys, offering its tools as they are now, and
// keeps them up to date until Close. sys stays the caller's to close, after
// the Gateway.
func New(sys *mcpexec.System, opts Options) *Gateway {
	logger := zerolog.Nop()
	if opts.Logger != nil {
		logger = *opts.Logger
	}
	if opts.Name == "" {
		opts.Name = "mcpexec"
	}
	if opts.Version == "" {
		opts.Version = "devel"
	}
	g := &Gateway{sys: sys, logger: logger, offered: map[string]mcpexec.Declaration{}, loopDone: make(chan struct{}),
		states: sessionStates{limits: opts.State}, requestStates: newRequestStates(opts.StateKey, sys.ParkTimeout()), incarnation: newIncarnation(), sharedKey: len(opts.StateKey) > 0, yield: opts.YieldAfter}
	g.lifetime, g.stop = context.WithCancel(context.Background())
	g.server = mcp.NewServer(&mcp.Implementation{Name: opts.Name, Version: opts.Version}, &mcp.ServerOptions{
		Logger:                    slog.New(slogzero.New(logger)),
		Capabilities:              capabilities,
		SupportedProtocolVersions: supportedVersions,
	})
	g.server.AddResourceTemplate(resultTemplate, g.readResult)
	// Each middleware added wraps those before it. withInstructions goes
	// first, innermost, so that it edits initialize's typed result before
	// the task middleware re-encodes it to declare tasks.
	g.server.AddReceivingMiddleware(g.withInstructions)
	g.registerTasks()
	g.refresh()
	go g.refreshLoop()
	return g
}

// Server is the MCP server; run it on a transport (Run, Connect), or serve
// it over HTTP with Handler or Serve.
func (g *Gateway) Server() *mcp.Server { return g.server }

// Close stops following the System, cancels the tool calls still running
// (their scripts abort and their clients get failure results) and closes
// every client session.
func (g *Gateway) Close() {
	g.stop()
	<-g.loopDone
	if g.mesh != nil {
		g.mesh.Close()
	}
	for ss := range g.server.Sessions() {
		_ = ss.Close()
	}
	g.states.close()
	g.handles.close()
	g.tasks.close()
}

func (g *Gateway) refreshLoop() {
	defer close(g.loopDone)
	tick := time.NewTicker(refreshInterval)
	defer tick.Stop()
	for {
		select {
		case <-g.lifetime.Done():
			return
		case <-tick.C:
			g.refresh()
		}
	}
}

// refresh offers the System's current declarations. The SDK server sends
// notifications/tools/list_changed for each change it is given, so only
// tools whose bytes differ are handed to it: an unchanged pool never makes
// a client re-read its tools (and lose its cached prompt).
//
// It returns how many tools it handed over.
func (g *Gateway) refresh() (changed int) {
	decls := g.withHandles(g.sys.DeclarationsWithCatalog(mcpexec.DeclareOptions{}))
	g.mu.Lock()
	defer g.mu.Unlock()
	want := make(map[string]mcpexec.Declaration, len(decls))
	for _, d := range decls {
		want[d.Name] = d
	}
	var gone []string
	for name := range g.offered {
		if _, ok := want[name]; !ok {
			gone = append(gone, name)
		}
	}
	if len(gone) > 0 {
		g.server.RemoveTools(gone...)
	}
	for _, d := range decls {
		if old, ok := g.offered[d.Name]; ok && sameDeclaration(old, d) {
			continue
		}
		g.server.AddTool(&mcp.Tool{
			Name:        d.Name,
			Description: d.Description,
			InputSchema: json.RawMessage(d.InputSchema),
		}, g.handler(d.Name))
		changed++
	}
	g.offered = want
	return changed + len(gone)
}

func sameDeclaration(a, b mcpexec.Declaration) bool {
	return a.Name == b.Name && a.Description == b.Description && string(a.InputSchema) == string(b.InputSchema)
}

// bound returns ctx cancelled also when the Gateway closes.
func (g *Gateway) bound(ctx context.Context) (context.Context, context.CancelFunc) {
	ctx, cancel := context.WithCancel(ctx)
	stop := context.AfterFunc(g.lifetime, cancel)
	return ctx, func() {
		stop()
		cancel()
	}
}
