package nodes

import (
	"context"
	"crypto/tls"
	"errors"
	"fmt"
	"slices"
	"sync"
	"time"

	"github.com/asynkron/protoactor-go/actor"
	"github.com/asynkron/protoactor-go/cluster"
	"github.com/asynkron/protoactor-go/cluster/identitylookup/disthash"
	"github.com/asynkron/protoactor-go/eventstream"
	"github.com/asynkron/protoactor-go/remote"
	"github.com/rs/zerolog"

	"github.com/mcpexec/mcpexec/internal/ask"
)

// DaemonOptions configure a daemon's side of its sandbox nodes.
type DaemonOptions struct {
	// Listen is where the daemon's remote (gRPC) listens, host:port: the
	// nodes send their runs' nested calls and outcomes there.
	Listen string
	// Nodes are the nodes' membership endpoints, host:port (their
	// MembershipPort): a static list, polled over the same mutual TLS
	// (StaticMembership). Provider, when set, replaces it.
	Nodes []string
	// Provider is another protoactor membership provider (etcd, Consul,
	// Kubernetes), started as a cluster client.
	Provider cluster.ClusterProvider
	// TLS is the daemon's side of the mutual TLS (see TLSFiles); required.
	TLS *tls.Config
	// RefreshInterval is how often the static list is polled; default
	// DefaultRefreshInterval.
	RefreshInterval time.Duration
	// SpawnTimeout bounds placing one run on one node; default
	// DefaultSpawnTimeout.
	SpawnTimeout time.Duration
	// OnPlace, if set, hears which node each run was placed on (by the
	// address of its remote), with the Exec call's context, on the call's
	// goroutine: for tracing a run to its machine.
	OnPlace func(ctx context.Context, node string)
	// Logger receives diagnostics; default: none.
	Logger *zerolog.Logger
}

// DefaultSpawnTimeout bounds placing one run on one node by default.
const DefaultSpawnTimeout = 5 * time.Second

// ErrNoNode is returned by Place when no node can take a run.
var ErrNoNode = errors.New("nodes: no sandbox node is available")

// Placement puts runs on the sandbox nodes the cluster's membership knows:
// each run goes to the live node with the fewest runs this daemon placed
// on it that are still going (least loaded, ties to the node that has been
// idle longest). A node is live while membership lists it and the
// connection to it has not failed since; a node whose connection failed is
// left out until membership has been refreshed (a node that restarts
// comes back as a new member and gets work at once).
type Placement struct {
	system   *actor.ActorSystem
	cluster  *cluster.Cluster
	provider cluster.ClusterProvider
	sub      *eventstream.Subscription
	timeout  time.Duration
	downFor  time.Duration
	onPlace  func(ctx context.Context, node string)
	logger   zerolog.Logger

	mu       sync.Mutex
	changed  chan struct{} // closed and replaced when the members change
	members  map[string]*member
	down     map[string]time.Time // address -> until when it is left out
	sequence uint64
}

type member struct {
	id, address string
	running     int
	lastUsed    uint64
}

// Join starts the daemon's remote and joins the cluster as a client: it
// hosts no sandbox actor itself, it places runs on the nodes.
func Join(system *actor.ActorSystem, opts DaemonOptions) (*Placement, error) {
	logger := zerolog.Nop()
	if opts.Logger != nil {
		logger = *opts.Logger
	}
	rcfg, err := remoteConfig(opts.Listen, opts.TLS)
	if err != nil {
		return nil, err
	}
	refresh := opts.RefreshInterval
	if refresh <= 0 {
		refresh = DefaultRefreshInterval
	}
	provider := opts.Provider
	if provider == nil {
		if len(opts.Nodes) == 0 {
			return nil, errors.New("nodes: no sandbox node is configured")
		}
		provider = &StaticMembership{Peers: opts.Nodes, TLS: opts.TLS, Refresh: refresh}
	}
	p := &Placement{
		system: system, provider: provider, timeout: opts.SpawnTimeout, onPlace: opts.OnPlace, logger: logger,
		// A dead node is gone from membership after a refresh and the
		// membership endpoint's own timeout.
		downFor: 2*refresh + 3*time.Second,
		changed: make(chan struct{}), members: map[string]*member{}, down: map[string]time.Time{},
	}
	if p.timeout <= 0 {
		p.timeout = DefaultSpawnTimeout
	}
	p.sub = system.EventStream.Subscribe(p.observe)
	p.cluster = cluster.New(system, cluster.Configure(ClusterName, provider, disthash.New(), rcfg))
	if err := startSafely(p.cluster.StartClient); err != nil {
		system.EventStream.Unsubscribe(p.sub)
		return nil, fmt.Errorf("nodes: joining the sandbox nodes from %s: %w", opts.Listen, err)
	}
	return p, nil
}

// Address is where the daemon's remote listens.
func (p *Placement) Address() string { return p.system.Address() }

