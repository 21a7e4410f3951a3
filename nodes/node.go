package nodes

import (
	"crypto/tls"
	"errors"
	"fmt"
	"net"
	"strconv"
	"time"

	"github.com/asynkron/protoactor-go/actor"
	"github.com/asynkron/protoactor-go/cluster"
	"github.com/asynkron/protoactor-go/cluster/identitylookup/disthash"
	"github.com/asynkron/protoactor-go/remote"
	"github.com/rs/zerolog"

	"github.com/mcpexec/mcpexec/internal/actorlog"
	"github.com/mcpexec/mcpexec/sandbox"
)

// NodeOptions configure a sandbox node.
type NodeOptions struct {
	// Listen is where the node's remote (gRPC) listens, host:port; the
	// daemon reaches it there.
	Listen string
	// MembershipPort is the port of the node's membership endpoint
	// (StaticMembership: HTTPS with the same mutual TLS, on Listen's host),
	// which the daemon polls to learn that the node is up.
	MembershipPort int
	// TLS is the node's side of the mutual TLS (see TLSFiles); required.
	TLS *tls.Config
	// Workers configure the node's sandbox worker processes.
	Workers sandbox.WorkerOptions
	// RefreshInterval is how often membership is polled; default
	// DefaultRefreshInterval.
	RefreshInterval time.Duration
	// Logger receives diagnostics; default: none.
	Logger *zerolog.Logger
}

// DefaultRefreshInterval is how often membership is polled by default.
const DefaultRefreshInterval = time.Second

// Node is a running sandbox node: an actor system in protoactor's cluster
// that hosts sandbox actors and their worker pool. It holds no MCP
// connection, no settings and no secret besides its TLS key.
type Node struct {
	system   *actor.ActorSystem
	cluster  *cluster.Cluster
	provider *StaticMembership
	workers  *sandbox.Workers
}

// StartNode starts a sandbox node and its warm workers.
func StartNode(opts NodeOptions) (_ *Node, err error) {
	logger := zerolog.Nop()
	if opts.Logger != nil {
		logger = *opts.Logger
	}
	if opts.MembershipPort <= 0 {
		return nil, errors.New("nodes: a sandbox node needs a membership port")
	}
	workerOpts := opts.Workers
	if workerOpts.Logger == nil {
		workerOpts.Logger = &logger
	}
	workers, err := sandbox.NewWorkers(workerOpts)
	if err != nil {
		return nil, err
	}
	defer func() {
		if err != nil {
			workers.Close()
		}
	}()
	props := actor.PropsFromProducer(func() actor.Actor {
		return &runActor{workers: workers, logger: logger}
	})
	rcfg, err := remoteConfig(opts.Listen, opts.TLS, remote.WithKinds(remote.NewKind(SandboxKind, props)))
	if err != nil {
		return nil, err
	}
	refresh := opts.RefreshInterval
	if refresh <= 0 {
		refresh = DefaultRefreshInterval
	}
	// Membership listens where the remote does: a node told to listen on
	// loopback, or on one interface, is reachable nowhere else.
	host, _, err := net.SplitHostPort(opts.Listen)
	if err != nil {
		return nil, fmt.Errorf("nodes: listen address %q: %w", opts.Listen, err)
	}
	bind := net.JoinHostPort(host, strconv.Itoa(opts.MembershipPort))
	self := net.JoinHostPort(loopbackOf(host), strconv.Itoa(opts.MembershipPort))
	provider := &StaticMembership{Bind: bind, Peers: []string{self}, TLS: opts.TLS, Refresh: refresh}
	system := actorlog.NewSystem(logger)
	c := cluster.New(system, cluster.Configure(ClusterName, provider, disthash.New(), rcfg,
		cluster.WithKinds(cluster.NewKind(SandboxKind, props))))
	if err := startSafely(c.StartMember); err != nil {
		system.Shutdown()
		return nil, fmt.Errorf("nodes: starting the node on %s: %w", opts.Listen, err)
	}
	return &Node{system: system, cluster: c, provider: provider, workers: workers}, nil
}

// Address is where the node's remote listens.
func (n *Node) Address() string { return n.system.Address() }

// Close leaves the cluster, stops the runs in flight and the workers.
func (n *Node) Close() error {
	_ = n.provider.Shutdown(false)
	n.cluster.Shutdown(false)
	return n.workers.Close()
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

// loopbackOf is how the node reaches its own endpoint bound on host: the
// host itself, or loopback when it is bound on every interface.
func loopbackOf(host string) string {
	if ip := net.ParseIP(host); host == "" || ip != nil && ip.IsUnspecified() {
		return "127.0.0.1"
	}
	return host
}
