package testservers

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"strconv"
	"syscall"

	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// PNG is a 1x1 transparent PNG the image tool returns.
var PNG = []byte{
	0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0x00, 0x00, 0x00, 0x0d, 0x49, 0x48, 0x44, 0x52,
	0x00, 0x00, 0x00, 0x01, 0x00, 0x00, 0x00, 0x01, 0x08, 0x06, 0x00, 0x00, 0x00, 0x1f, 0x15, 0xc4,
	0x89, 0x00, 0x00, 0x00, 0x0d, 0x49, 0x44, 0x41, 0x54, 0x78, 0x9c, 0x63, 0x00, 0x01, 0x00, 0x00,
	0x05, 0x00, 0x01, 0x0d, 0x0a, 0x2d, 0xb4, 0x00, 0x00, 0x00, 0x00, 0x49, 0x45, 0x4e, 0x44, 0xae,
	0x42, 0x60, 0x82,
}

// BehaviourInstructions is the instructions text of the behaviour server.
const BehaviourInstructions = "Behaviour test server: every tool shows one reply shape."

// FailText is the isError text of the fail tool.
const FailText = "quota exceeded: try again tomorrow"

// StructuredSchema is the outputSchema of the structured tool; its keys are
// deliberately not in sorted order.
var StructuredSchema = json.RawMessage(`{"type":"object","properties":{"items":{"type":"array","items":{"type":"string"}},"count":{"type":"number"}}}`)

// StructuredJSON is the structuredContent of the structured tool as sent
// (keys deliberately not sorted); StructuredValue is the same decoded.
var StructuredJSON = json.RawMessage(`{"items":["a","b"],"count":2}`)

// StructuredValue is the structuredContent of the structured tool, decoded.
var StructuredValue = map[string]any{"count": 2.0, "items": []any{"a", "b"}}

// BehaviourOptions selects the tools only a subprocess may offer.
type BehaviourOptions struct {
	// Process adds crash (exits the process mid-call), pid and spawn (starts
	// a grandchild in the server's process group and returns its pid).
	Process bool
}

var objectSchema = json.RawMessage(`{"type":"object"}`)

