package actors

import (
	"context"
	"fmt"
	"slices"
	"strings"
	"sync"
	"time"

	"github.com/asynkron/protoactor-go/actor"
	"github.com/rs/zerolog"

	"github.com/mcpexec/mcpexec/broadcast"
	"github.com/mcpexec/mcpexec/catalog"
	"github.com/mcpexec/mcpexec/declare"
	"github.com/mcpexec/mcpexec/internal/ask"
	"github.com/mcpexec/mcpexec/internal/telemetry"
	"github.com/mcpexec/mcpexec/sandbox"
	"github.com/mcpexec/mcpexec/toolpool"
)

// viewTimeout bounds a request for a view: rendering a very large pool
// takes tens of milliseconds, never seconds.
const viewTimeout = 30 * time.Second

// BroadcasterOptions configure the catalog broadcaster.
type BroadcasterOptions struct {
	// Budget is the catalog budget in estimated tokens (0: the default).
	Budget int
	// Pool, if set, is followed: when it moves, the views in use are built
	// and rendered again at once, before the next request asks for them.
	Pool *Pool
	// Render renders a catalog; nil uses a catalog.Renderer with Budget.
	// (Tests put a fault here.)
	Render func([]catalog.Tool) catalog.Catalog
	// Observed, if set, says what a tool of a snapshot was observed to
	// return (a shapes note, "" for none); views carry it into the catalog
	// and search. Call ObservedChanged when what it says changes.
	Observed func(*toolpool.Snapshot, toolpool.Tool) string
	Logger   zerolog.Logger
	// Telemetry traces each rendering; nil: none.
	Telemetry *telemetry.Telemetry
}

// Broadcaster is the handle of the catalog broadcaster actor. It owns the
// rendering and the views of the current pool: what one agent (one tool
// set) sees of a snapshot. The decision whether a history needs a catalog
// message stays a pure function (broadcast.Catalog) over a View's catalog.
//
// Supervision: a crash of the broadcaster actor (a bug in rendering) fails
// the request that crashed it with an error and restarts the actor with an
// empty cache (views are derived data); the other requests go on.
type Broadcaster struct {
	system   *actor.ActorSystem
	pid      *actor.PID
	pool     *Pool
	render   func([]catalog.Tool) catalog.Catalog
	renderer *catalog.Renderer
	// telemetry traces renderings; nil: none.
	telemetry *telemetry.Telemetry
	observed  func(*toolpool.Snapshot, toolpool.Tool) string
	stopOnce  sync.Once
}

// View is what one agent sees of one pool snapshot: its reachable tools,
// the sandbox's tool set, the rendered catalog and the search index. All of
// it derives from the same snapshot and the same agent filter, so
// declarations, catalog, search and the sandbox agree. A View is immutable
// once made.
type View struct {
	Snapshot *toolpool.Snapshot
	Tools    []catalog.Tool
	ToolSet  *sandbox.ToolSet
	// Catalog is rendered (broadcast.Catalog compares its fingerprint).
	Catalog *broadcast.Snapshot

	renderer  *catalog.Renderer
	observed  func(*toolpool.Snapshot, toolpool.Tool) string
	indexOnce sync.Once
	index     *catalog.Index
}

// SearchIndex is the view's search index, built on first use.
func (v *View) SearchIndex() *catalog.Index {
	v.indexOnce.Do(func() {
		var opts []catalog.IndexOption
		if v.renderer != nil {
			opts = append(opts, catalog.WithRenderer(v.renderer))
		}
		if v.observed != nil {
			// Search reads what is known at each search: a script's
			// earlier calls count.
			snap, observed := v.Snapshot, v.observed
			opts = append(opts, catalog.WithObserved(func(name string) string {
				t, ok := snap.Lookup(name)
				if !ok {
					return ""
				}
				return observed(snap, t)
			}))
		}
		v.index = catalog.NewIndex(v.Tools, opts...)
	})
	return v.index
}

// StartBroadcaster spawns the broadcaster actor in system.
func StartBroadcaster(system *actor.ActorSystem, opts BroadcasterOptions) *Broadcaster {
	b := &Broadcaster{system: system, pool: opts.Pool, render: opts.Render, observed: opts.Observed, telemetry: opts.Telemetry}
	if b.render == nil {
		b.renderer = catalog.NewRenderer(catalog.Options{Budget: opts.Budget})
		b.render = b.renderer.Render
	}
	props := actor.PropsFromProducer(func() actor.Actor { return &broadcasterActor{b: b} })
	b.pid = spawnSupervised(system, props, newSupervisor("broadcaster", actor.RestartDirective, opts.Logger))
	if b.pool != nil {
		system.Root.Send(b.pool.PID(), &SubscribePool{Subscriber: b.pid})
	}
	return b
}

