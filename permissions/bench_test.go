package permissions_test

import (
	"testing"

	"github.com/mcpexec/mcpexec/messages"
	"github.com/mcpexec/mcpexec/permissions"
)

// benchConfig is a settings file of realistic size: a few dozen rules.
func benchConfig() messages.Config {
	cfg := messages.Config{Ask: []string{"mcp__github__create_issue", "mcp__filesystem"}, Deny: []string{"mcp__stripe", "mcp__github__delete_repo"}}
	for _, s := range []string{"github", "gitlab", "slack", "notion", "jira", "memory", "playwright", "sentry"} {
		for _, tool := range []string{"get", "list", "search", "read"} {
			cfg.Allow = append(cfg.Allow, "mcp__"+s+"__"+tool)
		}
	}
	cfg.Allow = append(cfg.Allow, "mcp__context7")
	return cfg
}

func BenchmarkExcludes(b *testing.B) {
	cfg := benchConfig()
	b.ReportAllocs()
	for b.Loop() {
		permissions.Excludes(cfg, "mcp__context7__resolve")
	}
}
