package declare

import (
	"strings"
	"testing"

	"github.com/mcpexec/mcpexec/exectool"
	"github.com/mcpexec/mcpexec/internal/fixtures"
	"github.com/mcpexec/mcpexec/messages"
	"github.com/mcpexec/mcpexec/permissions"
	"github.com/mcpexec/mcpexec/pool"
)

var (
	enabled  = messages.Config{EnableExec: true}
	disabled = messages.Config{EnableExec: false}
	builtin  = []Declaration{{Name: "Read", Description: "Read a file"}, {Name: "Bash", Description: "Run a command"}}
)

func snapshot(exclude pool.Exclude, servers ...pool.ServerTools) *pool.Snapshot {
	return pool.Build(servers, exclude)
}

func server(name string, leaves ...string) pool.ServerTools {
	st := pool.ServerTools{Server: name}
	for _, l := range leaves {
		st.Tools = append(st.Tools, pool.Tool{Leaf: l, Description: l + " does things", InputSchema: []byte(`{"type":"object","properties":{"id":{"type":"number"}}}`)})
	}
	return st
}

func names(decls []Declaration) string {
	var out []string
	for _, d := range decls {
		out = append(out, d.Name)
	}
	return strings.Join(out, ",")
}

// Proves CONV-1.
func TestCONV1_NonEmptyPoolConvergesIntoExec(t *testing.T) {
	snap := snapshot(nil, server("github", "get_me", "list_issues"), server("slack", "post"))
	decls := Assemble(snap, enabled, Agent{Builtin: builtin})
	if got := names(decls); got != "Read,Bash,Exec" {
		t.Fatalf("declarations = %s", got)
	}
	exec := decls[2]
	if exec.Description != exectool.Description() || exec.ConcurrencySafe {
		t.Errorf("Exec declared wrongly: %+v", exec)
	}
}

// Proves EDGE-7.
func TestEDGE7_OneToolStillConverges(t *testing.T) {
	snap := snapshot(nil, server("postgres", "query"))
	if got := names(Assemble(snap, enabled, Agent{})); got != "Exec" {
		t.Errorf("declarations = %s", got)
	}
}

// Proves CONV-2.
func TestCONV2_EmptyPoolDeclaresNoExec(t *testing.T) {
	for _, snap := range []*pool.Snapshot{nil, snapshot(nil)} {
		if got := names(Assemble(snap, enabled, Agent{Builtin: builtin})); got != "Read,Bash" {
			t.Errorf("declarations = %s", got)
		}
	}
}

// Proves CONV-3, SWITCH-5, EDGE-4.
func TestCONV3_SWITCH5_EDGE4_ExecExcludedFallsBackToFlat(t *testing.T) {
	snap := snapshot(nil, server("github", "get_me", "list_issues"))
	for name, cfg := range map[string]messages.Config{
		"deny rule":       {EnableExec: true, Deny: []string{"Exec"}},
		"disallowedTools": {EnableExec: true, DisallowedTools: []string{"Exec"}},
	} {
		got := names(Assemble(snap, cfg, Agent{Builtin: builtin}))
		if got != "Read,Bash,mcp__github__get_me,mcp__github__list_issues" {
			t.Errorf("%s: declarations = %s", name, got)
		}
	}
	// Excluded through the agent's own tool set.
	got := names(Assemble(snap, enabled, Agent{Disallowed: []string{"Exec"}}))
	if got != "mcp__github__get_me,mcp__github__list_issues" {
		t.Errorf("agent exclusion: declarations = %s", got)
	}
}

// Proves CONV-4, SWITCH-2.
func TestCONV4_SWITCH2_SwitchOffDeclaresEveryToolFlatly(t *testing.T) {
	snap := snapshot(nil, server("github", "get_me"), server("slack", "post"))
	decls := Assemble(snap, disabled, Agent{Builtin: builtin})
	if got := names(decls); got != "Read,Bash,mcp__github__get_me,mcp__slack__post" {
		t.Fatalf("declarations = %s", got)
	}
	if decls[2].Description != "get_me does things" || !strings.Contains(string(decls[2].InputSchema), `"id"`) {
		t.Errorf("flat declaration lost its description or schema: %+v", decls[2])
	}
}

