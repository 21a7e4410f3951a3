package nodes

import (
	"crypto/tls"
	"fmt"
	"net"
	"strconv"

	"github.com/asynkron/protoactor-go/remote"
	"google.golang.org/grpc"
	"google.golang.org/grpc/credentials"
)

// Names shared by a daemon and its nodes.
const (
	// ClusterName is the protoactor cluster a daemon and its nodes form.
	ClusterName = "mcpexec"
	// SandboxKind is the kind of actor a node hosts: one sandbox actor per
	// run, spawned by the daemon through the node's remote activator.
	SandboxKind = "sandbox"
)

// maxMessageSize bounds a batch of messages between a daemon and a node.
// gRPC's default of 4 MiB would refuse a tool's value, a stored value or a
// loaded one that a run on one machine passes whole (up to the bounds of
// the state and of the pool's replies), and a refused message breaks the
// connection. The peers are authenticated (mutual TLS).
const maxMessageSize = 1 << 30

// remoteConfig is protoactor's remote on listen (host:port) over mutual
// TLS, with extra options.
func remoteConfig(listen string, tlsConfig *tls.Config, options ...remote.ConfigOption) (*remote.Config, error) {
	if tlsConfig == nil {
		return nil, fmt.Errorf("nodes: a daemon and its sandbox nodes talk over mutual TLS only; no TLS configuration was given")
	}
	host, portText, err := net.SplitHostPort(listen)
	if err != nil {
		return nil, fmt.Errorf("nodes: listen address %q: %w", listen, err)
	}
	port, err := strconv.Atoi(portText)
	if err != nil {
		return nil, fmt.Errorf("nodes: listen address %q: bad port", listen)
	}
	creds := credentials.NewTLS(tlsConfig)
	options = append(options,
		remote.WithServerOptions(grpc.Creds(creds), grpc.MaxRecvMsgSize(maxMessageSize), grpc.MaxSendMsgSize(maxMessageSize)),
		remote.WithDialOptions(grpc.WithTransportCredentials(creds),
			grpc.WithDefaultCallOptions(grpc.MaxCallRecvMsgSize(maxMessageSize), grpc.MaxCallSendMsgSize(maxMessageSize))),
	)
	cfg := remote.Configure(host, port, options...)
	// A peer that cannot be reached is given up on after one attempt:
	// membership, not the transport, decides when it is back.
	cfg.MaxRetryCount = 1
	return cfg, nil
}
