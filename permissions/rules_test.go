package permissions

import "testing"

func TestValidateRule(t *testing.T) {
	valid := []string{"Exec", "mcp__github", "mcp__github__create_issue", "mcp__github__*",
		"mcp__lark__bitable.v1.app.create", "mcp__ddg-search", "Read"}
	for _, r := range valid {
		if err := ValidateRule(r); err != nil {
			t.Errorf("ValidateRule(%q) = %v, want nil", r, err)
		}
	}
	invalid := []string{"", " ", "mcp__", "mcp____tool", "mcp__github__", "mcp__git hub", "Exec\n",
		"mcp__github__create_*", "mcp__*", "mcp__*__list", "mcp__git*__*", "mcp_github__get_me"}
	for _, r := range invalid {
		if err := ValidateRule(r); err == nil {
			t.Errorf("ValidateRule(%q) = nil, want an error", r)
		}
	}
}

func TestValidateRuleSaysWhyARuleCanNeverMatch(t *testing.T) {
	cases := map[string]string{
		"mcp__github__create_*": `rule "mcp__github__create_*" can never match: a wildcard stands only for every tool of a server, as in mcp__server__*`,
		"mcp_github__get_me":    `rule "mcp_github__get_me" can never match: MCP tool names start with "mcp__" (two underscores)`,
	}
	for rule, want := range cases {
		if err := ValidateRule(rule); err == nil || err.Error() != want {
			t.Errorf("ValidateRule(%q) = %v, want %s", rule, err, want)
		}
	}
}

func TestRuleMatches(t *testing.T) {
	cases := []struct {
		rule, name string
		want       bool
	}{
		{"mcp__github__create_issue", "mcp__github__create_issue", true},
		{"mcp__github__create_issue", "mcp__github__create_issue_comment", false},
		{"mcp__github", "mcp__github__create_issue", true},
		{"mcp__github__*", "mcp__github__create_issue", true},
		{"mcp__github", "mcp__github-enterprise__create_issue", false},
		{"mcp__github", "mcp__githubx__create_issue", false},
		{"mcp__github", "mcp__github", true},
		{"mcp__github", "mcp__github__", false},
		{"mcp__lark", "mcp__lark__bitable.v1.app.create", true},
		{"mcp__a__b", "mcp__a__b__c", false},
		{"Exec", "Exec", true},
		{"Exec", "mcp__exec__run", false},
		{"mcp__github", "Exec", false},
		{"", "", false},
		{"mcp__", "mcp____x", false},
		{"mcp____*", "mcp____x", false},
	}
	for _, c := range cases {
		if got := ruleMatches(c.rule, c.name); got != c.want {
			t.Errorf("ruleMatches(%q, %q) = %v, want %v", c.rule, c.name, got, c.want)
		}
	}
}
