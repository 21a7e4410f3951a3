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
	"github.com/asynkron/protoactor-go/cluster/clusterproviders/automanaged"
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
	// (protoactor's automanaged provider, on every interface), which the
	// daemon polls to learn that the node is up.
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
	provider *automanaged.AutoManagedProvider
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
	self := net.JoinHostPort("127.0.0.1", strconv.Itoa(opts.MembershipPort))
	provider := automanaged.NewWithConfig(refresh, opts.MembershipPort, self)
	// The provider polls the node's own membership endpoint, which starts
	// listening only after its first poll: that poll's failure is the
	// normal start, not news; so is the endpoint's closing at a stop.
	system := actorlog.NewSystemDemoting(logger, routineStartErrors...)
	c := cluster.New(system, cluster.Configure(ClusterName, provider, disthash.New(), rcfg,
		cluster.WithKinds(cluster.NewKind(SandboxKind, props))))
	if err := startSafely(c.StartMember); err != nil {
		system.Shutdown()
		return nil, fmt.Errorf("nodes: starting the node on %s: %w", opts.Listen, err)
	}
	return &Node{system: system, cluster: c, provider: provider, workers: workers}, nil
}

// routineStartErrors are what protoactor's membership provider logs, as
// errors, when its first poll of the node's own endpoint comes too early,
// and when the node stops.
var routineStartErrors = []string{"Failure reaching nodes", "Bad connection to the node health status", "Automanaged server stopping..!"}

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
