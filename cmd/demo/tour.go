package main

import (
	"context"
	"encoding/json"
	"fmt"

	"github.com/mcpexec/mcpexec/sandbox"
)

const orchestration = `const a = await tools.mcp__srv__fetch({ id: 1 });
console.log("fetched", a.title);
return await tools.mcp__srv__store({ value: a });`

// builtinHost serves the demo's in-process tools.
type builtinHost struct{}

func (builtinHost) CallTool(_ context.Context, name string, args json.RawMessage) (sandbox.CallResult, error) {
	switch name {
	case "mcp__srv__fetch":
		var in struct {
			ID int `json:"id"`
		}
		if err := json.Unmarshal(args, &in); err != nil {
			return sandbox.CallResult{}, fmt.Errorf("fetch: %v", err)
		}
		out, _ := json.Marshal(map[string]any{"id": in.ID, "title": fmt.Sprintf("record %d", in.ID)})
		return sandbox.CallResult{Value: out}, nil
	case "mcp__srv__store":
		return sandbox.CallResult{Value: json.RawMessage(`{"stored":true}`)}, nil
	}
	return sandbox.CallResult{}, fmt.Errorf("unknown tool %s", name)
}

func (builtinHost) Search(context.Context, json.RawMessage) (json.RawMessage, error) {
	return json.RawMessage(`[]`), nil
}

// runTour runs the orchestration script in the sandbox against two
// in-process tools and prints what the model would receive.
func runTour(ctx context.Context, c console) int {
	fmt.Fprintln(c.stdout, "Script:")
	fmt.Fprintln(c.stdout, orchestration)
	res := sandbox.Run(ctx, sandbox.Request{
		Code:  orchestration,
		Tools: sandbox.NewToolSet([]string{"mcp__srv__fetch", "mcp__srv__store"}),
		Host:  builtinHost{},
	})
	fmt.Fprintln(c.stdout, "\nCalls:", res.Calls)
	fmt.Fprintln(c.stdout, "Result for the model:")
	fmt.Fprintln(c.stdout, res.Text)
	if !res.OK {
		return exitFailed
	}
	return exitOK
}
