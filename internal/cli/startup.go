package cli

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"slices"
	"strings"
	"sync"
	"time"

	"github.com/mcpexec/mcpexec"
	"github.com/mcpexec/mcpexec/pool"
)

// startingNote is how long the start-up wait stays quiet before it names
// the servers still starting: most servers are up well within it, and a
// person waiting longer deserves to know on what.
const startingNote = time.Second

// startingPoll is how often the start-up wait looks at the servers.
const startingPoll = 100 * time.Millisecond

// waitForServers waits until every configured server has been tried once
// (connected, or failed with a reason), or until bound has passed when it
// is positive: each server's own connect timeout bounds the wait anyway,
// and bound shortens it (exec's --timeout). Meanwhile it names on log the
// servers still starting, once startingNote has passed and whenever that
// list changes. Servers still starting when the wait ends are named too:
// the command runs without their tools while they go on starting in the
// background.
func waitForServers(ctx context.Context, sys *mcpexec.System, bound time.Duration, log io.Writer, st style) error {
	waitCtx, cancel := ctx, context.CancelFunc(func() {})
	if bound > 0 {
		waitCtx, cancel = context.WithTimeout(ctx, bound)
	}
	defer cancel()
	ready := make(chan error, 1)
	go func() { ready <- sys.WaitReady(waitCtx) }()

	start := time.Now()
	tick := time.NewTicker(startingPoll)
	defer tick.Stop()
	shown := ""
	for {
		select {
		case err := <-ready:
			if ctx.Err() != nil {
				return ctx.Err()
			}
			if names := startingServers(sys); err != nil && len(names) > 0 {
				meanwhile := " (running without its tools while it goes on starting)"
				if len(names) > 1 {
					meanwhile = " (running without their tools while they go on starting)"
				}
				fmt.Fprintln(log, st.bad(fmt.Sprintf("not started after %s: %s", bound, strings.Join(names, ", ")))+st.dim(meanwhile))
			}
			return nil
		case <-tick.C:
			if time.Since(start) < startingNote {
				continue
			}
			if names := strings.Join(startingServers(sys), ", "); names != "" && names != shown {
				fmt.Fprintln(log, st.note("still starting: "+names))
				shown = names
			}
		}
	}
}

// startingServers names the servers whose first attempt to connect has not
// ended, sorted.
func startingServers(sys *mcpexec.System) []string {
	var names []string
	for _, srv := range sys.Servers() {
		if srv.State == pool.StateConnecting && srv.Connects == 0 {
			names = append(names, srv.Name)
		}
	}
	slices.Sort(names)
	return names
}

// failedServers are the configured servers that are not connected: a
// command that ends with any of them ran on part of the pool. A server
// disabled in the servers file is left out on purpose.
func failedServers(sys *mcpexec.System) []pool.ServerStatus {
	var failed []pool.ServerStatus
	for _, srv := range sys.Servers() {
		if srv.State != pool.StateConnected && srv.State != pool.StateDisabled {
			failed = append(failed, srv)
		}
	}
	slices.SortFunc(failed, func(a, b pool.ServerStatus) int { return strings.Compare(a.Name, b.Name) })
	return failed
}

// writeFailedServers lists the failed servers, each with why, on w.
func writeFailedServers(w io.Writer, st style, failed []pool.ServerStatus) {
	were := "MCP servers were"
	if len(failed) == 1 {
		were = "MCP server was"
	}
	fmt.Fprintln(w, st.bad(fmt.Sprintf("%d %s not connected:", len(failed), were)))
	for _, srv := range failed {
		fmt.Fprintf(w, "  %s: %s\n", st.bold(srv.Name), shortField(srv.Why()))
	}
}

// errServersFailed ends a command that ran while some of its servers were
// not connected (already listed on stderr). err is how the command itself
// ended: nil, errFailed, or an error still to report.
type errServersFailed struct{ err error }

func (e errServersFailed) Error() string {
	if e.err == nil {
		return "MCP servers not connected"
	}
	return e.err.Error()
}

func (e errServersFailed) Unwrap() error { return e.err }

// finish lists the servers that are not connected when a command ends and
// turns err into errServersFailed when there are any. An interrupted
// command says nothing more.
func (s *session) finish(ctx context.Context, err error) error {
	if ctx.Err() != nil {
		return err
	}
	failed := failedServers(s.System)
	if len(failed) == 0 {
		return err
	}
	writeFailedServers(s.log, s.style, failed)
	return errServersFailed{err: err}
}

// quietRetries drops a server's "unavailable" warning when it repeats the
// last one word for word: a server that keeps failing the same way is
// retried with a backoff and each retry logs, which says nothing new. It
// sits between the logger and its console writer, so it sees each event
// as one JSON object.
type quietRetries struct {
	next io.Writer
	// full, when set, receives a failure's whole text after its short
	// line: a server's stderr, every line, is the person's to read.
	full io.Writer

	mu   sync.Mutex
	last map[string]string // server -> its last failure
}

// unavailableMessage is the pool's warning for a failed connection attempt.
const unavailableMessage = "mcp server unavailable"

func (q *quietRetries) Write(p []byte) (int, error) {
	var e struct {
		Message string `json:"message"`
		Server  string `json:"server"`
		Error   string `json:"error"`
	}
	if json.Unmarshal(p, &e) == nil && e.Message == unavailableMessage && e.Server != "" {
		q.mu.Lock()
		if q.last == nil {
			q.last = map[string]string{}
		}
		same := q.last[e.Server] == e.Error
		q.last[e.Server] = e.Error
		q.mu.Unlock()
		if same {
			return len(p), nil
		}
		if _, err := q.next.Write(p); err != nil {
			return 0, err
		}
		if q.full != nil && (strings.Contains(e.Error, "\n") || len([]rune(e.Error)) > maxFieldRunes) {
			_, _ = io.WriteString(q.full, indent(strings.TrimRight(e.Error, "\n"), "    ")+"\n")
		}
		return len(p), nil
	}
	return q.next.Write(p)
}