// View returns what agent sees of snap (nil: the empty pool of a session
// without MCP servers). It fails only when the broadcaster failed making it
// or is stopped.
func (b *Broadcaster) View(snap *toolpool.Snapshot, agent declare.Agent) (*View, error) {
	ctx, cancel := context.WithTimeout(context.Background(), viewTimeout)
	defer cancel()
	v, err := ask.Request[*View](ctx, b.system, b.pid, &getView{snap: snap, agent: agent})
	if err != nil {
		return nil, fmt.Errorf("mcpexec: the catalog could not be made: %w", err)
	}
	return v, nil
}

// SettledView is View for a client whose prompt is not re-sent with every
// request (a gateway's client reads the catalog in Exec's description): it
// keeps the observed notes of the agent's previous settled view until the
// catalog changes for another reason (the pool's tools change), so a new
// note alone never changes what that client is offered; the notes learned
// meanwhile come with the next change of the catalog.
func (b *Broadcaster) SettledView(snap *toolpool.Snapshot, agent declare.Agent) (*View, error) {
	ctx, cancel := context.WithTimeout(context.Background(), viewTimeout)
	defer cancel()
	v, err := ask.Request[*View](ctx, b.system, b.pid, &getView{snap: snap, agent: agent, settled: true})
	if err != nil {
		return nil, fmt.Errorf("mcpexec: the catalog could not be made: %w", err)
	}
	return v, nil
}

// ObservedChanged says a tool's observed note changed: the views in use
// are rendered again with it (settled views keep theirs). The catalog
// channel then finds the catalog changed and appends it at the tail of the
// history, like any other change of the catalog.
func (b *Broadcaster) ObservedChanged() {
	b.system.Root.Send(b.pid, observedChanged{})
}

// FlatNames maps snap's tools to their flat declaration names and back.
func (b *Broadcaster) FlatNames(snap *toolpool.Snapshot) *declare.FlatNames {
	ctx, cancel := context.WithTimeout(context.Background(), viewTimeout)
	defer cancel()
	names, err := ask.Request[*declare.FlatNames](ctx, b.system, b.pid, &getFlatNames{snap: snap})
	if err != nil {
		return declare.FlatNamesOf(snap)
	}
	return names
}

// Stop stops the broadcaster actor.
func (b *Broadcaster) Stop() {
	b.stopOnce.Do(func() {
		if b.pool != nil {
			b.system.Root.Send(b.pool.PID(), &UnsubscribePool{Subscriber: b.pid})
		}
		_ = b.system.Root.StopFuture(b.pid).Wait()
	})
}

// newView builds and renders a view.
func (b *Broadcaster) newView(snap *toolpool.Snapshot, agent declare.Agent) *View {
	return b.newViewObserved(snap, agent, b.observed)
}

// newViewObserved builds and renders a view whose tools carry the notes
// observed says.
func (b *Broadcaster) newViewObserved(snap *toolpool.Snapshot, agent declare.Agent, observed func(*toolpool.Snapshot, toolpool.Tool) string) *View {
	v := &View{Snapshot: snap, renderer: b.renderer, observed: b.observed}
	var names []string
	for _, t := range declare.Reachable(snap, agent) {
		ct := catalog.Tool{Name: t.Name, Description: t.Description, InputSchema: t.InputSchema, OutputSchema: t.OutputSchema,
			Task: t.RunsAsTask()}
		if observed != nil {
			ct.Observed = observed(snap, t)
		}
		v.Tools = append(v.Tools, ct)
		names = append(names, t.Name)
	}
	v.ToolSet = sandbox.NewToolSet(names)
	if down := snap.Down(); len(down) > 0 {
		why := make(map[string]string, len(down))
		for _, d := range down {
			why[d.Server] = d.Why
		}
		v.ToolSet = v.ToolSet.WithDown(why)
	}
	start := time.Now()
	rendered := b.render(v.Tools)
	b.telemetry.CatalogRendered(start, len(v.Tools), catalog.EstimateTokens(rendered.Body))
	v.Catalog = broadcast.RenderedSnapshot(rendered)
	return v
}

