package cli

import (
	"context"
	"fmt"
	"net"
	"os"

	"github.com/mcpexec/mcpexec"
	"github.com/mcpexec/mcpexec/gateway"
)

// cmdServe runs the serve command: the pool, folded into Exec, served to MCP
// clients over stdio (standard output carries the protocol, diagnostics go
// to stderr) or streamable HTTP. It runs until the client closes stdio or a
// signal arrives, then stops every server and worker.
func cmdServe(ctx context.Context, args []string, c console) error {
	f, err := parseServeFlags(c.prog, args, c.stderr)
	if err != nil {
		return err
	}
	var ln net.Listener
	if f.http != "" {
		// Listen before starting the pool: a taken port is a quick, clear
		// failure.
		if ln, err = net.Listen("tcp", listenAddr(f.http)); err != nil {
			return err
		}
		defer ln.Close()
	}
	stateKey, err := f.replicas.stateKey()
	if err != nil {
		return err
	}
	opts := mcpexec.Options{CatalogBudget: f.budget, ParkTimeout: f.parkTimeout}
	f.limitFlags.options(&opts)
	if err := f.nodes.options(&opts); err != nil {
		return err
	}
	tel, err := startTelemetry(ctx, c.prog, f.telemetryFlags, true, &opts, c.stderr)
	if err != nil {
		return err
	}
	defer tel.shutdown()
	s, err := startSession(ctx, sessionConfig{pool: f.poolFlags, defaultSettings: true, options: opts, background: true, startWait: f.timeout}, c.stderr, c.err)
	if err != nil {
		return err
	}
	defer s.close()
	gw := gateway.New(s.System, gateway.Options{Name: c.prog.name, Version: version(), State: f.limitFlags.stateLimits(),
		YieldAfter: f.yieldAfter, StateKey: stateKey})
	defer gw.Close()
	if err := f.replicas.join(gw, f.nodes.tls); err != nil {
		return err
	}
	if f.replicas.joined() {
		fmt.Fprintf(c.stderr, "%s: replica on %s, peers %v\n", c.prog.name, f.replicas.listen, f.replicas.peers)
	}
	if ln == nil {
		err = gw.ServeStdio(ctx)
	} else {
		token := os.Getenv(tokenEnv)
		fmt.Fprintf(c.stderr, "%s: serving MCP on http://%s%s\n", c.prog.name, ln.Addr(), tokenNote(token))
		err = gw.Serve(ctx, ln, gateway.HTTPOptions{Token: token, AllowedOrigins: f.allowOrigins})
	}
	if ctx.Err() != nil {
		return nil // stopped by a signal: the normal way for a server to end
	}
	return err
}

// listenAddr binds a bare ":port" to loopback: serving other machines is a
// choice the user spells out (0.0.0.0:port).
func listenAddr(addr string) string {
	host, port, err := net.SplitHostPort(addr)
	if err == nil && host == "" {
		return net.JoinHostPort("127.0.0.1", port)
	}
	return addr
}

func tokenNote(token string) string {
	if token == "" {
		return ""
	}
	return " (bearer token from $" + tokenEnv + " required)"
}
