package permissions_test

import (
	"context"
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

// BenchmarkAdmitAllowedByRule is the gate's cost for a call the rules allow
// (no prompt, no actor hop).
func BenchmarkAdmitAllowedByRule(b *testing.B) {
	g, err := permissions.StartGate(newBenchSystem(b), permissions.GateOptions{
		Store: &memoryStore{cfg: benchConfig()}, Prompter: permissions.PrompterFunc(nil),
	})
	if err != nil {
		b.Fatal(err)
	}
	defer g.Stop()
	ctx := context.Background()
	b.ReportAllocs()
	for b.Loop() {
		if err := g.Admit(ctx, "mcp__context7__resolve", nil); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkAdmitAskedAllowOnce is the round trip through the gate actor and
// a Prompter that answers at once.
func BenchmarkAdmitAskedAllowOnce(b *testing.B) {
	once := permissions.PrompterFunc(func(context.Context, permissions.Question) (permissions.Answer, error) {
		return permissions.Answer{Kind: permissions.AllowOnce}, nil
	})
	g, err := permissions.StartGate(newBenchSystem(b), permissions.GateOptions{Store: &memoryStore{cfg: benchConfig()}, Prompter: once})
	if err != nil {
		b.Fatal(err)
	}
	defer g.Stop()
	ctx := context.Background()
	b.ReportAllocs()
	for b.Loop() {
		if err := g.Admit(ctx, "mcp__unknown__tool", nil); err != nil {
			b.Fatal(err)
		}
	}
}
