package pool

import (
	"encoding/json"
	"strings"

	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// Result is what a tool call gives its caller: the value a script receives
// and the images that travel beside it (never inside it).
type Result struct {
	// Value is the structuredContent (decoded JSON) when the server sent
	// one, else the text parts joined by newlines (a string), else nil.
	Value any
	// JSON is Value as JSON text, ready for a script: the structuredContent
	// bytes exactly as the server sent them when the connection records
	// replies (stdio, in-memory, streamable HTTP), else Value encoded (keys
	// sorted); a JSON string for text; null for neither.
	JSON json.RawMessage
	// Images are the image parts, in reply order.
	Images []Image
}

var jsonNull = json.RawMessage("null")

// Image is one image part of a tool reply.
type Image struct {
	MIMEType string
	// Data is the decoded image bytes.
	Data []byte
}

// Project turns a tools/call reply into a Result. Only what the server
// actually returned decides the value: a declared outputSchema without
// structuredContent falls back to the text, and a reply of images only has
// a nil value. A reply flagged isError becomes a *ToolError carrying the
// tool's own text. Parts other than text and images (audio, resources) are
// not part of the value.
func Project(tool string, res *mcp.CallToolResult) (Result, error) {
	return ProjectRaw(tool, res, nil)
}

// ProjectRaw is Project given also the reply's raw result object, from which
// Result.JSON takes the structuredContent bytes unchanged.
func ProjectRaw(tool string, res *mcp.CallToolResult, raw json.RawMessage) (Result, error) {
	if res == nil {
		return Result{JSON: jsonNull}, nil
	}
	var texts []string
	var images []Image
	for _, c := range res.Content {
		switch c := c.(type) {
		case *mcp.TextContent:
			texts = append(texts, c.Text)
		case *mcp.ImageContent:
			images = append(images, Image{MIMEType: c.MIMEType, Data: c.Data})
		}
	}
	if res.IsError {
		return Result{}, &ToolError{Tool: tool, Text: strings.Join(texts, "\n")}
	}
	out := Result{Images: images, JSON: jsonNull}
	switch {
	case res.StructuredContent != nil:
		out.Value = res.StructuredContent
		out.JSON = structuredJSON(res.StructuredContent, raw)
	case len(texts) > 0:
		text := strings.Join(texts, "\n")
		out.Value = text
		out.JSON, _ = json.Marshal(text)
	}
	return out, nil
}

// structuredJSON returns the structuredContent as the server wrote it, or
// re-encoded when the raw reply is not at hand.
func structuredJSON(decoded any, raw json.RawMessage) json.RawMessage {
	if raw != nil {
		var reply struct {
			StructuredContent json.RawMessage `json:"structuredContent"`
		}
		if json.Unmarshal(raw, &reply) == nil && len(reply.StructuredContent) > 0 {
			return reply.StructuredContent
		}
	}
	data, err := json.Marshal(decoded)
	if err != nil {
		return jsonNull
	}
	return data
}
