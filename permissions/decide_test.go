package permissions_test

import (
	"sort"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/mcpexec/mcpexec/internal/fixtures"
	"github.com/mcpexec/mcpexec/messages"
	"github.com/mcpexec/mcpexec/permissions"
	"github.com/mcpexec/mcpexec/toolpool"
)

// Proves PERM-1.
func TestPERM1_NoMatchingRuleAsks(t *testing.T) {
	cfg := messages.Config{Allow: []string{"mcp__github__get_me"}, Deny: []string{"mcp__slack"}}
	d, reason := permissions.Decide(cfg, "mcp__github__create_issue")
	if d != permissions.Ask {
		t.Fatalf("Decide = %v, want ask", d)
	}
	if !strings.Contains(reason, "mcp__github__create_issue") {
		t.Errorf("reason %q does not name the tool", reason)
	}
}

// Proves PERM-2.
func TestPERM2_AllowRuleMatchesLeafNotExec(t *testing.T) {
	cases := []struct {
		name  string
		allow []string
		tool  string
		want  permissions.Decision
	}{
		{"leaf rule", []string{"mcp__github__get_me"}, "mcp__github__get_me", permissions.Allow},
		{"server rule", []string{"mcp__github"}, "mcp__github__get_me", permissions.Allow},
		{"server wildcard", []string{"mcp__github__*"}, "mcp__github__get_me", permissions.Allow},
		// Allowing the outer Exec grants nothing to the calls inside it.
		{"Exec allowed, leaf not", []string{"Exec"}, "mcp__github__get_me", permissions.Ask},
		{"other leaf", []string{"mcp__github__get_me"}, "mcp__github__get_teams", permissions.Ask},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			if d, _ := permissions.Decide(messages.Config{Allow: c.allow}, c.tool); d != c.want {
				t.Errorf("Decide(%v, %s) = %v, want %v", c.allow, c.tool, d, c.want)
			}
		})
	}
}

// Proves PERM-3.
func TestPERM3_DenyBeatsAskBeatsAllow(t *testing.T) {
	const tool = "mcp__github__delete_repo"
	cases := []struct {
		name       string
		cfg        messages.Config
		want       permissions.Decision
		reasonHint string
	}{
		{"deny leaf over allow server", messages.Config{Allow: []string{"mcp__github"}, Deny: []string{tool}}, permissions.Deny, `"mcp__github__delete_repo"`},
		{"deny server over allow leaf", messages.Config{Allow: []string{tool}, Deny: []string{"mcp__github"}}, permissions.Deny, `"mcp__github"`},
		{"deny over ask", messages.Config{Ask: []string{tool}, Deny: []string{"mcp__github__*"}}, permissions.Deny, `"mcp__github__*"`},
		{"ask over allow", messages.Config{Allow: []string{tool}, Ask: []string{"mcp__github"}}, permissions.Ask, `"mcp__github"`},
		{"disallowedTools denies", messages.Config{Allow: []string{tool}, DisallowedTools: []string{tool}}, permissions.Deny, "disallowedTools"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			d, reason := permissions.Decide(c.cfg, tool)
			if d != c.want {
				t.Fatalf("Decide = %v, want %v", d, c.want)
			}
			if !strings.Contains(reason, c.reasonHint) || !strings.Contains(reason, tool) {
				t.Errorf("reason %q should name %s and the tool", reason, c.reasonHint)
			}
		})
	}
}

// Proves PERM-5.
func TestPERM5_ExecItselfCanBeDenied(t *testing.T) {
	for _, cfg := range []messages.Config{
		{Deny: []string{"Exec"}},
		{DisallowedTools: []string{"Exec"}},
		{Allow: []string{"Exec"}, Deny: []string{"Exec"}},
	} {
		if d, _ := permissions.Decide(cfg, permissions.ExecTool); d != permissions.Deny {
			t.Errorf("Decide(%+v, Exec) = %v, want deny", cfg, d)
		}
	}
	// A whole-server deny does not touch Exec.
	if d, _ := permissions.Decide(messages.Config{Deny: []string{"mcp__github"}, Allow: []string{"Exec"}}, "Exec"); d != permissions.Allow {
		t.Errorf("Decide(Exec) = %v, want allow", d)
	}
}

// Proves SWITCH-5.
func TestSWITCH5_ExecExcludedByDisallowedToolsOrDeny(t *testing.T) {
	for _, cfg := range []messages.Config{{DisallowedTools: []string{"Exec"}}, {Deny: []string{"Exec"}}} {
		if !permissions.Excludes(cfg, permissions.ExecTool) {
			t.Errorf("Excludes(%+v, Exec) = false, want true", cfg)
		}
		if permissions.Excludes(cfg, "mcp__github__get_me") {
			t.Errorf("Excludes(%+v) removed an MCP tool together with Exec", cfg)
		}
	}
	if permissions.Excludes(messages.Config{Ask: []string{"Exec"}}, "Exec") {
		t.Error("an ask rule must not exclude Exec")
	}
}

