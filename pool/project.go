package pool

import (
	"strings"

	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// Result is what a tool call gives its caller: the value a script receives
// and the images that travel beside it (never inside it).
type Result struct {
	// Value is the structuredContent (decoded JSON) when the server sent
	// one, else the text parts joined by newlines (a string), else nil.
	Value any
	// Images are the image parts, in reply order.
	Images []Image
}

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
	if res == nil {
		return Result{}, nil
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
	out := Result{Images: images}
	switch {
	case res.StructuredContent != nil:
		out.Value = res.StructuredContent
	case len(texts) > 0:
		out.Value = strings.Join(texts, "\n")
	}
	return out, nil
}
