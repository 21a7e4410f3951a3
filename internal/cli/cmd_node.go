package cli

import (
	"context"
	"fmt"

	"github.com/rs/zerolog"

	"github.com/mcpexec/mcpexec"
	"github.com/mcpexec/mcpexec/nodes"
)

// cmdSandboxNode runs a sandbox node: it joins its daemons' cluster and
// runs the scripts they place on it, in its own worker processes, until a
// signal arrives. It holds no MCP connection, no settings and no secret
// besides its TLS key: every nested call goes back to the daemon.
func cmdSandboxNode(ctx context.Context, args []string, c console) error {
	f, err := parseSandboxNodeFlags(c.prog, args, c.stderr)
	if err != nil {
		return err
	}
	cfg, err := f.tls.files.Config()
	if err != nil {
		return err
	}
	logger := warningLogger(c.stderr, c.err)
	if f.verbose {
		logger = logger.Level(zerolog.DebugLevel)
	}
	n, err := nodes.StartNode(nodes.NodeOptions{
		Listen: f.listen, MembershipPort: f.membershipPort, TLS: cfg, Logger: &logger,
		Workers: mcpexec.WorkerOptions{Warm: f.warm, MaxWorkers: f.maxWorkers, MemoryLimit: int64(f.memoryMB) << 20},
	})
	if err != nil {
		return err
	}
	fmt.Fprintf(c.stderr, "%s: sandbox node on %s (membership port %d)\n", c.prog.name, n.Address(), f.membershipPort)
	<-ctx.Done()
	n.Close()
	return nil
}
