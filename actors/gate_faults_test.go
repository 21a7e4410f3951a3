package actors_test

import (
	"context"
	"errors"
	"sync/atomic"
	"testing"

	"github.com/mcpexec/mcpexec/messages"
	"github.com/mcpexec/mcpexec/permissions"
)

// A Prompter that panics fails its own question only: the call gets a
// PromptError and the gate asks the next question as usual.
func TestGateSurvivesAPrompterPanic(t *testing.T) {
	prompter := newScriptedPrompter()
	var calls atomic.Int32
	panicking := permissions.PrompterFunc(func(ctx context.Context, q permissions.Question) (permissions.Answer, error) {
		if calls.Add(1) == 1 {
			panic("prompter bug")
		}
		return prompter.Ask(ctx, q)
	})
	g := startGate(t, &memoryStore{}, panicking)
	var prompt *permissions.PromptError
	if err := g.Admit(context.Background(), "mcp__a__one", nil); !errors.As(err, &prompt) {
		t.Fatalf("Admit with a panicking Prompter = %v, want a *PromptError", err)
	}
	done := admitAsync(g, context.Background(), "mcp__a__two")
	prompter.next(t).answer <- permissions.Answer{Kind: permissions.AllowOnce}
	if err := result(t, done); err != nil {
		t.Fatalf("next Admit = %v", err)
	}
}

// crashingStore panics on the call numbered crashAt, which the test places on
// the gate actor's own goroutine.
type crashingStore struct {
	memoryStore
	calls   atomic.Int32
	crashAt int32
}

func (s *crashingStore) Current() messages.Config {
	if s.calls.Add(1) == s.crashAt {
		panic("rule store bug")
	}
	return s.memoryStore.Current()
}

// A crash of the gate actor mid-call answers the call that was waiting with
// a PromptError at once; the actor is restarted with the person's unsaved
// "allow always" answers and goes on asking.
func TestGateRestartsAfterACrashAndKeepsTheSessionsAnswers(t *testing.T) {
	store := &crashingStore{memoryStore: memoryStore{fail: errors.New("read-only settings")}}
	prompter := newScriptedPrompter()
	g := startGate(t, store, prompter)

	// "Allow always" whose save fails: it holds for the session only.
	done := admitAsync(g, context.Background(), "mcp__a__kept")
	prompter.next(t).answer <- permissions.Answer{Kind: permissions.AllowAlways}
	if err := result(t, done); err != nil {
		t.Fatal(err)
	}
	// The next question crashes the actor while it decides it: the first
	// Current is Admit's own check, the second the actor's.
	store.crashAt = store.calls.Load() + 2
	var prompt *permissions.PromptError
	if err := result(t, admitAsync(g, context.Background(), "mcp__a__crash")); !errors.As(err, &prompt) {
		t.Fatalf("Admit during the crash = %v, want a *PromptError", err)
	}
	// Restarted: the session's answer still holds (the store does not
	// have it), and new questions are asked.
	if err := g.Admit(context.Background(), "mcp__a__kept", nil); err != nil {
		t.Fatalf("Admit of the tool allowed always = %v", err)
	}
	done = admitAsync(g, context.Background(), "mcp__a__after")
	prompter.next(t).answer <- permissions.Answer{Kind: permissions.AllowOnce}
	if err := result(t, done); err != nil {
		t.Fatalf("Admit after the restart = %v", err)
	}
}
