package gateway

import (
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"runtime"
	"sync"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/mcpexec/mcpexec"
	"github.com/mcpexec/mcpexec/internal/testkit"
	"github.com/mcpexec/mcpexec/internal/testservers"
	"github.com/mcpexec/mcpexec/pool"
)

// TestMain lets this test binary serve as its own sandbox worker process.
func TestMain(m *testing.M) {
	mcpexec.MaybeRunWorker()
	os.Exit(testkit.WithTempCache(m.Run))
}

// fixture is a System over the in-memory behaviour server "b", a Gateway
// over it, and the settings file.
type fixture struct {
	sys      *mcpexec.System
	gw       *Gateway
	settings string
}

// waitLimit bounds waits for something asynchronous; only a fault hits it.
const waitLimit = 30 * time.Second

// start starts the fixture with settings (JSON) and options; at cleanup it
// closes everything and checks that no goroutine is left behind.
func start(t testing.TB, settings string, opts mcpexec.Options) *fixture {
	t.Helper()
	before := runtime.NumGoroutine()
	f := &fixture{settings: filepath.Join(t.TempDir(), "settings.json")}
	if err := os.WriteFile(f.settings, []byte(settings), 0o600); err != nil {
		t.Fatal(err)
	}
	if opts.Servers == nil {
		opts.Servers = []pool.ServerConfig{{Name: "b", Dial: testservers.DialInMemory(testservers.Behaviour(testservers.BehaviourOptions{}))}}
	}
	opts.SettingsPath = f.settings
	if opts.Limits.Timeout == 0 {
		opts.Limits.Timeout = 20 * time.Second
	}
	opts.Workers.Warm = max(opts.Workers.Warm, 1)
	sys, err := mcpexec.Start(context.Background(), opts)
	if err != nil {
		t.Fatal(err)
	}
	f.sys = sys
	ctx, cancel := context.WithTimeout(context.Background(), waitLimit)
	defer cancel()
	if err := sys.WaitReady(ctx); err != nil {
		t.Fatal(err)
	}
	f.gw = New(sys, Options{})
	t.Cleanup(func() {
		f.gw.Close()
		if err := sys.Close(); err != nil {
			t.Error(err)
		}
		testkit.CheckGoroutines(t, before)
	})
	return f
}

// blockingServer is a server "w" whose tool wait signals started, then
// returns only when its call is cancelled.
func blockingServer() (server *mcp.Server, started <-chan struct{}) {
	signal := make(chan struct{}, 1)
	server = mcp.NewServer(&mcp.Implementation{Name: "w", Version: "1"}, nil)
	server.AddTool(&mcp.Tool{Name: "wait", InputSchema: json.RawMessage(`{"type":"object"}`)},
		func(ctx context.Context, _ *mcp.CallToolRequest) (*mcp.CallToolResult, error) {
			signal <- struct{}{}
			<-ctx.Done()
			return nil, ctx.Err()
		})
	return server, signal
}

// client is a go-sdk client connected to the gateway in memory, recording
// what the server sends it.
type client struct {
	*mcp.ClientSession
	mu          sync.Mutex
	listChanged int
	changed     chan struct{} // a signal per list_changed
	progress    []*mcp.ProgressNotificationParams
}

// connect connects a client; elicit, when set, answers elicitations (and
// declares the capability).
func (f *fixture) connect(t *testing.T, elicit func(context.Context, *mcp.ElicitRequest) (*mcp.ElicitResult, error)) *client {
	t.Helper()
	return f.connectAt(t, "", false, elicit)
}

// connectAt is connect at a protocol version ("": the SDK's latest), with
// the SDK's multi round-trip middleware off when manual is set.
func (f *fixture) connectAt(t *testing.T, version string, manual bool, elicit func(context.Context, *mcp.ElicitRequest) (*mcp.ElicitResult, error)) *client {
	t.Helper()
	c := &client{changed: make(chan struct{}, 16)}
	opts := &mcp.ClientOptions{
		ToolListChangedHandler: func(context.Context, *mcp.ToolListChangedRequest) {
			c.mu.Lock()
			c.listChanged++
			c.mu.Unlock()
			c.changed <- struct{}{}
		},
		ProgressNotificationHandler: func(_ context.Context, req *mcp.ProgressNotificationClientRequest) {
			c.mu.Lock()
			c.progress = append(c.progress, req.Params)
			c.mu.Unlock()
		},
		ElicitationHandler: elicit,
		MultiRoundTrip:     &mcp.MultiRoundTripOptions{Disabled: manual},
	}
	ct, st := mcp.NewInMemoryTransports()
	ctx := context.Background()
	ss, err := f.gw.Server().Connect(ctx, st, nil)
	if err != nil {
		t.Fatal(err)
	}
	cs, err := mcp.NewClient(&mcp.Implementation{Name: "test", Version: "1"}, opts).Connect(ctx, ct, &mcp.ClientSessionOptions{ProtocolVersion: version})
	if err != nil {
		t.Fatal(err)
	}
	c.ClientSession = cs
	t.Cleanup(func() {
		_ = cs.Close()
		_ = ss.Wait()
	})
	return c
}

func (c *client) listChangedCount() int {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.listChanged
}

// exec calls Exec with code and returns the result's text and isError.
func (c *client) exec(t *testing.T, ctx context.Context, code string, progressToken any) (text string, isError bool) {
	t.Helper()
	params := &mcp.CallToolParams{Name: "Exec", Arguments: map[string]string{"code": code}}
	if progressToken != nil {
		params.SetProgressToken(progressToken)
	}
	res, err := c.CallTool(ctx, params)
	if err != nil {
		t.Fatalf("calling Exec: %v", err)
	}
	return firstText(res), res.IsError
}

func firstText(res *mcp.CallToolResult) string {
	if len(res.Content) == 0 {
		return ""
	}
	if tc, ok := res.Content[0].(*mcp.TextContent); ok {
		return tc.Text
	}
	return ""
}

func (c *client) tools(t *testing.T) map[string]*mcp.Tool {
	t.Helper()
	res, err := c.ListTools(context.Background(), nil)
	if err != nil {
		t.Fatal(err)
	}
	out := map[string]*mcp.Tool{}
	for _, tool := range res.Tools {
		out[tool.Name] = tool
	}
	return out
}

func writeSettings(t *testing.T, path, settings string) {
	t.Helper()
	testkit.ReplaceFile(t, path, []byte(settings))
}

func readJSON(t *testing.T, path string) map[string]any {
	t.Helper()
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	var v map[string]any
	if err := json.Unmarshal(data, &v); err != nil {
		t.Fatal(err)
	}
	return v
}

// eventually polls cond until it holds or waitLimit passes.
func eventually(t *testing.T, what string, cond func() bool) {
	t.Helper()
	deadline := time.Now().Add(waitLimit)
	for !cond() {
		if time.Now().After(deadline) {
			t.Fatalf("gave up waiting: %s", what)
		}
		time.Sleep(20 * time.Millisecond)
	}
}