// pool returns the full names of the tools of the named fixtures.
func pool(t *testing.T, servers ...string) []string {
	t.Helper()
	var names []string
	for _, s := range servers {
		p, err := fixtures.Load(s)
		if err != nil {
			t.Fatal(err)
		}
		for _, tool := range p.Tools {
			names = append(names, "mcp__"+s+"__"+tool.Name)
		}
	}
	return names
}

func filter(cfg messages.Config, names []string) (kept, excluded []string) {
	for _, n := range names {
		if permissions.Excludes(cfg, n) {
			excluded = append(excluded, n)
		} else {
			kept = append(kept, n)
		}
	}
	return kept, excluded
}

// Proves CONV-6.
func TestCONV6_DenyRulesRemoveToolsFromThePool(t *testing.T) {
	names := pool(t, "playwright", "memory", "lark-dotnames")
	cfg := messages.Config{
		Deny:  []string{"mcp__memory", "mcp__playwright__browser_close", "mcp__lark-dotnames__bitable.v1.app.create"},
		Ask:   []string{"mcp__playwright"},
		Allow: []string{"mcp__memory__read_graph"},
	}
	kept, excluded := filter(cfg, names)
	var want []string
	for _, n := range names {
		if strings.HasPrefix(n, "mcp__memory__") || n == "mcp__playwright__browser_close" ||
			n == "mcp__lark-dotnames__bitable.v1.app.create" {
			want = append(want, n)
		}
	}
	if len(want) < 11 {
		t.Fatalf("fixture changed: only %d tools expected to be excluded", len(want))
	}
	sort.Strings(want)
	sort.Strings(excluded)
	if diff := cmp.Diff(want, excluded); diff != "" {
		t.Errorf("excluded tools (-want +got):\n%s", diff)
	}
	if len(kept)+len(excluded) != len(names) {
		t.Errorf("kept %d + excluded %d != pool %d", len(kept), len(excluded), len(names))
	}
}

// Proves EDGE-27.
func TestEDGE27_DisallowedToolsAreAbsentFromThePool(t *testing.T) {
	names := pool(t, "github-go-default", "filesystem")
	cfg := messages.Config{
		DisallowedTools: []string{"mcp__filesystem", "mcp__github-go-default__create_repository"},
		Allow:           []string{"mcp__filesystem__read_file", "mcp__github-go-default"},
	}
	kept, excluded := filter(cfg, names)
	for _, n := range kept {
		if strings.HasPrefix(n, "mcp__filesystem__") || n == "mcp__github-go-default__create_repository" {
			t.Errorf("%s is still in the pool", n)
		}
	}
	fs := pool(t, "filesystem")
	if len(excluded) != len(fs)+1 {
		t.Errorf("excluded %d tools, want %d: %v", len(excluded), len(fs)+1, excluded)
	}
}

func BenchmarkDecide(b *testing.B) {
	cfg := messages.Config{
		Allow: []string{"mcp__github__get_me", "mcp__playwright", "mcp__memory__read_graph", "mcp__slack__*"},
		Ask:   []string{"mcp__github__create_issue", "mcp__filesystem"},
		Deny:  []string{"mcp__github__delete_repo", "mcp__stripe", "Exec"},
	}
	b.ReportAllocs()
	for b.Loop() {
		permissions.Decide(cfg, "mcp__slack__post_message")
	}
}

func TestNewQuestionNamesTheAskRuleThatAsksEveryTime(t *testing.T) {
	cfg := messages.Config{Ask: []string{"mcp__gh__create_issue"}, Allow: []string{"mcp__gh"}}
	if q := permissions.NewQuestion(cfg, "mcp__gh__create_issue", nil, toolpool.Annotations{}); q.AskRule != "mcp__gh__create_issue" {
		t.Errorf("ask rule = %q", q.AskRule)
	}
	if q := permissions.NewQuestion(cfg, "mcp__other__x", nil, toolpool.Annotations{}); q.AskRule != "" {
		t.Errorf("no rule, but ask rule = %q", q.AskRule)
	}
}

func TestRejectedTellsAnUnattendedRefusalFromThePersons(t *testing.T) {
	cases := []struct {
		answer permissions.Answer
		want   string
	}{
		{permissions.Answer{Reason: "not now"}, "the user denied permission to call mcp__a__b: not now"},
		{permissions.Answer{Unattended: true}, `permission to call mcp__a__b needs the user's approval and no one is available to give it; to allow it, the user can add "mcp__a__b" to permissions.allow in the settings file`},
		{permissions.Answer{Unattended: true, Reason: "run with --ask allow"}, `permission to call mcp__a__b needs the user's approval and no one is available to give it; to allow it, the user can add "mcp__a__b" to permissions.allow in the settings file, or run with --ask allow`},
	}
	for _, c := range cases {
		if got := permissions.Rejected("mcp__a__b", c.answer).Error(); got != c.want {
			t.Errorf("got  %q\nwant %q", got, c.want)
		}
	}
}
