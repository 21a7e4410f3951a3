package gateway_test

import (
	"context"
	"encoding/json"
	"fmt"
	"strings"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/mcpexec/mcpexec"
	"github.com/mcpexec/mcpexec/gateway"
	"github.com/mcpexec/mcpexec/pool"
)

// Example serves a System to an MCP client. A real program serves stdio
// (gw.Server().Run(ctx, &mcp.StdioTransport{})) or HTTP (gw.Serve); here
// the client is connected in memory.
func Example() {
	ctx := context.Background()
	// A pool of one small server; a real program passes a ServersFile.
	notes := mcp.NewServer(&mcp.Implementation{Name: "notes", Version: "1"}, nil)
	notes.AddTool(&mcp.Tool{Name: "count", Description: "Count the notes.", InputSchema: json.RawMessage(`{"type":"object"}`)},
		func(context.Context, *mcp.CallToolRequest) (*mcp.CallToolResult, error) {
			return &mcp.CallToolResult{Content: []mcp.Content{&mcp.TextContent{Text: "3"}}}, nil
		})
	dial := func(context.Context) (mcp.Transport, error) {
		client, server := mcp.NewInMemoryTransports()
		_, err := notes.Connect(ctx, server, nil)
		return client, err
	}
	sys, err := mcpexec.Start(ctx, mcpexec.Options{Servers: []pool.ServerConfig{{Name: "notes", Dial: dial}}})
	if err != nil {
		fmt.Println(err)
		return
	}
	defer sys.Close()
	_ = sys.WaitReady(ctx)

	gw := gateway.New(sys, gateway.Options{})
	defer gw.Close()
	clientEnd, serverEnd := mcp.NewInMemoryTransports()
	if _, err := gw.Server().Connect(ctx, serverEnd, nil); err != nil {
		fmt.Println(err)
		return
	}
	cs, err := mcp.NewClient(&mcp.Implementation{Name: "client", Version: "1"}, nil).Connect(ctx, clientEnd, nil)
	if err != nil {
		fmt.Println(err)
		return
	}
	defer cs.Close()

	list, _ := cs.ListTools(ctx, nil)
	for _, tool := range list.Tools {
		fmt.Println(tool.Name, "lists mcp__notes__count:", strings.Contains(tool.Description, "tools.mcp__notes__count("))
	}
	// Without a settings file every call is asked about, and this client
	// cannot be asked (no elicitation): the call is refused with guidance.
	res, _ := cs.CallTool(ctx, &mcp.CallToolParams{Name: "Exec", Arguments: map[string]string{"code": `return await tools.mcp__notes__count({})`}})
	fmt.Println("isError:", res.IsError)
	fmt.Println(strings.Contains(res.Content[0].(*mcp.TextContent).Text, "does not support elicitation"))
	// Output:
	// Exec lists mcp__notes__count: true
	// isError: true
	// true
}
