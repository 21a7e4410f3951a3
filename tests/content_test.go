package tests

import (
	"strconv"
	"strings"
	"testing"

	"github.com/mcpexec/mcpexec/internal/testservers"
)

// Every part of a reply reaches what the model receives, in order: a text
// part gives its text, an audio part and a resource link give a line
// naming them (audio is not an attachment: the host takes images only),
// and the image travels beside the text as the one attachment, which exec
// lists under the text.
//
// Proves ORCH-2.
func TestORCH2_AudioIsANamedLineAndTheImageAnAttachment(t *testing.T) {
	servers := writeServers(t, map[string]any{"content": testServer(testservers.ContentCommand())})
	script := writeFile(t, "s.js", `return await tools.mcp__content__mixed({});`)
	want := "caption\n" +
		"[audio: audio/wav, 44 bytes, binary content not shown]\n" +
		`[resource link: file:///srv/report.pdf, name "report.pdf", application/pdf, 2.0 KB]`

	res, run := execJSON(t, `return await tools.mcp__content__mixed({});`, "", "--servers", servers, "--ask", "allow")
	if res.Text != want || res.Images != 1 || len(res.ImageData) != 1 || res.ImageData[0].MIMEType != "image/png" {
		t.Errorf("--json: text %q, %d images %+v; want\n%s\nand the PNG alone attached (stderr: %s)", res.Text, res.Images, res.ImageData, want, run.stderr)
	}

	run = runDemo(t, "", "exec", "--servers", servers, "--ask", "allow", "--script", script)
	if run.code != 0 {
		t.Fatalf("exit %d: %s", run.code, run.stderr)
	}
	received, attached, _ := strings.Cut(run.stdout, "Images attached\n")
	for _, line := range strings.Split(want, "\n") {
		if !strings.Contains(received, "│ "+line+"\n") {
			t.Errorf("what the model receives lacks %q:\n%s", line, run.stdout)
		}
	}
	if attached != "  image/png, "+strconv.Itoa(len(testservers.PNG))+" bytes\n" {
		t.Errorf("attachments listed as %q, want the PNG alone", attached)
	}
}
