package mcpexec_test

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/mcpexec/mcpexec"
	"github.com/mcpexec/mcpexec/broadcast"
	"github.com/mcpexec/mcpexec/pool"
)

// notesServer is a small MCP server built with the official SDK: list
// returns structured content, text two text parts. A real daemon connects
// its users' servers instead (Options.ServersFile).
func notesServer() *mcp.Server {
	s := mcp.NewServer(&mcp.Implementation{Name: "notes", Version: "1"},
		&mcp.ServerOptions{Instructions: "Notes are short; list them before reading one."})
	object := json.RawMessage(`{"type":"object"}`)
	s.AddTool(&mcp.Tool{Name: "list", Description: "List the notes.", InputSchema: object,
		OutputSchema: json.RawMessage(`{"type":"object","properties":{"items":{"type":"array","items":{"type":"string"}}}}`)},
		func(context.Context, *mcp.CallToolRequest) (*mcp.CallToolResult, error) {
			return &mcp.CallToolResult{
				Content:           []mcp.Content{&mcp.TextContent{Text: `{"items":["a","b"]}`}},
				StructuredContent: json.RawMessage(`{"items":["a","b"]}`),
			}, nil
		})
	s.AddTool(&mcp.Tool{Name: "text", Description: "Read the text of the notes.", InputSchema: object},
		func(context.Context, *mcp.CallToolRequest) (*mcp.CallToolResult, error) {
			return &mcp.CallToolResult{Content: []mcp.Content{&mcp.TextContent{Text: "first"}, &mcp.TextContent{Text: "second"}}}, nil
		})
	return s
}

// inMemory dials server over the SDK's in-memory transports.
func inMemory(server *mcp.Server) func(context.Context) (mcp.Transport, error) {
	return func(context.Context) (mcp.Transport, error) {
		client, serverEnd := mcp.NewInMemoryTransports()
		if _, err := server.Connect(context.Background(), serverEnd, nil); err != nil {
			return nil, err
		}
		return client, nil
	}
}

// Example shows one turn of an agent loop: declare tools, append what the
// catalog channel says, and answer the model's Exec call.
func Example() {
	ctx := context.Background()
	dir, _ := os.MkdirTemp("", "mcpexec-example")
	defer os.RemoveAll(dir)
	settings := filepath.Join(dir, "settings.json")
	_ = os.WriteFile(settings, []byte(`{"permissions": {"allow": ["mcp__b"]}}`), 0o600)

	sys, err := mcpexec.Start(ctx, mcpexec.Options{
		// A real daemon passes its users' servers, e.g. ServersFile.
		Servers:      []pool.ServerConfig{{Name: "b", Dial: inMemory(notesServer())}},
		SettingsPath: settings,
	})
	if err != nil {
		fmt.Println(err)
		return
	}
	defer sys.Close()
	_ = sys.WaitReady(ctx)

	// Each model request: tools[] and the meta messages to append.
	history := broadcast.NewHistory()
	for _, d := range sys.Declarations(mcpexec.DeclareOptions{}) {
		fmt.Println("declared:", d.Name)
	}
	msgs, _ := sys.Broadcast(history, mcpexec.DeclareOptions{})
	for _, m := range msgs {
		history.Append(m)
	}
	fmt.Println("meta messages appended:", len(msgs))

	// The model answers with an Exec call.
	args, _ := json.Marshal(map[string]string{"code": `
		const s = await tools.mcp__b__list({});
		console.log("items:", s.items.length);
		return await tools.mcp__b__text({});`})
	res := sys.Exec(ctx, args, func(summary string) { /* update the live summary */ })
	fmt.Println(res.OK)
	fmt.Println(res.Summary)
	fmt.Println(res.Text)
	// Output:
	// declared: Exec
	// meta messages appended: 2
	// true
	// 2 tool calls
	// mcp__b__list
	// mcp__b__text
	// items: 2
	//
	// Return value:
	// first
	// second
}
