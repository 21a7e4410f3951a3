package cli

import (
	"flag"
	"io"

	"github.com/mcpexec/mcpexec"
	"github.com/mcpexec/mcpexec/nodes"
)

// tlsFlags name one side's mutual TLS files.
type tlsFlags struct{ files nodes.TLSFiles }

func addTLSFlags(fs *flag.FlagSet, f *tlsFlags, peer string) {
	fs.StringVar(&f.files.Cert, "tls-cert", "", "this side's TLS certificate `FILE` (PEM)")
	fs.StringVar(&f.files.Key, "tls-key", "", "the key `FILE` of --tls-cert (PEM)")
	fs.StringVar(&f.files.CA, "tls-ca", "", "the CA certificate `FILE` (PEM) that must have signed every "+peer+"'s certificate")
}

func (f tlsFlags) given() bool { return f.files != nodes.TLSFiles{} }

func (f tlsFlags) check(fs *flag.FlagSet) error {
	if f.files.Cert == "" || f.files.Key == "" || f.files.CA == "" {
		return usageError(fs, "--tls-cert, --tls-key and --tls-ca are all required: a daemon, its sandbox nodes and its replicas talk over mutual TLS only")
	}
	return nil
}

// nodeFlags are the serve command's options for running scripts on sandbox
// nodes.
type nodeFlags struct {
	nodes  []string // membership endpoints
	listen string
	tls    tlsFlags
}

func addNodeFlags(fs *flag.FlagSet, f *nodeFlags) {
	fs.Func("node", "run scripts on the sandbox node whose membership endpoint is `HOST:PORT` (mcpexec sandbox-node); repeatable", func(s string) error {
		f.nodes = append(f.nodes, s)
		return nil
	})
	fs.StringVar(&f.listen, "node-listen", "127.0.0.1:0", "where the sandbox nodes reach this daemon back, `HOST:PORT`")
	addTLSFlags(fs, &f.tls, "sandbox node")
}

// check checks the node flags; replicas says the TLS files serve the
// gateway's replicas too.
func (f nodeFlags) check(fs *flag.FlagSet, replicas bool) error {
	if len(f.nodes) == 0 && !replicas {
		if f.tls.given() {
			return usageError(fs, "--tls-cert, --tls-key and --tls-ca apply to --node and --replica-listen only")
		}
		return nil
	}
	return f.tls.check(fs)
}

// options sets the System's sandbox nodes, if any.
func (f nodeFlags) options(opts *mcpexec.Options) error {
	if len(f.nodes) == 0 {
		return nil
	}
	cfg, err := f.tls.files.Config()
	if err != nil {
		return err
	}
	opts.Nodes = &nodes.DaemonOptions{Listen: f.listen, Nodes: f.nodes, TLS: cfg}
	return nil
}

// sandboxNodeFlags are the options of the sandbox-node command.
type sandboxNodeFlags struct {
	listen         string
	membershipPort int
	warm           int
	maxWorkers     int
	memoryMB       int
	verbose        bool
	tls            tlsFlags
}

const sandboxNodeSynopsis = "--listen HOST:PORT --membership-port N --tls-cert FILE --tls-key FILE --tls-ca FILE [--workers N] [--max-workers N] [--memory-mb N] [--verbose]"

func parseSandboxNodeFlags(p *program, args []string, errOut io.Writer) (sandboxNodeFlags, error) {
	var f sandboxNodeFlags
	fs := newFlagSet(p, "sandbox-node", sandboxNodeSynopsis, errOut)
	fs.StringVar(&f.listen, "listen", "", "where the node takes runs from its daemon, `HOST:PORT` (required)")
	fs.IntVar(&f.membershipPort, "membership-port", 0, "`PORT` of the node's membership endpoint (HTTPS, the same mutual TLS, on the host of --listen), which the daemon's --node names (required)")
	fs.IntVar(&f.warm, "workers", 0, "idle worker processes kept ready (default: one per CPU)")
	fs.IntVar(&f.maxWorkers, "max-workers", 0, "cap on worker processes alive at once; runs beyond it wait (default: four per CPU, at least eight)")
	fs.IntVar(&f.memoryMB, "memory-mb", mcpexec.DefaultMemoryLimit>>20, "memory cap of a worker process, in MiB")
	fs.BoolVar(&f.verbose, "verbose", false, "show the node's diagnostics on stderr")
	addTLSFlags(fs, &f.tls, "daemon")
	if err := parseFlagsOnly(fs, args); err != nil {
		return f, err
	}
	switch {
	case f.listen == "":
		return f, usageError(fs, "--listen HOST:PORT is required")
	case f.membershipPort <= 0 || f.membershipPort > 65535:
		return f, usageError(fs, "--membership-port N is required")
	case f.memoryMB < minMemoryMB:
		return f, usageError(fs, "--memory-mb must be at least %d: below that a worker process cannot start", minMemoryMB)
	}
	return f, f.tls.check(fs)
}
