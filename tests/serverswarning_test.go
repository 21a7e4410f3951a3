package tests

import (
	"os/exec"
	"strings"
	"testing"
)

// The warning for a servers-file entry that cannot be used names the file,
// line, column and key in plain quotes, as the person would write them,
// not with the log's escaping (`\"command\"`).
func TestBadServersEntryWarningReadsCleanly(t *testing.T) {
	file := writeFile(t, "mcp.json", "{\"mcpServers\": {\n\"bad\": {\"command\": 5}\n}}")
	out, _ := exec.Command(mcpexecBin, "catalog", "--servers", file).CombinedOutput()
	warning := ""
	for _, line := range strings.Split(string(out), "\n") {
		if strings.Contains(line, "mcp server entry skipped") {
			warning = line
		}
	}
	want := `mcp.json:2:20: mcp server "bad": "command" must be a string, not a number`
	if !strings.Contains(warning, want) || strings.Contains(warning, `\"`) {
		t.Errorf("the warning reads %q, want it to say %q without escaped quotes (output:\n%s)", warning, want, out)
	}
}
