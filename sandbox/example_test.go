package sandbox_test

import (
	"context"
	"encoding/json"
	"fmt"

	"github.com/mcpexec/mcpexec/sandbox"
)

// weatherHost answers nested calls in process; a real host routes them
// through the permission gate to MCP servers.
type weatherHost struct{}

func (weatherHost) CallTool(_ context.Context, name string, args json.RawMessage) (sandbox.CallResult, error) {
	switch name {
	case "mcp__weather__forecast":
		return sandbox.CallResult{Value: json.RawMessage(`{"city":"Oslo","highs":[3,5,4]}`)}, nil
	case "mcp__notes__append":
		return sandbox.CallResult{Value: json.RawMessage(`"saved"`)}, nil
	}
	return sandbox.CallResult{}, fmt.Errorf("no tool %s", name)
}

func (weatherHost) Search(context.Context, json.RawMessage) (json.RawMessage, error) {
	return json.RawMessage(`[]`), nil
}

func ExampleRun() {
	res := sandbox.Run(context.Background(), sandbox.Request{
		Tools: sandbox.NewToolSet([]string{"mcp__weather__forecast", "mcp__notes__append"}),
		Host:  weatherHost{},
		Code: `
			const f = await tools.mcp__weather__forecast({ city: "Oslo" });
			const warmest = Math.max(...f.highs);
			console.log("warmest day:", warmest);
			return await tools.mcp__notes__append({ text: f.city + " peaks at " + warmest });`,
	})
	fmt.Println(res.OK)
	fmt.Println(res.Text)
	fmt.Println(res.Calls)
	// Output:
	// true
	// warmest day: 5
	//
	// Return value:
	// saved
	// [mcp__weather__forecast mcp__notes__append]
}
