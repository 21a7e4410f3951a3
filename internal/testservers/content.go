package testservers

import (
	"context"
	"encoding/json"
	"strings"

	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// FileStatus and FileText make the reply of the content server's
// get_file_contents tool, shaped like the GitHub server's: a short status
// text part, then an embedded resource holding the file.
const (
	FileStatus = "successfully downloaded text file (SHA: 3b18e512dba79e4c8300dd08aeb37f8e728b8dad)"
	FileText   = "# mcpexec\n\nOne tool for the whole pool.\n"
	FileURI    = "repo://mcpexec/mcpexec/contents/README.md"
)

// ElicitSchema is what the content server's ask tool requests: a name
// without a default, and fields whose defaults the client fills in when the
// person leaves them out.
var ElicitSchema = json.RawMessage(`{"type":"object","properties":{` +
	`"name":{"type":"string","title":"Name","description":"Who is asking"},` +
	`"color":{"type":"string","title":"Colour","enum":["red","green","blue"],"default":"green"},` +
	`"count":{"type":"integer","title":"How many","default":3},` +
	`"notify":{"type":"boolean","title":"Notify me","default":true}},"required":["name"]}`)

// Content returns a server whose tools show the content types a tool reply
// can carry and the requests a server sends back during a call:
//
//	get_file_contents: FileStatus, then FileText as an embedded text resource
//	link: one resource link with a name, MIME type and size, nothing else
//	blob: an embedded binary resource
//	audio: one audio part
//	mixed: text, image, audio and a resource link, in that order
//	big {"bytes": n}: a text part of n bytes
//	ask: asks the person (elicitation/create with ElicitSchema) and returns
//	  the answer as structured content {"action": ..., "content": {...}}
//	hang: returns only when the call is cancelled
func Content() *mcp.Server {
	s := mcp.NewServer(&mcp.Implementation{Name: "content", Version: "1"}, nil)
	add := func(name, description string, h mcp.ToolHandler) {
		s.AddTool(&mcp.Tool{Name: name, Description: description, InputSchema: objectSchema}, h)
	}
	reply := func(parts ...mcp.Content) *mcp.CallToolResult { return &mcp.CallToolResult{Content: parts} }
	add("get_file_contents", "A status line and the file as an embedded resource.", func(context.Context, *mcp.CallToolRequest) (*mcp.CallToolResult, error) {
		return reply(&mcp.TextContent{Text: FileStatus},
			&mcp.EmbeddedResource{Resource: &mcp.ResourceContents{URI: FileURI, MIMEType: "text/markdown", Text: FileText}}), nil
	})
	size := int64(2048)
	link := &mcp.ResourceLink{URI: "file:///srv/report.pdf", Name: "report.pdf", MIMEType: "application/pdf", Size: &size}
	add("link", "A resource link only.", func(context.Context, *mcp.CallToolRequest) (*mcp.CallToolResult, error) {
		return reply(link), nil
	})
	add("blob", "An embedded binary resource.", func(context.Context, *mcp.CallToolRequest) (*mcp.CallToolResult, error) {
		return reply(&mcp.EmbeddedResource{Resource: &mcp.ResourceContents{URI: "file:///srv/logo.png", MIMEType: "image/png", Blob: PNG}}), nil
	})
	add("audio", "One audio part.", func(context.Context, *mcp.CallToolRequest) (*mcp.CallToolResult, error) {
		return reply(&mcp.AudioContent{MIMEType: "audio/wav", Data: make([]byte, 44)}), nil
	})
	add("mixed", "Text, image, audio and a link.", func(context.Context, *mcp.CallToolRequest) (*mcp.CallToolResult, error) {
		return reply(&mcp.TextContent{Text: "caption"}, &mcp.ImageContent{MIMEType: "image/png", Data: PNG},
			&mcp.AudioContent{MIMEType: "audio/wav", Data: make([]byte, 44)}, link), nil
	})
	add("big", "A text part of the requested size.", func(_ context.Context, req *mcp.CallToolRequest) (*mcp.CallToolResult, error) {
		var a struct{ Bytes int }
		_ = json.Unmarshal(req.Params.Arguments, &a)
		return reply(&mcp.TextContent{Text: strings.Repeat("x", a.Bytes)}), nil
	})
	add("ask", "Asks the person for details.", func(_ context.Context, req *mcp.CallToolRequest) (*mcp.CallToolResult, error) {
		// Asked the way the current protocol asks during a call: the
		// reply requests input and the client calls again with it. The
		// SDK turns this into elicitation/create for older clients.
		answer, ok := req.Params.InputResponses["who"].(*mcp.ElicitResult)
		if !ok {
			return &mcp.CallToolResult{InputRequests: mcp.InputRequestMap{
				"who": &mcp.ElicitParams{Message: "Who is asking?", RequestedSchema: ElicitSchema},
			}}, nil
		}
		out := map[string]any{"action": answer.Action}
		if answer.Content != nil {
			out["content"] = answer.Content
		}
		data, err := json.Marshal(out)
		if err != nil {
			return nil, err
		}
		return &mcp.CallToolResult{Content: []mcp.Content{&mcp.TextContent{Text: string(data)}}, StructuredContent: json.RawMessage(data)}, nil
	})
	add("hang", "Returns only when cancelled.", func(ctx context.Context, _ *mcp.CallToolRequest) (*mcp.CallToolResult, error) {
		<-ctx.Done()
		return nil, ctx.Err()
	})
	return s
}
