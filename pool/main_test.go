package pool_test

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"runtime"
	"testing"
	"time"

	"github.com/mcpexec/mcpexec/internal/testservers"
	"github.com/mcpexec/mcpexec/pool"
)

func TestMain(m *testing.M) {
	testservers.MaybeServe()
	code := m.Run()
	// No server or grandchild may outlive the tests that started it.
	if left := testservers.Survivors(patience); len(left) > 0 {
		fmt.Fprintf(os.Stderr, "test server processes survived the run: %v\n", left)
		code = 1
	}
	os.Exit(code)
}

// patience bounds how long a test waits for something that must happen; it
// only turns a hang into a failure and asserts nothing about speed.
const patience = 60 * time.Second

// start creates a Manager with fast reconnects, closes it at the end of the
// test and checks that no goroutine it started is left behind.
func start(t *testing.T, servers []pool.ServerConfig, opts pool.Options) *pool.Manager {
	t.Helper()
	baseline := runtime.NumGoroutine()
	if opts.BackoffBase == 0 {
		opts.BackoffBase = 10 * time.Millisecond
		opts.BackoffMax = 100 * time.Millisecond
	}
	if opts.StopGrace == 0 {
		opts.StopGrace = 500 * time.Millisecond
	}
	m, err := pool.New(context.Background(), servers, opts)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		if err := m.Close(); err != nil {
			t.Errorf("Close: %v", err)
		}
		waitGoroutines(t, baseline)
	})
	select {
	case <-m.Ready():
	case <-time.After(patience):
		t.Fatalf("servers never finished their first attempt: %+v", m.Status())
	}
	return m
}

// waitGoroutines fails unless the goroutine count returns to baseline. The
// SDK sends a cancellation notice from a short-lived goroutine, so give the
// count time to settle.
func waitGoroutines(t *testing.T, baseline int) {
	t.Helper()
	deadline := time.Now().Add(patience)
	for runtime.NumGoroutine() > baseline {
		if time.Now().After(deadline) {
			buf := make([]byte, 1<<20)
			n := runtime.Stack(buf, true)
			t.Fatalf("goroutines: %d, baseline %d\n%s", runtime.NumGoroutine(), baseline, buf[:n])
		}
		time.Sleep(10 * time.Millisecond)
	}
}

// waitFor waits until cond holds on the manager's snapshot.
func waitFor(t *testing.T, m *pool.Manager, what string, cond func(*pool.Snapshot) bool) *pool.Snapshot {
	t.Helper()
	changes, cancel := m.Subscribe()
	defer cancel()
	deadline := time.After(patience)
	for {
		if s := m.Snapshot(); cond(s) {
			return s
		}
		select {
		case <-changes:
		case <-time.After(20 * time.Millisecond):
		case <-deadline:
			t.Fatalf("waiting for %s: never happened; status %+v", what, m.Status())
		}
	}
}

func behaviourInMemory(name string) pool.ServerConfig {
	return pool.ServerConfig{Name: name, Dial: testservers.DialInMemory(testservers.Behaviour(testservers.BehaviourOptions{}))}
}

func behaviourStdio(name, blockFile string) pool.ServerConfig {
	cmd, args, env := testservers.StdioCommand(blockFile)
	return pool.ServerConfig{Name: name, Command: cmd, Args: args, Env: env}
}

func names(s *pool.Snapshot) []string {
	var out []string
	for _, t := range s.Tools() {
		out = append(out, t.Name)
	}
	return out
}

func has(name string) func(*pool.Snapshot) bool {
	return func(s *pool.Snapshot) bool { _, ok := s.Lookup(name); return ok }
}

func hasNot(name string) func(*pool.Snapshot) bool {
	return func(s *pool.Snapshot) bool { _, ok := s.Lookup(name); return !ok }
}

func raw(s string) json.RawMessage { return json.RawMessage(s) }

func statusOf(t *testing.T, m *pool.Manager, name string) pool.ServerStatus {
	t.Helper()
	for _, s := range m.Status() {
		if s.Name == name {
			return s
		}
	}
	t.Fatalf("no status for %q", name)
	return pool.ServerStatus{}
}
