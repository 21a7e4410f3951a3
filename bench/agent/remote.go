package agent

import (
	"bytes"
	"context"
	"fmt"
	"net"
	"os/exec"
	"strconv"
	"time"
)

// remoteEnv is the whole environment of the HTTP server: nothing from the
// machine, so what its get-env tool returns (and so its tokens) is the same
// everywhere. The APP_ variables are a service's configuration for a task to
// look through.
var remoteEnv = []string{
	"APP_NAME=orders-api", "APP_REGION=eu-west-3", "APP_LOG_LEVEL=info", "APP_DB_HOST=db.internal",
	"APP_DB_PORT=5432", "APP_DB_NAME=orders", "APP_CACHE_URL=redis://cache.internal:6379/0",
	"APP_QUEUE=orders-events", "APP_FEATURE_FLAGS=checkout-v2,fast-refunds", "APP_MAX_WORKERS=16",
	"APP_TIMEOUT_MS=2500", "APP_RETRY_LIMIT=4", "APP_BUILD=2026.11.3-7c1e9a", "APP_OWNER=payments-team",
	"APP_PAGER=payments-oncall", "APP_METRICS_PREFIX=orders_api", "APP_TRACE_SAMPLE=0.05",
	"APP_CURRENCY=EUR", "APP_TAX_MODE=inclusive", "APP_SUPPORT_EMAIL=support@example.com",
}

// remote is server-everything serving streamable HTTP on a loopback port:
// the pool's one server reached over HTTP.
type remote struct {
	URL    string
	cmd    *exec.Cmd
	exited chan error
	logs   bytes.Buffer
}

func startRemote(ctx context.Context, setup Setup) (*remote, error) {
	node, err := setup.node()
	if err != nil {
		return nil, err
	}
	port, err := freePort()
	if err != nil {
		return nil, err
	}
	r := &remote{URL: "http://127.0.0.1:" + strconv.Itoa(port) + "/mcp"}
	r.cmd = exec.Command(node, setup.everythingMain(), "streamableHttp")
	r.cmd.Env = append([]string{"PORT=" + strconv.Itoa(port)}, remoteEnv...)
	r.cmd.Stdout, r.cmd.Stderr = &r.logs, &r.logs
	if err := r.cmd.Start(); err != nil {
		return nil, fmt.Errorf("starting server-everything over HTTP: %w", err)
	}
	r.exited = make(chan error, 1)
	go func() { r.exited <- r.cmd.Wait() }()
	// Ready is when the port accepts a connection; a server that exits
	// first (a port taken meanwhile) says why in its output.
	for {
		select {
		case err := <-r.exited:
			return nil, fmt.Errorf("server-everything over HTTP exited before listening (%v): %s", err, r.logs.String())
		case <-ctx.Done():
			r.Stop()
			return nil, ctx.Err()
		case <-time.After(50 * time.Millisecond):
		}
		if c, err := net.Dial("tcp", "127.0.0.1:"+strconv.Itoa(port)); err == nil {
			c.Close()
			return r, nil
		}
	}
}

// Stop ends the server and waits for its process to be gone.
func (r *remote) Stop() {
	_ = r.cmd.Process.Kill()
	<-r.exited
}

func freePort() (int, error) {
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		return 0, err
	}
	defer l.Close()
	return l.Addr().(*net.TCPAddr).Port, nil
}
