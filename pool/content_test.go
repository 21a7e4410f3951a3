package pool_test

import (
	"context"
	"regexp"
	"strings"
	"testing"

	"github.com/mcpexec/mcpexec/internal/testservers"
	"github.com/mcpexec/mcpexec/pool"
)

// A want with anyBytes takes any size in its place: the everything
// server's blob holds the time of day, whose length varies (9:59:59 AM,
// 10:00:00 AM).
const anyBytes = "N bytes"

var byteCount = regexp.MustCompile(`\d+ bytes`)

// Every part of a real server's reply reaches the caller, in order: a
// resource link and a binary resource as lines naming them, an embedded
// text resource as its text, images beside the value.
//
// Proves ORCH-2, EDGE-20.
func TestORCH2_EveryContentTypeFromRealServers(t *testing.T) {
	m := start(t, []pool.ServerConfig{everythingServer(t), contentServer("gh")}, pool.Options{})
	ctx := context.Background()
	cases := []struct {
		tool, args string
		want       string // the value; "" for null
		images     int
	}{
		{"mcp__gh__get_file_contents", `{}`, testservers.FileStatus + "\n" + testservers.FileText, 0},
		{"mcp__gh__link", `{}`, `[resource link: file:///srv/report.pdf, name "report.pdf", application/pdf, 2.0 KB]`, 0},
		{"mcp__gh__blob", `{}`, `[resource: file:///srv/logo.png, image/png, 67 bytes, binary content not shown]`, 0},
		{"mcp__gh__audio", `{}`, `[audio: audio/wav, 44 bytes, binary content not shown]`, 0},
		{"mcp__gh__mixed", `{}`, "caption\n[audio: audio/wav, 44 bytes, binary content not shown]\n" +
			`[resource link: file:///srv/report.pdf, name "report.pdf", application/pdf, 2.0 KB]`, 1},
		{"mcp__everything__get-resource-links", `{"count":2}`, "Here are 2 resource links to resources available in this server:\n" +
			`[resource link: demo://resource/dynamic/blob/1, name "Blob Resource 1", text/plain]` + "\n" +
			`[resource link: demo://resource/dynamic/text/2, name "Text Resource 2", text/plain]`, 0},
		{"mcp__everything__get-resource-reference", `{"resourceType":"Blob","resourceId":2}`, "Returning resource reference for Resource 2:\n" +
			"[resource: demo://resource/dynamic/blob/2, text/plain, N bytes, binary content not shown]\n" +
			"You can access this resource using the URI: demo://resource/dynamic/blob/2", 0},
		{"mcp__everything__get-tiny-image", `{}`, "Here's the image you requested:\nThe image above is the MCP logo.", 1},
	}
	for _, c := range cases {
		res, err := m.Call(ctx, c.tool, raw(c.args))
		if err != nil {
			t.Errorf("%s: %v", c.tool, err)
			continue
		}
		got, _ := res.Value.(string)
		if res.Value == nil && string(res.JSON) != "null" {
			t.Errorf("%s: null value with JSON %s", c.tool, res.JSON)
		}
		if strings.Contains(c.want, anyBytes) {
			got = byteCount.ReplaceAllString(got, anyBytes)
		}
		if got != c.want || len(res.Images) != c.images {
			t.Errorf("%s:\n got %q (%d images)\nwant %q (%d images)", c.tool, got, len(res.Images), c.want, c.images)
		}
	}
	// An embedded text resource brings its text; the time in it varies.
	res, err := m.Call(ctx, "mcp__everything__get-resource-reference", raw(`{"resourceType":"Text","resourceId":1}`))
	if text, _ := res.Value.(string); err != nil || !strings.Contains(text, "\nResource 1: This is a plaintext resource created at ") {
		t.Errorf("text resource: %q, %v", res.Value, err)
	}
}
