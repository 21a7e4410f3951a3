package pool_test

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/mcpexec/mcpexec/internal/testservers"
	"github.com/mcpexec/mcpexec/pool"
)

// firstDownError calls tool until the call fails as its server being down,
// and returns that message; other failures (the connection lost during
// the call) are skipped.
func firstDownError(t *testing.T, m *pool.Manager, tool string) string {
	t.Helper()
	deadline := time.Now().Add(patience)
	for time.Now().Before(deadline) {
		_, err := m.Call(context.Background(), tool, raw(`{"text":"x"}`))
		var ce *pool.CallError
		if errors.As(err, &ce) && ce.Kind == pool.KindServerDown {
			return ce.Error()
		}
	}
	t.Fatalf("%s never failed as its server being down", tool)
	return ""
}

// saysWhy fails unless a "not connected" message carries a reason.
func saysWhy(t *testing.T, when, msg string) {
	t.Helper()
	_, why, ok := strings.Cut(msg, "is not connected:")
	if !ok || strings.TrimSpace(why) == "" {
		t.Errorf("%s: %q says no reason", when, msg)
	}
}

// While a servers-file edit restarts a server (here one that takes its
// time to stop), its tools' calls say it is restarting; after a crash they
// say it is reconnecting and why it ended.
func TestNotConnectedAlwaysSaysWhy(t *testing.T) {
	cmd, args, env := testservers.StubbornCommand()
	stubborn := pool.ServerConfig{Name: "s", Command: cmd, Args: args, Env: env}
	m := start(t, []pool.ServerConfig{stubborn}, pool.Options{})
	waitFor(t, m, "s connected", has("mcp__s__echo"))

	changed := stubborn
	changed.Env = map[string]string{"MCPEXEC_CHANGED": "1"}
	for k, v := range env {
		changed.Env[k] = v
	}
	done := make(chan error, 1)
	go func() { done <- m.SetServers([]pool.ServerConfig{changed}) }()
	msg := firstDownError(t, m, "mcp__s__echo")
	saysWhy(t, "during a restart", msg)
	if err := <-done; err != nil {
		t.Fatal(err)
	}

	block := filepath.Join(t.TempDir(), "block")
	crashing := behaviourStdio("c", block)
	if err := m.SetServers([]pool.ServerConfig{crashing}); err != nil {
		t.Fatal(err)
	}
	waitFor(t, m, "c connected", has("mcp__c__echo"))
	if err := os.WriteFile(block, nil, 0o600); err != nil { // no coming back
		t.Fatal(err)
	}
	_, _ = m.Call(context.Background(), "mcp__c__crash", nil)
	msg = firstDownError(t, m, "mcp__c__echo")
	saysWhy(t, "after a crash", msg)
	if !strings.Contains(msg, "reconnecting") {
		t.Errorf("after a crash: %q does not say the server is reconnecting", msg)
	}
}
