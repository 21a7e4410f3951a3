package pool_test

import (
	"context"
	"encoding/json"
	"slices"
	"sync"
	"testing"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/mcpexec/mcpexec/internal/testservers"
	"github.com/mcpexec/mcpexec/pool"
)

// A caller that asks for progress gets the server's own progress
// notifications about its call while it runs; a caller that does not sends
// no token. (A notification the SDK hands over after the call returned is
// dropped: it is stale by then. The server here waits for each to arrive.)
func TestServersProgressReachesTheCaller(t *testing.T) {
	received := make(chan struct{}, 2)
	s := mcp.NewServer(&mcp.Implementation{Name: "p", Version: "1"}, nil)
	s.AddTool(&mcp.Tool{Name: "slow", InputSchema: json.RawMessage(`{"type":"object"}`)},
		func(ctx context.Context, req *mcp.CallToolRequest) (*mcp.CallToolResult, error) {
			token := req.Params.GetProgressToken()
			if token != nil {
				for i, step := range []string{"fetching", "parsing"} {
					_ = req.Session.NotifyProgress(ctx, &mcp.ProgressNotificationParams{ProgressToken: token, Message: step, Progress: float64(i + 1), Total: 2})
					<-received
				}
			}
			return &mcp.CallToolResult{Content: []mcp.Content{&mcp.TextContent{Text: jsonBool(token != nil)}}}, nil
		})
	m := start(t, []pool.ServerConfig{{Name: "p", Dial: testservers.DialInMemory(s)}}, pool.Options{})
	waitFor(t, m, "p connected", has("mcp__p__slow"))

	var mu sync.Mutex
	var got []pool.Progress
	ctx := pool.WithProgress(context.Background(), func(p pool.Progress) {
		mu.Lock()
		defer mu.Unlock()
		got = append(got, p)
		received <- struct{}{}
	})
	res, err := m.Call(ctx, "mcp__p__slow", nil)
	if err != nil || res.Value != "true" {
		t.Fatalf("call with progress: %+v, %v; want the server to have seen a token", res, err)
	}
	mu.Lock()
	want := []pool.Progress{{Tool: "mcp__p__slow", Message: "fetching", Progress: 1, Total: 2}, {Tool: "mcp__p__slow", Message: "parsing", Progress: 2, Total: 2}}
	if !slices.Equal(got, want) {
		t.Errorf("progress %+v, want %+v", got, want)
	}
	mu.Unlock()

	res, err = m.Call(context.Background(), "mcp__p__slow", nil)
	if err != nil || res.Value != "false" {
		t.Errorf("call without progress: %+v, %v; want no token sent", res, err)
	}
}

func jsonBool(b bool) string {
	if b {
		return "true"
	}
	return "false"
}
