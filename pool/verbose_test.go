package pool_test

import (
	"context"
	"encoding/json"
	"strings"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"
	"github.com/rs/zerolog"

	"github.com/mcpexec/mcpexec/internal/testkit"
	"github.com/mcpexec/mcpexec/internal/testservers"
	"github.com/mcpexec/mcpexec/pool"
)

// waitLog waits until the log holds want.
func waitLog(t *testing.T, log *testkit.SyncBuffer, want string) {
	t.Helper()
	deadline := time.Now().Add(patience)
	for !strings.Contains(log.String(), want) {
		if time.Now().After(deadline) {
			t.Fatalf("the log never held %q:\n%s", want, log.String())
		}
		time.Sleep(10 * time.Millisecond)
	}
}

// At debug level a stdio server's stderr is relayed line by line; at any
// other level it only explains the server's exit.
func TestServerStderrIsRelayedWhenDebugging(t *testing.T) {
	cmd, args, env := testservers.CrashAtStartCommand()
	crashing := pool.ServerConfig{Name: "c", Command: cmd, Args: args, Env: env}

	var debug testkit.SyncBuffer
	start(t, []pool.ServerConfig{crashing}, pool.Options{Logger: zerolog.New(&debug).Level(zerolog.DebugLevel)})
	waitLog(t, &debug, `"server":"c","stderr":"`+testservers.CrashMessage+`","message":"mcp server stderr"`)

	var quiet testkit.SyncBuffer
	m := start(t, []pool.ServerConfig{crashing}, pool.Options{Logger: zerolog.New(&quiet).Level(zerolog.InfoLevel)})
	waitFor(t, m, "c to fail", func(*pool.Snapshot) bool { return statusOf(t, m, "c").State == pool.StateRetrying })
	if strings.Contains(quiet.String(), "mcp server stderr") {
		t.Errorf("stderr relayed at info level:\n%s", quiet.String())
	}
	if !strings.Contains(quiet.String(), testservers.CrashMessage) {
		t.Errorf("the failure does not say why:\n%s", quiet.String())
	}
}

// At debug level a server's MCP log notifications are relayed, all of them.
func TestServerLogNotificationsAreRelayedWhenDebugging(t *testing.T) {
	s := mcp.NewServer(&mcp.Implementation{Name: "l", Version: "1"}, nil)
	s.AddTool(&mcp.Tool{Name: "work", InputSchema: json.RawMessage(`{"type":"object"}`)},
		func(ctx context.Context, req *mcp.CallToolRequest) (*mcp.CallToolResult, error) {
			_ = req.Session.Log(ctx, &mcp.LoggingMessageParams{Level: "debug", Logger: "worker", Data: "fine detail"})
			return &mcp.CallToolResult{Content: []mcp.Content{&mcp.TextContent{Text: "ok"}}}, nil
		})
	var log testkit.SyncBuffer
	m := start(t, []pool.ServerConfig{{Name: "l", Dial: testservers.DialInMemory(s)}},
		pool.Options{Logger: zerolog.New(&log).Level(zerolog.DebugLevel)})
	waitFor(t, m, "l connected", has("mcp__l__work"))
	if _, err := m.Call(context.Background(), "mcp__l__work", nil); err != nil {
		t.Fatal(err)
	}
	waitLog(t, &log, `"server":"l","level":"debug","logger":"worker","data":"fine detail","message":"mcp server log"`)
}
