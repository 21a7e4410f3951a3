package mcpexec_test

import (
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"testing"
	"time"

	"github.com/rs/zerolog"

	"github.com/mcpexec/mcpexec"
	"github.com/mcpexec/mcpexec/internal/testkit"
	"github.com/mcpexec/mcpexec/internal/testservers"
)

// writeServersFile writes an mcpServers file naming the stdio behaviour
// server under each name, replacing the file atomically as editors do.
func writeServersFile(t *testing.T, path string, names ...string) {
	t.Helper()
	cmd, args, env := testservers.StdioCommand("")
	entries := map[string]any{}
	for _, name := range names {
		entries[name] = map[string]any{"command": cmd, "args": args, "env": env}
	}
	data, err := json.Marshal(map[string]any{"mcpServers": entries})
	if err != nil {
		t.Fatal(err)
	}
	testkit.ReplaceFile(t, path, data)
}

// The servers file is followed: a server added to it connects, one removed
// from it leaves the pool, and a file that does not parse changes nothing.
func TestServersFileIsFollowed(t *testing.T) {
	before := runtime.NumGoroutine()
	path := filepath.Join(t.TempDir(), "mcp.json")
	writeServersFile(t, path, "a")
	var log testkit.SyncBuffer
	logger := zerolog.New(&log).Level(zerolog.WarnLevel)
	sys, err := mcpexec.Start(context.Background(), mcpexec.Options{ServersFile: path, Logger: &logger})
	if err != nil {
		t.Fatal(err)
	}
	defer func() {
		if err := sys.Close(); err != nil {
			t.Error(err)
		}
		testkit.CheckGoroutines(t, before)
	}()
	namespaces := func() map[string]int { return sys.Catalog().Namespaces }
	waitUntil(t, "a in the catalog", func() bool { return namespaces()["a"] > 0 })

	writeServersFile(t, path, "a", "b")
	waitUntil(t, "b in the catalog", func() bool { return namespaces()["b"] > 0 })

	writeServersFile(t, path, "b")
	waitUntil(t, "a gone from the catalog", func() bool { _, ok := namespaces()["a"]; return !ok })

	if err := os.WriteFile(path, []byte(`{"mcpServers": {`), 0o600); err != nil {
		t.Fatal(err)
	}
	waitUntil(t, "the broken save to be reported", func() bool { return strings.Contains(log.String(), "servers file not applied") })
	if got := namespaces(); got["b"] == 0 || len(got) != 1 {
		t.Errorf("after a broken save the pool is %v, want b alone", got)
	}
}

func waitUntil(t *testing.T, what string, cond func() bool) {
	t.Helper()
	deadline := time.Now().Add(60 * time.Second)
	for !cond() {
		if time.Now().After(deadline) {
			t.Fatalf("gave up waiting: %s", what)
		}
		time.Sleep(20 * time.Millisecond)
	}
}
