package pool_test

import (
	"context"
	"encoding/json"
	"fmt"
	"strings"

	"github.com/mcpexec/mcpexec/internal/testservers"
	"github.com/mcpexec/mcpexec/pool"
)

// The pool constructor: every connected server's tools minus what the
// permission rules exclude, named mcp__<server>__<tool> and sorted.
func ExampleBuild() {
	servers := []pool.ServerTools{
		{Server: "github", Tools: []pool.Tool{{Leaf: "search_issues"}, {Leaf: "delete_repo"}}},
		{Server: "my__docs", Tools: []pool.Tool{{Leaf: "lookup"}}},
	}
	deny := func(name string) bool { return strings.HasSuffix(name, "__delete_repo") }
	snap := pool.Build(servers, deny)
	for _, t := range snap.Tools() {
		fmt.Printf("%s -> server %q, tool %q, group %q\n", t.Name, t.Server, t.Leaf, pool.GroupKey(t.Name))
	}
	// Output:
	// mcp__github__search_issues -> server "github", tool "search_issues", group "github"
	// mcp__my__docs__lookup -> server "my__docs", tool "lookup", group "my"
}

// A bad entry is reported for its server alone.
func ExampleParseConfig() {
	servers, _ := pool.ParseConfig([]byte(`{"mcpServers": {
		"fs": {"command": "npx", "args": ["-y", "@modelcontextprotocol/server-filesystem", "/srv"]},
		"remote": {"url": "https://mcp.example.com/mcp"},
		"broken": {"args": ["x"]}
	}}`))
	for _, s := range servers {
		fmt.Println(s.Name, s.Err)
	}
	// Output:
	// broken mcp server "broken": needs "command" (stdio) or "url" (HTTP)
	// fs <nil>
	// remote <nil>
}

// The funnel: one entry point for every MCP call, by full name.
func ExampleManager_Call() {
	ctx := context.Background()
	m, err := pool.New(ctx, []pool.ServerConfig{
		{Name: "demo", Dial: testservers.DialInMemory(testservers.Behaviour(testservers.BehaviourOptions{}))},
	}, pool.Options{})
	if err != nil {
		panic(err)
	}
	defer m.Close()
	<-m.Ready()

	res, _ := m.Call(ctx, "mcp__demo__structured", json.RawMessage(`{}`))
	fmt.Printf("structured: %v\n", res.Value)
	res, _ = m.Call(ctx, "mcp__demo__image", nil)
	fmt.Printf("image only: value %v, %d image\n", res.Value, len(res.Images))
	_, err = m.Call(ctx, "mcp__demo__fail", nil)
	fmt.Println("tool error:", err)
	_, err = m.Call(ctx, "mcp__demo__gone", nil)
	fmt.Println("unknown:", err)
	// Output:
	// structured: map[count:2 items:[a b]]
	// image only: value <nil>, 1 image
	// tool error: quota exceeded: try again tomorrow
	// unknown: MCP tool "mcp__demo__gone" is not in the current tool pool; it may have been removed since the tool list was shown.
}
