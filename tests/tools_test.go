package tests

import (
	"encoding/json"
	"slices"
	"strings"
	"testing"
)

type declaration struct {
	Name            string          `json:"name"`
	Description     string          `json:"description"`
	InputSchema     json.RawMessage `json:"input_schema"`
	ConcurrencySafe bool            `json:"concurrency_safe"`
}

func toolsRun(t *testing.T, args ...string) ([]declaration, string) {
	t.Helper()
	run := runDemo(t, "", append([]string{"tools"}, args...)...)
	if run.code != 0 {
		t.Fatalf("demo tools %q: exit %d, stderr %s", args, run.code, run.stderr)
	}
	var decls []declaration
	if err := json.Unmarshal([]byte(run.stdout), &decls); err != nil {
		t.Fatalf("demo tools printed %q: %v", run.stdout, err)
	}
	return decls, run.stdout
}

func names(decls []declaration) []string {
	var out []string
	for _, d := range decls {
		out = append(out, d.Name)
	}
	return out
}

var flatNames = []string{
	"mcp__srv__delete", "mcp__srv__fetch", "mcp__srv__list", "mcp__srv__store",
	"mcp__text__echo", "mcp__text__fail", "mcp__text__hang", "mcp__text__image",
	"mcp__text__nothing", "mcp__text__sleep", "mcp__weather__forecast",
}

// CONV-1, NFR-9, BCAST-1: a non-empty pool declares Exec alone, not
// concurrency-safe, with a description that names nothing of the pool.
func TestCONV1_NFR9_ToolsDeclaresExecAlone(t *testing.T) {
	decls, _ := toolsRun(t)
	if len(decls) != 1 || decls[0].Name != "Exec" {
		t.Fatalf("declarations %q, want Exec alone", names(decls))
	}
	exec := decls[0]
	if exec.ConcurrencySafe {
		t.Error("Exec is marked concurrency-safe")
	}
	// BCAST-1: a constant: no pool names, no catalog.
	if strings.Contains(exec.Description, "mcp__") || strings.Contains(exec.Description, "PARTIAL") {
		t.Errorf("Exec's description depends on the pool:\n%s", exec.Description)
	}
	var schema struct {
		Required []string `json:"required"`
	}
	if err := json.Unmarshal(exec.InputSchema, &schema); err != nil || !slices.Equal(schema.Required, []string{"code"}) {
		t.Errorf("Exec input schema %s, want code required", exec.InputSchema)
	}
}

// BCAST-1, CAT-8: Exec's declaration is byte-identical for different pools.
func TestBCAST1_ExecDeclarationIsTheSameForAnyPool(t *testing.T) {
	_, all := toolsRun(t)
	_, one := toolsRun(t, "--servers", serversFile(t, "text"))
	if all != one {
		t.Errorf("Exec's declaration changed with the pool:\n%s\n---\n%s", all, one)
	}
}

// SWITCH-2, CONV-4: enableExec false declares every MCP tool flatly.
func TestSWITCH2_EnableExecFalseDeclaresTheToolsFlat(t *testing.T) {
	decls, _ := toolsRun(t, "--settings", writeFile(t, "settings.json", `{"enableExec": false}`))
	if !slices.Equal(names(decls), flatNames) {
		t.Errorf("declarations %q, want every MCP tool flat", names(decls))
	}
	for _, d := range decls {
		if len(d.InputSchema) == 0 || d.Description == "" {
			t.Errorf("flat declaration %s lacks its schema or description", d.Name)
		}
	}
}

// CONV-3: a deny rule for Exec falls back to flat declarations.
func TestCONV3_DenyingExecDeclaresTheToolsFlat(t *testing.T) {
	decls, _ := toolsRun(t, "--settings", writeFile(t, "settings.json", `{"permissions": {"deny": ["Exec"]}}`))
	if !slices.Equal(names(decls), flatNames) {
		t.Errorf("declarations %q, want every MCP tool flat", names(decls))
	}
}

// CONV-6: deny rules and disallowedTools remove tools from the flat
// declarations.
func TestCONV6_DeniedToolIsInNeitherDeclarationsNorCatalog(t *testing.T) {
	settings := writeFile(t, "settings.json", `{"enableExec": false, "disallowedTools": ["mcp__text"], "permissions": {"deny": ["mcp__srv__delete"]}}`)
	decls, _ := toolsRun(t, "--settings", settings)
	want := []string{"mcp__srv__fetch", "mcp__srv__list", "mcp__srv__store", "mcp__weather__forecast"}
	if !slices.Equal(names(decls), want) {
		t.Errorf("declarations %q, want %q", names(decls), want)
	}
}
