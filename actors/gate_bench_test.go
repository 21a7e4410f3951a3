package actors_test

import (
	"context"
	"testing"

	"github.com/mcpexec/mcpexec/actors"
	"github.com/mcpexec/mcpexec/messages"
	"github.com/mcpexec/mcpexec/permissions"
)

// benchConfig settles mcp__context7 by an allow rule and asks about the
// rest (the cost of matching a large rule set is measured in permissions).
func benchConfig() messages.Config {
	return messages.Config{Allow: []string{"mcp__context7"}, Deny: []string{"mcp__stripe"}}
}

// BenchmarkAdmitAllowedByRule is the gate's cost for a call the rules allow
// (no prompt, no actor hop).
func BenchmarkAdmitAllowedByRule(b *testing.B) {
	g, err := actors.StartGate(newBenchSystem(b), actors.GateOptions{
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
	g, err := actors.StartGate(newBenchSystem(b), actors.GateOptions{Store: &memoryStore{cfg: benchConfig()}, Prompter: once})
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
