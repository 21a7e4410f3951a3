package cli

import (
	"bytes"
	"flag"
	"fmt"
	"os"

	"github.com/mcpexec/mcpexec/gateway"
)

// replicaFlags are the serve command's options for running as one of
// several replicas behind a load balancer.
type replicaFlags struct {
	stateKeyFile string
	listen       string
	peers        []string
}

// minStateKeyLength is the shortest requestState key accepted: 32
// characters, such as `openssl rand -hex 32` makes twice over.
const minStateKeyLength = 32

func addReplicaFlags(fs *flag.FlagSet, f *replicaFlags) {
	fs.StringVar(&f.stateKeyFile, "state-key-file", "",
		"`FILE` holding the key requestStates are signed with (at least 32 characters, e.g. from openssl rand -hex 32), the same on every replica; default: a key drawn at random when serve starts")
	fs.StringVar(&f.listen, "replica-listen", "",
		"serve as a replica: where the other replicas reach this one, `HOST:PORT` (needs --http, --state-key-file and the --tls-* files)")
	fs.Func("replica-peer", "another replica's --replica-listen address, `HOST:PORT`; repeatable", func(s string) error {
		f.peers = append(f.peers, s)
		return nil
	})
}

// joined reports whether serve runs as a replica.
func (f replicaFlags) joined() bool { return f.listen != "" }

func (f replicaFlags) check(fs *flag.FlagSet, http string) error {
	switch {
	case !f.joined() && len(f.peers) > 0:
		return usageError(fs, "--replica-peer applies to --replica-listen only")
	case !f.joined():
		return nil
	case f.stateKeyFile == "":
		return usageError(fs, "--replica-listen needs --state-key-file: the replicas verify each other's requestStates with the key they share")
	case http == "":
		return usageError(fs, "--replica-listen applies to --http only: replicas serve HTTP behind a load balancer")
	}
	return nil
}

// stateKey reads the requestState key, nil when none is configured.
func (f replicaFlags) stateKey() ([]byte, error) {
	if f.stateKeyFile == "" {
		return nil, nil
	}
	data, err := os.ReadFile(f.stateKeyFile)
	if err != nil {
		return nil, fmt.Errorf("the requestState key: %w", err)
	}
	key := bytes.TrimSpace(data)
	if len(key) < minStateKeyLength {
		return nil, fmt.Errorf("the requestState key in %s is too short: give at least %d characters (openssl rand -hex 32 > %s)",
			f.stateKeyFile, minStateKeyLength, f.stateKeyFile)
	}
	return key, nil
}

// join joins gw to the other replicas, if serve runs as one, over the
// mutual TLS of tls.
func (f replicaFlags) join(gw *gateway.Gateway, tls tlsFlags) error {
	if !f.joined() {
		return nil
	}
	cfg, err := tls.files.Config()
	if err != nil {
		return err
	}
	return gw.JoinReplicas(gateway.ReplicaOptions{Listen: f.listen, Peers: f.peers, TLS: cfg})
}
