package replicas

import (
	"crypto/tls"
	"fmt"
	"net"
	"strconv"

	"github.com/asynkron/protoactor-go/remote"
	"google.golang.org/grpc"
	"google.golang.org/grpc/credentials"
)

// maxMessageSize bounds one message between replicas: a Reply carries a
// whole tool result (images included), which gRPC's default of 4 MiB would
// refuse, breaking the connection. The peers are authenticated.
const maxMessageSize = 1 << 30

// remoteConfig is protoactor's remote on listen (host:port) under mutual
// TLS.
func remoteConfig(listen string, tlsConfig *tls.Config) (*remote.Config, error) {
	if tlsConfig == nil {
		return nil, fmt.Errorf("replicas: replicas talk over mutual TLS only; no TLS configuration was given")
	}
	host, portText, err := net.SplitHostPort(listen)
	if err != nil {
		return nil, fmt.Errorf("replicas: listen address %q: %w", listen, err)
	}
	port, err := strconv.Atoi(portText)
	if err != nil || port <= 0 {
		return nil, fmt.Errorf("replicas: listen address %q: the port must be given: the peers reach this replica there", listen)
	}
	if ip := net.ParseIP(host); host == "" || ip != nil && ip.IsUnspecified() {
		return nil, fmt.Errorf("replicas: listen address %q: name the host the peers reach this replica on, not every interface", listen)
	}
	creds := credentials.NewTLS(tlsConfig)
	cfg := remote.Configure(host, port,
		remote.WithServerOptions(grpc.Creds(creds), grpc.MaxRecvMsgSize(maxMessageSize), grpc.MaxSendMsgSize(maxMessageSize)),
		remote.WithDialOptions(grpc.WithTransportCredentials(creds),
			grpc.WithDefaultCallOptions(grpc.MaxCallRecvMsgSize(maxMessageSize), grpc.MaxCallSendMsgSize(maxMessageSize))),
	)
	// A peer that cannot be reached is given up on after one attempt: the
	// caller learns at once that what it held is gone.
	cfg.MaxRetryCount = 1
	return cfg, nil
}