// getView asks for what agent sees of snap (reply: *View).
type getView struct {
	snap    *toolpool.Snapshot
	agent   declare.Agent
	settled bool
}

// observedChanged says the observed notes changed.
type observedChanged struct{}

// getFlatNames asks for snap's flat names (reply: *declare.FlatNames).
type getFlatNames struct {
	snap *toolpool.Snapshot
}

// broadcasterActor keeps the views of the latest snapshot it has seen, by
// agent, and the snapshot's flat names.
type broadcasterActor struct {
	b     *Broadcaster
	snap  *toolpool.Snapshot
	views map[string]agentView
	// settled are the last views of settled requests, by agent, kept
	// across snapshots: their notes stay until the catalog changes.
	settled map[string]agentView
	flat    *declare.FlatNames
}

type agentView struct {
	agent declare.Agent
	view  *View
}

func (a *broadcasterActor) Receive(c actor.Context) {
	switch m := c.Message().(type) {
	case *getView:
		if m.settled {
			c.Respond(a.settledView(m.snap, m.agent))
			return
		}
		c.Respond(a.view(m.snap, m.agent))
	case observedChanged:
		previous := a.views
		a.views = map[string]agentView{}
		for _, v := range previous {
			a.view(a.snap, v.agent)
		}
	case *getFlatNames:
		if !a.use(m.snap) {
			c.Respond(declare.FlatNamesOf(m.snap))
			return
		}
		if a.flat == nil {
			a.flat = declare.FlatNamesOf(m.snap)
		}
		c.Respond(a.flat)
	case *PoolChanged:
		// Build and render at once what the agents of the last pool will
		// ask for next.
		previous := a.views
		if a.use(m.Snapshot) {
			for _, v := range previous {
				a.view(m.Snapshot, v.agent)
			}
		}
	}
}

// use makes snap the cached snapshot unless it is older than the one
// cached, dropping what belonged to another; it reports whether snap is
// now cached.
func (a *broadcasterActor) use(snap *toolpool.Snapshot) bool {
	if a.snap == snap && a.views != nil {
		return true
	}
	if a.snap != nil && snap != nil && snap.Version() != 0 && snap.Version() < a.snap.Version() {
		return false
	}
	a.snap, a.views, a.flat = snap, map[string]agentView{}, nil
	return true
}

// settledView is the view of a settled request. For a new snapshot it is
// first rendered with the notes of the agent's previous settled view; only
// when that catalog differs from the previous one (the pool's tools
// changed) is it rendered with the notes known now.
func (a *broadcasterActor) settledView(snap *toolpool.Snapshot, agent declare.Agent) *View {
	if !a.use(snap) {
		return a.b.newView(snap, agent)
	}
	if a.settled == nil {
		a.settled = map[string]agentView{}
	}
	key := agentKey(agent)
	prev, ok := a.settled[key]
	if ok && prev.view.Snapshot == snap {
		return prev.view
	}
	var v *View
	if ok {
		notes := make(map[string]string, len(prev.view.Tools))
		for _, t := range prev.view.Tools {
			notes[t.Name] = t.Observed
		}
		v = a.b.newViewObserved(snap, agent, func(_ *toolpool.Snapshot, t toolpool.Tool) string { return notes[t.Name] })
		if v.Catalog.Catalog().Body != prev.view.Catalog.Catalog().Body {
			v = nil
		}
	}
	if v == nil {
		v = a.view(snap, agent)
	}
	a.settled[key] = agentView{agent: agent, view: v}
	return v
}

func (a *broadcasterActor) view(snap *toolpool.Snapshot, agent declare.Agent) *View {
	if !a.use(snap) {
		return a.b.newView(snap, agent)
	}
	key := agentKey(agent)
	if v, ok := a.views[key]; ok {
		return v.view
	}
	v := a.b.newView(snap, agent)
	a.views[key] = agentView{agent: agent, view: v}
	return v
}

func agentKey(a declare.Agent) string {
	allowed := "*"
	if a.Allowed != nil {
		list := slices.Clone(a.Allowed)
		slices.Sort(list)
		allowed = strings.Join(list, ",")
	}
	disallowed := slices.Clone(a.Disallowed)
	slices.Sort(disallowed)
	return allowed + "|" + strings.Join(disallowed, ",")
}