// Proves CONV-5.
func TestCONV5_DecidedAfreshInBothDirections(t *testing.T) {
	full := snapshot(nil, server("github", "get_me"))
	empty := snapshot(nil)
	want := []string{"Exec", "", "Exec", "", "mcp__github__get_me", "Exec"}
	steps := []struct {
		snap *pool.Snapshot
		cfg  messages.Config
	}{{full, enabled}, {empty, enabled}, {full, enabled}, {empty, disabled}, {full, disabled}, {full, enabled}}
	for i, s := range steps {
		if got := names(Assemble(s.snap, s.cfg, Agent{})); got != want[i] {
			t.Errorf("step %d: declarations = %q, want %q", i, got, want[i])
		}
	}
}

// Proves CONV-6.
func TestCONV6_DeniedToolsAreInNoDeclaration(t *testing.T) {
	cfg := messages.Config{EnableExec: false, Deny: []string{"mcp__github__delete_repo"}}
	exclude := func(name string) bool { return permissions.Excludes(cfg, name) }
	snap := snapshot(exclude, server("github", "get_me", "delete_repo"))
	if got := names(Assemble(snap, cfg, Agent{})); got != "mcp__github__get_me" {
		t.Errorf("declarations = %s", got)
	}
	for _, tool := range Reachable(snap, Agent{}) {
		if tool.Name == "mcp__github__delete_repo" {
			t.Error("a denied tool is reachable from Exec")
		}
	}
}

// Proves EDGE-12.
func TestEDGE12_SubAgentToolSetDecides(t *testing.T) {
	snap := snapshot(nil, server("github", "get_me", "list_issues"))
	// A sub-agent whose set includes Exec gets Exec, reaching only the MCP
	// tools its set names.
	agent := Agent{Allowed: []string{"Exec", "mcp__github__get_me"}}
	if got := names(Assemble(snap, enabled, agent)); got != "Exec" {
		t.Errorf("declarations = %s", got)
	}
	if r := Reachable(snap, agent); len(r) != 1 || r[0].Name != "mcp__github__get_me" {
		t.Errorf("reachable = %v", r)
	}
	// A sub-agent without Exec in its set keeps its MCP tools flatly.
	agent = Agent{Allowed: []string{"mcp__github__list_issues"}}
	if got := names(Assemble(snap, enabled, agent)); got != "mcp__github__list_issues" {
		t.Errorf("declarations = %s", got)
	}
	// A sub-agent whose set has Exec but none of the pool's tools: nothing
	// to converge, nothing declared.
	if got := names(Assemble(snap, enabled, Agent{Allowed: []string{"Exec"}})); got != "" {
		t.Errorf("declarations = %s", got)
	}
}

func TestFlatDeclarationsOfRealPools(t *testing.T) {
	pools, err := fixtures.All()
	if err != nil {
		t.Fatal(err)
	}
	var servers []pool.ServerTools
	total := 0
	for _, p := range pools {
		st := pool.ServerTools{Server: p.Server}
		for _, tool := range p.Tools {
			st.Tools = append(st.Tools, pool.Tool{Leaf: tool.Name, Description: tool.Description, InputSchema: tool.InputSchema})
		}
		total += len(st.Tools)
		servers = append(servers, st)
	}
	snap := pool.Build(servers, nil)
	decls := Assemble(snap, disabled, Agent{})
	if len(decls) != snap.Len() || snap.Len() == 0 {
		t.Fatalf("%d declarations for %d pool tools (%d listed)", len(decls), snap.Len(), total)
	}
	for _, d := range decls {
		if !strings.HasPrefix(d.Name, "mcp__") || len(d.InputSchema) == 0 {
			t.Fatalf("bad flat declaration %+v", d.Name)
		}
	}
	if got := names(Assemble(snap, enabled, Agent{})); got != "Exec" {
		t.Errorf("declarations = %s", got)
	}
}
