package gateway

import (
	"context"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/mcpexec/mcpexec/exectool"
)

// With Exec switched off the gateway serves the servers' tools flat, and is
// a faithful pass-through: what a client connected to the servers directly
// would get, it gets here.

// passedOn is a flat call's result as its server sent it: the content items
// in their order with their text unchanged, structuredContent beside them
// when the server gave it, isError as the server set it.
func passedOn(reply *mcp.CallToolResult) *mcp.CallToolResult {
	out := *reply
	if out.Content == nil {
		out.Content = []mcp.Content{}
	}
	return &out
}

// withInstructions gives a client the servers' usage instructions in the
// gateway's own (initialize, and discover from 2026-07-28) when the tools
// are served flat; with Exec they are in Exec's description, beside the
// catalog.
func (g *Gateway) withInstructions(next mcp.MethodHandler) mcp.MethodHandler {
	return func(ctx context.Context, method string, req mcp.Request) (mcp.Result, error) {
		res, err := next(ctx, method, req)
		if err != nil || g.offersExec() {
			return res, err
		}
		switch r := res.(type) {
		case *mcp.InitializeResult:
			r.Instructions = joinInstructions(r.Instructions, exectool.InstructionsText(g.sys.Instructions()))
		case *mcp.DiscoverResult:
			r.Instructions = joinInstructions(r.Instructions, exectool.InstructionsText(g.sys.Instructions()))
		}
		return res, err
	}
}

// offersExec reports whether the tools offered now are Exec.
func (g *Gateway) offersExec() bool {
	g.mu.Lock()
	defer g.mu.Unlock()
	_, ok := g.offered[exectool.Name]
	return ok
}

func joinInstructions(own, servers string) string {
	switch {
	case own == "":
		return servers
	case servers == "":
		return own
	}
	return own + "\n\n" + servers
}
