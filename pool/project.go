package pool

import (
	"encoding/json"
	"fmt"
	"strings"

	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// Result is what a tool call gives its caller: the value a script receives
// and the images that travel beside it (never inside it).
type Result struct {
	// Value is the structuredContent (decoded JSON) when the server sent
	// one, else the reply's text (see Project) as a string, else nil.
	Value any
	// JSON is Value as JSON text, ready for a script: the structuredContent
	// bytes exactly as the server sent them when the connection records
	// replies (stdio, in-memory, streamable HTTP), else Value encoded (keys
	// sorted); a JSON string for text; null for neither.
	JSON json.RawMessage
	// Images are the image parts, in reply order.
	Images []Image
	// Reply is the result as the server sent it, for a host that passes a
	// flat call's result on unchanged; nil when there was none.
	Reply *mcp.CallToolResult
	// InputRequired, under WithInputReturned, is the server's request for
	// input in place of a result (the rest is then empty).
	InputRequired *InputRequired
}

var jsonNull = json.RawMessage("null")

// Image is one image part of a tool reply.
type Image struct {
	MIMEType string
	// Data is the decoded image bytes.
	Data []byte
}

// Project turns a tools/call reply into a Result. Nothing the server sent
// is lost, and only what it actually returned decides the value:
//
//   - structuredContent, when present, is the value (a declared
//     outputSchema without it falls back to the text);
//   - otherwise the value is the reply's text: every part in reply order,
//     one per line, where a text part and an embedded text resource give
//     their text, and a resource link, a binary resource and an audio part
//     give a line naming what they are (URI, name, MIME type, size);
//   - image parts travel beside the value as Images, so a reply of images
//     only has a nil value.
//
// A reply flagged isError becomes a *ToolError carrying the same text.
func Project(tool string, res *mcp.CallToolResult) (Result, error) {
	return ProjectRaw(tool, res, nil)
}

// ProjectRaw is Project given also the reply's raw result object, from which
// Result.JSON takes the structuredContent bytes unchanged.
func ProjectRaw(tool string, res *mcp.CallToolResult, raw json.RawMessage) (Result, error) {
	if res == nil {
		return Result{JSON: jsonNull}, nil
	}
	var lines []string
	var images []Image
	for _, c := range res.Content {
		if img, ok := c.(*mcp.ImageContent); ok {
			images = append(images, Image{MIMEType: img.MIMEType, Data: img.Data})
			continue
		}
		if line, ok := partText(c); ok {
			lines = append(lines, line)
		}
	}
	if res.IsError {
		return Result{}, &ToolError{Tool: tool, Text: strings.Join(lines, "\n"), Reply: res}
	}
	out := Result{Images: images, JSON: jsonNull, Reply: res}
	switch {
	case res.StructuredContent != nil:
		out.Value = res.StructuredContent
		out.JSON = structuredJSON(res.StructuredContent, raw)
	case len(lines) > 0:
		text := strings.Join(lines, "\n")
		out.Value = text
		out.JSON, _ = json.Marshal(text)
	}
	return out, nil
}

// partText is what one non-image part contributes to the text of a reply.
// Parts the SDK knows but a tool reply should not carry (sampling's tool
// use and results) contribute nothing.
func partText(c mcp.Content) (string, bool) {
	switch c := c.(type) {
	case *mcp.TextContent:
		return c.Text, true
	case *mcp.EmbeddedResource:
		r := c.Resource
		if r == nil {
			return "", false
		}
		if r.Blob == nil && r.Text != "" {
			return r.Text, true
		}
		return describePart("resource", r.URI, "", r.MIMEType, int64(len(r.Blob)), r.Blob != nil), true
	case *mcp.ResourceLink:
		size := int64(-1)
		if c.Size != nil {
			size = *c.Size
		}
		return describePart("resource link", c.URI, c.Name, c.MIMEType, size, false), true
	case *mcp.AudioContent:
		return describePart("audio", "", "", c.MIMEType, int64(len(c.Data)), true), true
	}
	return "", false
}

// describePart is the line standing for a part whose content is not text:
// "[resource link: file:///a.txt, name "a.txt", text/plain, 1.2 KB]".
// size < 0 is unknown; binary says the content itself is not shown.
func describePart(kind, uri, name, mimeType string, size int64, binary bool) string {
	fields := []string{}
	if uri != "" {
		fields = append(fields, uri)
	}
	if name != "" {
		fields = append(fields, fmt.Sprintf("name %q", name))
	}
	if mimeType != "" {
		fields = append(fields, mimeType)
	}
	switch {
	case size == 0 && !binary:
		fields = append(fields, "empty")
	case size >= 0:
		fields = append(fields, byteSize(size))
	}
	if binary {
		fields = append(fields, "binary content not shown")
	}
	return "[" + kind + ": " + strings.Join(fields, ", ") + "]"
}

// byteSize writes a size for people: "512 bytes", "1.5 KB", "8.0 MB".
func byteSize(n int64) string {
	switch {
	case n < 1<<10:
		if n == 1 {
			return "1 byte"
		}
		return fmt.Sprintf("%d bytes", n)
	case n < 1<<20:
		return fmt.Sprintf("%.1f KB", float64(n)/(1<<10))
	case n < 1<<30:
		return fmt.Sprintf("%.1f MB", float64(n)/(1<<20))
	}
	return fmt.Sprintf("%.1f GB", float64(n)/(1<<30))
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
