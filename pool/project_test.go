package pool_test

import (
	"encoding/json"
	"errors"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/mcpexec/mcpexec/pool"
	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// Proves ORCH-2, EDGE-20.
func TestORCH2_EDGE20_ProjectTable(t *testing.T) {
	img := &mcp.ImageContent{MIMEType: "image/png", Data: []byte{1, 2}}
	cases := []struct {
		name string
		res  *mcp.CallToolResult
		want pool.Result
	}{
		{"nil reply", nil, pool.Result{JSON: raw(`null`)}},
		{"no content", &mcp.CallToolResult{}, pool.Result{JSON: raw(`null`)}},
		{"one text", &mcp.CallToolResult{Content: []mcp.Content{&mcp.TextContent{Text: "hi"}}}, pool.Result{Value: "hi", JSON: raw(`"hi"`)}},
		{"texts joined by newline",
			&mcp.CallToolResult{Content: []mcp.Content{&mcp.TextContent{Text: "a"}, &mcp.TextContent{Text: "b"}}},
			pool.Result{Value: "a\nb", JSON: raw(`"a\nb"`)}},
		{"structured wins over text, no envelope",
			&mcp.CallToolResult{StructuredContent: map[string]any{"k": 1.0}, Content: []mcp.Content{&mcp.TextContent{Text: `{"k":1}`}}},
			pool.Result{Value: map[string]any{"k": 1.0}, JSON: raw(`{"k":1}`)}},
		{"structured array", &mcp.CallToolResult{StructuredContent: []any{"x"}}, pool.Result{Value: []any{"x"}, JSON: raw(`["x"]`)}},
		{"EDGE-20 images only: null value, images beside",
			&mcp.CallToolResult{Content: []mcp.Content{img, img}},
			pool.Result{JSON: raw(`null`), Images: []pool.Image{{MIMEType: "image/png", Data: []byte{1, 2}}, {MIMEType: "image/png", Data: []byte{1, 2}}}}},
		{"text and image",
			&mcp.CallToolResult{Content: []mcp.Content{&mcp.TextContent{Text: "cap"}, img}},
			pool.Result{Value: "cap", JSON: raw(`"cap"`), Images: []pool.Image{{MIMEType: "image/png", Data: []byte{1, 2}}}}},
		{"audio and a link are named in order, nothing dropped",
			&mcp.CallToolResult{Content: []mcp.Content{&mcp.AudioContent{MIMEType: "audio/wav", Data: make([]byte, 3000)}, &mcp.ResourceLink{URI: "file:///x", Name: "x"}}},
			pool.Result{
				Value: "[audio: audio/wav, 2.9 KB, binary content not shown]\n[resource link: file:///x, name \"x\"]",
				JSON:  raw(`"[audio: audio/wav, 2.9 KB, binary content not shown]\n[resource link: file:///x, name \"x\"]"`)}},
		{"a status line and an embedded file: both, in order",
			&mcp.CallToolResult{Content: []mcp.Content{
				&mcp.TextContent{Text: "successfully downloaded text file"},
				&mcp.EmbeddedResource{Resource: &mcp.ResourceContents{URI: "repo://o/r/contents/README.md", MIMEType: "text/markdown", Text: "# Title\nbody"}},
			}},
			pool.Result{Value: "successfully downloaded text file\n# Title\nbody", JSON: raw(`"successfully downloaded text file\n# Title\nbody"`)}},
		{"a link alone with its size is a line, not null",
			&mcp.CallToolResult{Content: []mcp.Content{&mcp.ResourceLink{URI: "test://static/resource/1", Name: "Resource 1", MIMEType: "text/plain", Size: new(int64(1536))}}},
			pool.Result{Value: `[resource link: test://static/resource/1, name "Resource 1", text/plain, 1.5 KB]`,
				JSON: raw(`"[resource link: test://static/resource/1, name \"Resource 1\", text/plain, 1.5 KB]"`)}},
		{"a binary resource is named with its size",
			&mcp.CallToolResult{Content: []mcp.Content{&mcp.EmbeddedResource{Resource: &mcp.ResourceContents{URI: "file:///a.gz", MIMEType: "application/gzip", Blob: []byte{1, 2, 3}}}}},
			pool.Result{Value: "[resource: file:///a.gz, application/gzip, 3 bytes, binary content not shown]",
				JSON: raw(`"[resource: file:///a.gz, application/gzip, 3 bytes, binary content not shown]"`)}},
		{"structured content still wins over every part",
			&mcp.CallToolResult{StructuredContent: map[string]any{"k": 1.0}, Content: []mcp.Content{&mcp.ResourceLink{URI: "file:///x"}}},
			pool.Result{Value: map[string]any{"k": 1.0}, JSON: raw(`{"k":1}`)}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			got, err := pool.Project("mcp__s__t", c.res)
			if err != nil {
				t.Fatal(err)
			}
			if got.Reply != c.res {
				t.Errorf("Reply is not the result as the server sent it")
			}
			got.Reply = nil
			if diff := cmp.Diff(c.want, got); diff != "" {
				t.Errorf("(-want +got):\n%s", diff)
			}
		})
	}
}

func TestProjectRawKeepsStructuredContentAsSent(t *testing.T) {
	res := &mcp.CallToolResult{StructuredContent: map[string]any{"a": 1.0, "z": 2.0}}
	got, err := pool.ProjectRaw("mcp__s__t", res, raw(`{"content":[],"structuredContent":{"z":2,"a":1.50e0}}`))
	if err != nil || string(got.JSON) != `{"z":2,"a":1.50e0}` {
		t.Fatalf("JSON = %s (%v)", got.JSON, err)
	}
	// Without the raw reply (or with one that has none), the value is encoded.
	for _, r := range []json.RawMessage{nil, raw(`{"content":[]}`), raw(`not json`)} {
		got, _ := pool.ProjectRaw("mcp__s__t", res, r)
		if string(got.JSON) != `{"a":1,"z":2}` {
			t.Errorf("raw %q: JSON = %s", r, got.JSON)
		}
	}
}

func TestProjectIsErrorPassesTheToolTextThrough(t *testing.T) {
	cases := []struct {
		content []mcp.Content
		want    string
	}{
		{[]mcp.Content{&mcp.TextContent{Text: "no such repo"}}, "no such repo"},
		{[]mcp.Content{&mcp.TextContent{Text: "a"}, &mcp.TextContent{Text: "b"}}, "a\nb"},
		{[]mcp.Content{&mcp.TextContent{Text: "failed:"}, &mcp.EmbeddedResource{Resource: &mcp.ResourceContents{URI: "log://1", Text: "trace"}}}, "failed:\ntrace"},
		{nil, `MCP tool "mcp__s__t" reported an error without a message.`},
	}
	for _, c := range cases {
		_, err := pool.Project("mcp__s__t", &mcp.CallToolResult{IsError: true, Content: c.content, StructuredContent: map[string]any{"x": 1}})
		var te *pool.ToolError
		if !errors.As(err, &te) || err.Error() != c.want {
			t.Errorf("err = %v, want %q", err, c.want)
		}
	}
}

func BenchmarkProject(b *testing.B) {
	res := &mcp.CallToolResult{
		StructuredContent: map[string]any{"k": 1.0},
		Content:           []mcp.Content{&mcp.TextContent{Text: `{"k":1}`}, &mcp.ImageContent{MIMEType: "image/png", Data: []byte{1}}},
	}
	b.ReportAllocs()
	for b.Loop() {
		if _, err := pool.Project("mcp__s__t", res); err != nil {
			b.Fatal(err)
		}
	}
}
