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
	invalid := []string{"", " ", "mcp__", "mcp____tool", "mcp__github__", "mcp__git hub", "Exec\n"}
	for _, r := range invalid {
		if err := ValidateRule(r); err == nil {
			t.Errorf("ValidateRule(%q) = nil, want an error", r)
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
