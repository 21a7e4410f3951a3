package tests

import (
	"strings"
	"testing"
)

// catalog --settings previews the catalog after the settings' deny rules,
// followed by the servers' usage instructions, as a model reads them.
func TestCatalogPreviewsTheSettingsAndPrintsInstructions(t *testing.T) {
	settings := writeFile(t, "settings.json", `{"permissions": {"deny": ["mcp__srv__delete"]}}`)
	run := runDemo(t, "", "catalog", "--settings", settings)
	if run.code != 0 {
		t.Fatalf("catalog: exit %d\n%s", run.code, run.stderr)
	}
	if strings.Contains(run.stdout, "mcp__srv__delete") || !strings.Contains(run.stdout, "mcp__srv__fetch") {
		t.Errorf("the catalog does not apply the deny rule:\n%s", run.stdout)
	}
	if !strings.Contains(run.stdout, `Usage instructions from the MCP server "srv"`) {
		t.Errorf("the servers' instructions are missing:\n%s", run.stdout)
	}
}
