package testservers

import (
	"context"
	"encoding/json"

	"github.com/modelcontextprotocol/go-sdk/mcp"
)

const (
	kindResults = "results"
	// envVersion is the version the results server reports at initialize.
	envVersion = "MCPEXEC_TESTSERVER_VERSION"
)

// Results returns a server whose tools, like most real servers' tools,
// declare no outputSchema, and return what the caller asks for, so a test
// decides the shape of each result:
//
//	json_text: the arguments' "reply" value as JSON text
//	structured: the arguments' "reply" object as structuredContent (and a
//	  text copy)
//	plain_text: the arguments' "reply" string as text
//
// It reports itself as "results" at version.
func Results(version string) *mcp.Server {
	s := mcp.NewServer(&mcp.Implementation{Name: "results", Version: version}, nil)
	reply := func(req *mcp.CallToolRequest) json.RawMessage {
		var a struct {
			Reply json.RawMessage `json:"reply"`
		}
		_ = json.Unmarshal(req.Params.Arguments, &a)
		if len(a.Reply) == 0 {
			return json.RawMessage("null")
		}
		return a.Reply
	}
	add := func(name, description string, h mcp.ToolHandler) {
		s.AddTool(&mcp.Tool{Name: name, Description: description, InputSchema: objectSchema}, h)
	}
	add("json_text", "Returns the reply argument as JSON text.", func(_ context.Context, req *mcp.CallToolRequest) (*mcp.CallToolResult, error) {
		return &mcp.CallToolResult{Content: []mcp.Content{&mcp.TextContent{Text: string(reply(req))}}}, nil
	})
	add("structured", "Returns the reply argument as structured content.", func(_ context.Context, req *mcp.CallToolRequest) (*mcp.CallToolResult, error) {
		r := reply(req)
		return &mcp.CallToolResult{Content: []mcp.Content{&mcp.TextContent{Text: string(r)}}, StructuredContent: r}, nil
	})
	add("plain_text", "Returns the reply argument as text.", func(_ context.Context, req *mcp.CallToolRequest) (*mcp.CallToolResult, error) {
		var text string
		_ = json.Unmarshal(reply(req), &text)
		return &mcp.CallToolResult{Content: []mcp.Content{&mcp.TextContent{Text: text}}}, nil
	})
	return s
}

// ResultsCommand is like StdioCommand for the Results server reporting
// version.
func ResultsCommand(version string) (command string, args []string, env map[string]string) {
	command, args, env = kindCommand(kindResults)
	env[envVersion] = version
	return command, args, env
}