// Behaviour returns a server whose tools each produce one reply shape:
//
//	echo: the raw arguments as received, as text
//	structured: structuredContent StructuredValue (declares an outputSchema) and a text copy
//	declared_text: declares an outputSchema but returns text only
//	text: two text parts, "first" and "second"
//	image: one PNG image and nothing else
//	nothing: empty content
//	fail: isError with FailText
//	protocol_error: answers with a JSON-RPC error
//	hang: returns only when the call is cancelled
//	add_tool / remove_tool: change the tool list ({"name": "..."}), which
//	  sends notifications/tools/list_changed
//
// With Process set, also crash, pid, spawn, getenv ({"name": "..."}) and
// shout (prints a line that is not JSON-RPC on stdout, then answers).
func Behaviour(opts BehaviourOptions) *mcp.Server {
	s := mcp.NewServer(&mcp.Implementation{Name: "behaviour", Version: "1"},
		&mcp.ServerOptions{Instructions: BehaviourInstructions})
	add := func(name string, h mcp.ToolHandler) {
		s.AddTool(&mcp.Tool{Name: name, Description: "Test tool " + name + ".", InputSchema: objectSchema}, h)
	}
	text := func(parts ...string) *mcp.CallToolResult {
		res := &mcp.CallToolResult{Content: []mcp.Content{}}
		for _, p := range parts {
			res.Content = append(res.Content, &mcp.TextContent{Text: p})
		}
		return res
	}
	add("echo", func(_ context.Context, req *mcp.CallToolRequest) (*mcp.CallToolResult, error) {
		return text(string(req.Params.Arguments)), nil
	})
	s.AddTool(&mcp.Tool{
		Name: "structured", Description: "Returns structured content.", InputSchema: objectSchema,
		OutputSchema: StructuredSchema,
	}, func(context.Context, *mcp.CallToolRequest) (*mcp.CallToolResult, error) {
		res := text(string(StructuredJSON))
		res.StructuredContent = StructuredJSON
		return res, nil
	})
	s.AddTool(&mcp.Tool{
		Name: "declared_text", Description: "Declares an output schema, returns text.", InputSchema: objectSchema,
		OutputSchema: json.RawMessage(`{"type":"object","properties":{"n":{"type":"number"}}}`),
	}, func(context.Context, *mcp.CallToolRequest) (*mcp.CallToolResult, error) {
		return text("plain text instead"), nil
	})
	add("text", func(context.Context, *mcp.CallToolRequest) (*mcp.CallToolResult, error) {
		return text("first", "second"), nil
	})
	add("image", func(context.Context, *mcp.CallToolRequest) (*mcp.CallToolResult, error) {
		return &mcp.CallToolResult{Content: []mcp.Content{&mcp.ImageContent{MIMEType: "image/png", Data: PNG}}}, nil
	})
	add("nothing", func(context.Context, *mcp.CallToolRequest) (*mcp.CallToolResult, error) {
		return text(), nil
	})
	add("fail", func(context.Context, *mcp.CallToolRequest) (*mcp.CallToolResult, error) {
		res := text(FailText)
		res.IsError = true
		return res, nil
	})
	add("protocol_error", func(context.Context, *mcp.CallToolRequest) (*mcp.CallToolResult, error) {
		return nil, &jsonrpcError{Code: -32602, Message: "bad request from the test"}
	})
	add("hang", func(ctx context.Context, _ *mcp.CallToolRequest) (*mcp.CallToolResult, error) {
		<-ctx.Done()
		return nil, ctx.Err()
	})
	nameArg := func(req *mcp.CallToolRequest) string {
		var a struct{ Name string }
		_ = json.Unmarshal(req.Params.Arguments, &a)
		return a.Name
	}
	add("add_tool", func(_ context.Context, req *mcp.CallToolRequest) (*mcp.CallToolResult, error) {
		name := nameArg(req)
		s.AddTool(&mcp.Tool{Name: name, Description: "Added at run time.", InputSchema: objectSchema},
			func(context.Context, *mcp.CallToolRequest) (*mcp.CallToolResult, error) {
				return text("added " + name), nil
			})
		return text("ok"), nil
	})
	add("remove_tool", func(_ context.Context, req *mcp.CallToolRequest) (*mcp.CallToolResult, error) {
		s.RemoveTools(nameArg(req))
		return text("ok"), nil
	})
	if opts.Process {
		add("crash", func(context.Context, *mcp.CallToolRequest) (*mcp.CallToolResult, error) {
			os.Exit(3)
			return nil, nil
		})
		add("pid", func(context.Context, *mcp.CallToolRequest) (*mcp.CallToolResult, error) {
			return text(strconv.Itoa(os.Getpid())), nil
		})
		add("shout", func(context.Context, *mcp.CallToolRequest) (*mcp.CallToolResult, error) {
			fmt.Println("debug: shout was called") // not JSON-RPC, on stdout
			return text("done"), nil
		})
		add("getenv", func(_ context.Context, req *mcp.CallToolRequest) (*mcp.CallToolResult, error) {
			return text(os.Getenv(nameArg(req))), nil
		})
		add("spawn", func(context.Context, *mcp.CallToolRequest) (*mcp.CallToolResult, error) {
			pid, err := spawnSleeper()
			if err != nil {
				return nil, err
			}
			return text(strconv.Itoa(pid)), nil
		})
	}
	return s
}

// spawnSleeper starts a grandchild that stays in this process group and
// would outlive the server if only the server were killed.
func spawnSleeper() (int, error) {
	exe, err := os.Executable()
	if err != nil {
		return 0, err
	}
	cmd := exec.Command(exe)
	cmd.Env = append(os.Environ(), envKind+"="+kindSleeper)
	cmd.SysProcAttr = &syscall.SysProcAttr{} // same group as the server
	if err := cmd.Start(); err != nil {
		return 0, fmt.Errorf("spawn: %w", err)
	}
	go func() { _ = cmd.Wait() }()
	return cmd.Process.Pid, nil
}
