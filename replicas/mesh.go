package replicas

import (
	"context"
	"crypto/tls"
	"errors"
	"fmt"
	"slices"
	"sync"

	"github.com/asynkron/protoactor-go/actor"
	"github.com/asynkron/protoactor-go/remote"
	"github.com/rs/zerolog"

	"github.com/mcpexec/mcpexec/internal/actorlog"
)

// Handler serves a payload another replica forwarded here and returns the
// answer's payload. onProgress passes live summaries back, in order, before
// the answer. ctx ends when the forwarding replica gives up or is gone.
type Handler func(ctx context.Context, payload []byte, onProgress func(summary string)) []byte

// Options configure one replica's side of the mesh.
type Options struct {
	// Listen is where this replica's remote (gRPC) listens, host:port, and
	// the name its peers know it by: a host they can dial, never every
	// interface.
	Listen string
	// Peers are the other replicas' Listen addresses.
	Peers []string
	// TLS is this replica's side of the mutual TLS (nodes.TLSFiles makes
	// one); required.
	TLS *tls.Config
	// Serve serves the requests peers forward here; required.
	Serve Handler
	// Logger receives diagnostics; default: none.
	Logger *zerolog.Logger
}

// deskName names the desk actor on every replica.
const deskName = "replica-desk"

// ErrReplicaGone is Forward's error when the peer cannot be reached or
// went away before it answered: whatever it held is gone with it.
var ErrReplicaGone = errors.New("replicas: the replica is gone")

// Mesh is this replica's membership of the mesh: its desk, serving what
// peers forward here, and the means to forward to them.
type Mesh struct {
	system *actor.ActorSystem
	remote *remote.Remote
	self   string
	peers  []string
	logger zerolog.Logger

	closeOnce sync.Once
}

// Start starts this replica's remote and desk.
func Start(opts Options) (_ *Mesh, err error) {
	logger := zerolog.Nop()
	if opts.Logger != nil {
		logger = *opts.Logger
	}
	if opts.Serve == nil {
		return nil, errors.New("replicas: no handler for forwarded requests")
	}
	cfg, err := remoteConfig(opts.Listen, opts.TLS)
	if err != nil {
		return nil, err
	}
	system := actorlog.NewSystem(logger)
	r := remote.NewRemote(system, cfg)
	if err := startSafely(r.Start); err != nil {
		system.Shutdown()
		return nil, fmt.Errorf("replicas: listening on %s: %w", opts.Listen, err)
	}
	m := &Mesh{system: system, remote: r, self: system.Address(), logger: logger}
	for _, p := range opts.Peers {
		if p != m.self && !slices.Contains(m.peers, p) {
			m.peers = append(m.peers, p)
		}
	}
	props := actor.PropsFromProducer(func() actor.Actor {
		return &desk{serve: opts.Serve, logger: logger, served: map[string]*actor.PID{}}
	})
	if _, err := system.Root.SpawnNamed(props, deskName); err != nil {
		m.Close()
		return nil, fmt.Errorf("replicas: starting the desk: %w", err)
	}
	return m, nil
}

// Self is this replica's name: the address its peers reach it on.
func (m *Mesh) Self() string { return m.self }

// Knows reports whether replica is this one or one of its peers.
func (m *Mesh) Knows(replica string) bool {
	return replica == m.self || slices.Contains(m.peers, replica)
}

// Forward sends payload to the desk of peer and waits for its answer,
// passing the live summaries it sends on to onProgress (which may be nil)
// in order. It fails with ErrReplicaGone when the peer cannot be reached or
// goes away first, and with ctx's error when ctx ends first (the peer is
// told to give the request up).
func (m *Mesh) Forward(ctx context.Context, peer string, payload []byte, onProgress func(summary string)) ([]byte, error) {
	if !m.Knows(peer) || peer == m.self {
		return nil, fmt.Errorf("replicas: %s is not a peer of this replica", peer)
	}
	done := make(chan relayOutcome, 1)
	r := &relay{desk: actor.NewPID(peer, deskName), payload: payload, onProgress: onProgress, done: done}
	pid := m.system.Root.Spawn(actor.PropsFromProducer(func() actor.Actor { return r }))
	select {
	case out := <-done:
		return out.payload, out.err
	case <-ctx.Done():
		m.system.Root.Send(pid, giveUp{})
		return nil, ctx.Err()
	}
}

// Close stops the desk (requests being served here are cancelled, and
// their relays learn this replica is gone) and the remote.
func (m *Mesh) Close() {
	m.closeOnce.Do(func() {
		m.remote.Shutdown(false)
		m.system.Shutdown()
	})
}

// startSafely runs a protoactor start function, which panics on failure
// (a port in use), as an error.
func startSafely(start func()) (err error) {
	defer func() {
		if p := recover(); p != nil {
			err = fmt.Errorf("%v", p)
		}
	}()
	start()
	return nil
}
