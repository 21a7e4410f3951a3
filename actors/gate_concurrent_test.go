package actors_test

import (
	"context"
	"testing"

	"github.com/mcpexec/mcpexec/actors"
	"github.com/mcpexec/mcpexec/permissions"
	"github.com/mcpexec/mcpexec/toolpool"
)

// concurrentPrompter is a scriptedPrompter that holds many questions at
// once, as a run that parks does.
type concurrentPrompter struct{ *scriptedPrompter }

func (concurrentPrompter) HoldsManyQuestions() {}

// A question to a concurrent prompter is put at once, beside the others and
// beside a question on screen at a serial prompter, and comes with the
// tool's hints; the serial prompter still gets one question at a time.
func TestGateAsksAConcurrentPrompterAtOnce(t *testing.T) {
	serial := newScriptedPrompter()
	destructive := true
	g, err := actors.StartGate(newSystem(t), actors.GateOptions{Store: &memoryStore{}, Prompter: serial,
		Hints: func(tool string) toolpool.Annotations {
			return toolpool.Annotations{Destructive: &destructive, Title: "title of " + tool}
		}})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		g.Stop()
		checkNoLeaks(t)
	})
	// The serial prompter has a question on screen and another queued.
	first := admitAsync(g, context.Background(), "mcp__a__one")
	second := admitAsync(g, context.Background(), "mcp__a__two")
	onScreen := serial.next(t)

	batch := concurrentPrompter{newScriptedPrompter()}
	ctx := permissions.WithPrompter(context.Background(), batch)
	tools := []string{"mcp__b__x", "mcp__b__y", "mcp__b__z"}
	var dones []<-chan error
	for _, tool := range tools {
		dones = append(dones, admitAsync(g, ctx, tool))
	}
	var held []*pending
	for range tools {
		pd := batch.next(t)
		if pd.q.Hints.Title != "title of "+pd.q.Tool || pd.q.Hints.Destructive == nil {
			t.Errorf("question %s came with hints %+v", pd.q.Tool, pd.q.Hints)
		}
		held = append(held, pd)
	}
	if _, most := batch.stats(); most != len(tools) {
		t.Errorf("%d questions were open at the concurrent prompter at once, want %d", most, len(tools))
	}
	for _, pd := range held {
		if pd.q.Tool == tools[0] {
			pd.answer <- permissions.Answer{Kind: permissions.Reject, Reason: "no"}
		} else {
			pd.answer <- permissions.Answer{Kind: permissions.AllowOnce}
		}
	}
	if err := result(t, dones[0]); err == nil {
		t.Error("a rejected question let its call run")
	}
	for _, d := range dones[1:] {
		if err := result(t, d); err != nil {
			t.Error(err)
		}
	}
	onScreen.answer <- permissions.Answer{Kind: permissions.AllowOnce}
	serial.next(t).answer <- permissions.Answer{Kind: permissions.AllowOnce}
	for _, d := range []<-chan error{first, second} {
		if err := result(t, d); err != nil {
			t.Error(err)
		}
	}
	if _, most := serial.stats(); most != 1 {
		t.Errorf("%d questions were open at the serial prompter at once, want 1", most)
	}
}