// Close leaves the cluster. Runs in flight on the nodes end as lost.
func (p *Placement) Close() {
	p.system.EventStream.Unsubscribe(p.sub)
	_ = p.provider.Shutdown(false)
	p.cluster.Remote.Shutdown(false)
}

// observe follows membership and the connections to the nodes.
func (p *Placement) observe(event any) {
	switch e := event.(type) {
	case *cluster.ClusterTopology:
		p.mu.Lock()
		next := map[string]*member{}
		for _, m := range e.Members {
			if !slices.Contains(m.Kinds, SandboxKind) {
				continue
			}
			if old, ok := p.members[m.Id]; ok {
				next[m.Id] = old
				continue
			}
			next[m.Id] = &member{id: m.Id, address: m.Address()}
			delete(p.down, m.Address())
			p.logger.Info().Str("node", m.Address()).Msg("nodes: sandbox node joined")
		}
		for id, m := range p.members {
			if _, ok := next[id]; !ok {
				p.logger.Warn().Str("node", m.address).Msg("nodes: sandbox node left")
			}
		}
		p.members = next
		close(p.changed)
		p.changed = make(chan struct{})
		p.mu.Unlock()
	case *remote.EndpointTerminatedEvent:
		p.markDown(e.Address)
	}
}

func (p *Placement) markDown(address string) {
	p.mu.Lock()
	defer p.mu.Unlock()
	for _, m := range p.members {
		if m.address == address {
			p.down[address] = time.Now().Add(p.downFor)
			p.logger.Warn().Str("node", address).Msg("nodes: connection to a sandbox node lost")
		}
	}
}

// Nodes returns the addresses of the live nodes, sorted.
func (p *Placement) Nodes() []string {
	p.mu.Lock()
	defer p.mu.Unlock()
	var out []string
	for _, m := range p.members {
		if p.liveLocked(m, time.Now()) {
			out = append(out, m.address)
		}
	}
	slices.Sort(out)
	return out
}

// WaitNodes waits until at least n nodes are live, or ctx ends.
func (p *Placement) WaitNodes(ctx context.Context, n int) error {
	for {
		p.mu.Lock()
		changed := p.changed
		p.mu.Unlock()
		if len(p.Nodes()) >= n {
			return nil
		}
		select {
		case <-changed:
		case <-time.After(100 * time.Millisecond): // a down mark expired
		case <-ctx.Done():
			return ctx.Err()
		}
	}
}

func (p *Placement) liveLocked(m *member, now time.Time) bool {
	until, down := p.down[m.address]
	return !down || now.After(until)
}

// Place spawns a sandbox actor for one run on the least loaded live node
// (actors.Placement). A node that cannot be reached is left out and the
// next one tried.
func (p *Placement) Place(ctx context.Context) (*actor.PID, func(), error) {
	tried := map[string]bool{}
	for {
		m := p.pick(tried)
		if m == nil {
			return nil, nil, ErrNoNode
		}
		tried[m.id] = true
		pid, err := p.spawn(ctx, m.address)
		if err == nil {
			if p.onPlace != nil {
				p.onPlace(ctx, m.address)
			}
			var once sync.Once
			return pid, func() { once.Do(func() { p.finished(m) }) }, nil
		}
		p.finished(m)
		if ctx.Err() != nil {
			return nil, nil, ctx.Err()
		}
		p.logger.Warn().Err(err).Str("node", m.address).Msg("nodes: placing a run failed; trying another node")
		p.markDown(m.address)
	}
}

// pick chooses the node for the next run and counts the run on it.
func (p *Placement) pick(tried map[string]bool) *member {
	p.mu.Lock()
	defer p.mu.Unlock()
	now := time.Now()
	var best *member
	for _, m := range p.members {
		if tried[m.id] || !p.liveLocked(m, now) {
			continue
		}
		if best == nil || m.running < best.running || (m.running == best.running && m.lastUsed < best.lastUsed) {
			best = m
		}
	}
	if best != nil {
		p.sequence++
		best.running++
		best.lastUsed = p.sequence
	}
	return best
}

func (p *Placement) finished(m *member) {
	p.mu.Lock()
	defer p.mu.Unlock()
	m.running--
}

// spawn asks the node's remote activator for a sandbox actor.
func (p *Placement) spawn(ctx context.Context, address string) (*actor.PID, error) {
	ctx, cancel := context.WithTimeout(ctx, p.timeout)
	defer cancel()
	res, err := ask.Request[*remote.ActorPidResponse](ctx, p.system, p.cluster.Remote.ActivatorForAddress(address),
		&remote.ActorPidRequest{Kind: SandboxKind})
	switch {
	case err != nil:
		return nil, err
	case res.Pid == nil || res.StatusCode != remote.ResponseStatusCodeOK.ToInt32():
		return nil, fmt.Errorf("the node's activator answered with status %d", res.StatusCode)
	}
	return res.Pid, nil
}
