package actors_test

import (
	"context"
	"errors"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/mcpexec/mcpexec/actors"
	"github.com/mcpexec/mcpexec/messages"
	"github.com/mcpexec/mcpexec/permissions"
)

func startGate(t *testing.T, store permissions.RuleStore, p permissions.Prompter) *actors.Gate {
	t.Helper()
	g, err := actors.StartGate(newSystem(t), actors.GateOptions{Store: store, Prompter: p})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		g.Stop()
		checkNoLeaks(t)
	})
	return g
}

// Proves PERM-1.
func TestPERM1_UnmatchedCallIsAskedAndAllowAlwaysSavesLeafRule(t *testing.T) {
	store := &memoryStore{}
	prompter := newScriptedPrompter()
	g := startGate(t, store, prompter)
	const tool = "mcp__github__create_issue"

	done := admitAsync(g, context.Background(), tool)
	pd := prompter.next(t)
	if pd.q.Tool != tool || string(pd.q.Args) != `{}` {
		t.Fatalf("question = %+v, want the leaf tool and its arguments", pd.q)
	}
	pd.answer <- permissions.Answer{Kind: permissions.AllowAlways}
	if err := result(t, done); err != nil {
		t.Fatalf("Admit = %v, want nil", err)
	}
	// The rule is saved under the leaf's full name (the save runs beside
	// the answer), and the next call runs without asking.
	if err := g.Admit(context.Background(), tool, nil); err != nil {
		t.Fatalf("second Admit = %v", err)
	}
	waitUntil(t, func() bool { return len(store.savedRules()) > 0 })
	if diff := cmp.Diff([]string{tool}, store.savedRules()); diff != "" {
		t.Errorf("saved rules (-want +got):\n%s", diff)
	}
	if n, _ := prompter.stats(); n != 1 {
		t.Errorf("asked %d times, want 1", n)
	}
}

// Proves PERM-1.
func TestPERM1_AllowAlwaysHoldsForTheSessionWhenSavingFails(t *testing.T) {
	store := &memoryStore{fail: errors.New("disk full")}
	prompter := newScriptedPrompter()
	g := startGate(t, store, prompter)
	const tool = "mcp__github__create_issue"

	done := admitAsync(g, context.Background(), tool)
	prompter.next(t).answer <- permissions.Answer{Kind: permissions.AllowAlways}
	if err := result(t, done); err != nil {
		t.Fatal(err)
	}
	// A second call is queued behind nothing and must not be asked.
	if err := result(t, admitAsync(g, context.Background(), tool)); err != nil {
		t.Fatal(err)
	}
	if n, _ := prompter.stats(); n != 1 {
		t.Errorf("asked %d times, want 1", n)
	}
}

// Proves PERM-1.
func TestPERM1_AllowOnceAsksAgain(t *testing.T) {
	prompter := newScriptedPrompter()
	g := startGate(t, &memoryStore{}, prompter)
	for range 2 {
		done := admitAsync(g, context.Background(), "mcp__memory__read_graph")
		prompter.next(t).answer <- permissions.Answer{Kind: permissions.AllowOnce}
		if err := result(t, done); err != nil {
			t.Fatal(err)
		}
	}
	if n, _ := prompter.stats(); n != 2 {
		t.Errorf("asked %d times, want 2", n)
	}
}

// Proves PERM-2.
func TestPERM2_AllowRuleRunsWithoutAsking(t *testing.T) {
	store := &memoryStore{cfg: messages.Config{Allow: []string{"mcp__github__get_me", "mcp__memory"}}}
	g := startGate(t, store, noPrompter(t))
	for _, tool := range []string{"mcp__github__get_me", "mcp__memory__read_graph"} {
		if err := g.Admit(context.Background(), tool, []byte(`{"a":1}`)); err != nil {
			t.Errorf("Admit(%s) = %v, want nil", tool, err)
		}
	}
}

// Proves PERM-3.
func TestPERM3_DenyRuleRejectsWithReason(t *testing.T) {
	store := &memoryStore{cfg: messages.Config{
		Allow: []string{"mcp__github"},
		Deny:  []string{"mcp__github__delete_repo"},
	}}
	g := startGate(t, store, noPrompter(t))
	err := g.Admit(context.Background(), "mcp__github__delete_repo", nil)
	var denied *permissions.DeniedError
	if !errors.As(err, &denied) {
		t.Fatalf("Admit = %v, want a *DeniedError", err)
	}
	if denied.Rule != "mcp__github__delete_repo" || denied.Tool != "mcp__github__delete_repo" {
		t.Errorf("denial = %+v", denied)
	}
	if !strings.Contains(err.Error(), `deny rule "mcp__github__delete_repo"`) {
		t.Errorf("message %q does not carry the reason", err)
	}
}

// Proves PERM-4.
func TestPERM4_RejectionCarriesThePersonsReason(t *testing.T) {
	prompter := newScriptedPrompter()
	g := startGate(t, &memoryStore{}, prompter)
	done := admitAsync(g, context.Background(), "mcp__stripe__create_refund")
	prompter.next(t).answer <- permissions.Answer{Kind: permissions.Reject, Reason: "refunds need a ticket"}
	err := result(t, done)
	var denied *permissions.DeniedError
	if !errors.As(err, &denied) {
		t.Fatalf("Admit = %v, want a *DeniedError", err)
	}
	if denied.Rule != "" {
		t.Errorf("Rule = %q, want empty for a person's rejection", denied.Rule)
	}
	want := "the user denied permission to call mcp__stripe__create_refund: refunds need a ticket"
	if err.Error() != want {
		t.Errorf("message = %q, want %q", err, want)
	}
}

// Proves PERM-5.
func TestPERM5_DeniedExecIsRefusedWithoutAsking(t *testing.T) {
	store := &memoryStore{cfg: messages.Config{Deny: []string{"Exec"}}}
	g := startGate(t, store, noPrompter(t))
	err := g.Admit(context.Background(), permissions.ExecTool, []byte(`{"code":"1"}`))
	var denied *permissions.DeniedError
	if !errors.As(err, &denied) || denied.Rule != "Exec" {
		t.Fatalf("Admit(Exec) = %v, want a denial by the Exec rule", err)
	}
	if d, _ := g.Decide(permissions.ExecTool); d != permissions.Deny {
		t.Errorf("Decide(Exec) = %v, want deny", d)
	}
	if err := g.Forbidden(permissions.ExecTool); !errors.As(err, &denied) {
		t.Errorf("Forbidden(Exec) = %v, want a denial", err)
	}
}

// Proves PERM-5.
func TestPERM5_ForbiddenNeverAsks(t *testing.T) {
	g := startGate(t, &memoryStore{cfg: messages.Config{Deny: []string{"mcp__x"}}}, noPrompter(t))
	if err := g.Forbidden(permissions.ExecTool); err != nil {
		t.Errorf("Forbidden(Exec) with no rule = %v, want nil", err)
	}
	var denied *permissions.DeniedError
	if err := g.Forbidden("mcp__x__y"); !errors.As(err, &denied) || denied.Rule != "mcp__x" {
		t.Errorf("Forbidden(mcp__x__y) = %v, want the denial by mcp__x", err)
	}
}

// Proves PERM-1.
func TestPERM1_PromptsAreSerialised(t *testing.T) {
	prompter := newScriptedPrompter()
	g := startGate(t, &memoryStore{}, prompter)
	tools := []string{"mcp__a__one", "mcp__a__two", "mcp__b__three", "mcp__b__four"}
	var dones []<-chan error
	for _, tool := range tools {
		dones = append(dones, admitAsync(g, context.Background(), tool))
	}
	var seen []string
	for range tools {
		pd := prompter.next(t)
		seen = append(seen, pd.q.Tool)
		pd.answer <- permissions.Answer{Kind: permissions.AllowOnce}
	}
	for _, d := range dones {
		if err := result(t, d); err != nil {
			t.Fatal(err)
		}
	}
	if _, most := prompter.stats(); most != 1 {
		t.Errorf("%d prompts were open at once, want 1", most)
	}
	if len(seen) != len(tools) {
		t.Errorf("asked about %v", seen)
	}
}

// Proves PERM-1.
func TestPERM1_AllowAlwaysSettlesQueuedCallsToTheSameTool(t *testing.T) {
	prompter := newScriptedPrompter()
	store := &memoryStore{}
	g := startGate(t, store, prompter)
	const tool = "mcp__github__list_issues"
	first := admitAsync(g, context.Background(), tool)
	pd := prompter.next(t)
	// Queue more calls to the same tool behind the open prompt.
	var more []<-chan error
	for range 3 {
		more = append(more, admitAsync(g, context.Background(), tool))
	}
	waitQueued(t, g, 3)
	pd.answer <- permissions.Answer{Kind: permissions.AllowAlways}
	for _, d := range append(more, first) {
		if err := result(t, d); err != nil {
			t.Fatal(err)
		}
	}
	if n, _ := prompter.stats(); n != 1 {
		t.Errorf("asked %d times, want 1", n)
	}
}

// waitQueued waits until n questions wait behind the open prompt.
func waitQueued(t *testing.T, g *actors.Gate, n int) {
	t.Helper()
	waitUntil(t, func() bool { return g.Queued() == n })
}

// Proves PERM-1.
func TestPERM1_AbortCancelsThePendingPrompt(t *testing.T) {
	prompter := newScriptedPrompter()
	g := startGate(t, &memoryStore{}, prompter)

	ctx, abort := context.WithCancel(context.Background())
	done := admitAsync(g, ctx, "mcp__github__create_issue")
	pd := prompter.next(t)
	abort()
	if err := result(t, done); !errors.Is(err, context.Canceled) {
		t.Fatalf("Admit = %v, want context.Canceled", err)
	}
	select {
	case <-pd.ctx.Done():
	case <-timeAfterGuard():
		t.Fatal("the prompt's context was not cancelled")
	}
	// The gate goes on with the next question.
	next := admitAsync(g, context.Background(), "mcp__github__get_me")
	prompter.next(t).answer <- permissions.Answer{Kind: permissions.AllowOnce}
	if err := result(t, next); err != nil {
		t.Fatal(err)
	}
}

// Proves PERM-1.
func TestPERM1_AbortDropsAQueuedQuestion(t *testing.T) {
	prompter := newScriptedPrompter()
	g := startGate(t, &memoryStore{}, prompter)
	first := admitAsync(g, context.Background(), "mcp__a__first")
	pd := prompter.next(t)

	ctx, abort := context.WithCancel(context.Background())
	queued := admitAsync(g, ctx, "mcp__a__queued")
	waitQueued(t, g, 1)
	abort()
	if err := result(t, queued); !errors.Is(err, context.Canceled) {
		t.Fatalf("Admit = %v, want context.Canceled", err)
	}
	waitQueued(t, g, 0)
	pd.answer <- permissions.Answer{Kind: permissions.AllowOnce}
	if err := result(t, first); err != nil {
		t.Fatal(err)
	}
	if n, _ := prompter.stats(); n != 1 {
		t.Errorf("asked %d times, want 1 (the aborted call must never be asked)", n)
	}
}

// Proves PERM-1.
func TestPERM1_PrompterFailureIsNotADenial(t *testing.T) {
	prompter := newScriptedPrompter()
	g := startGate(t, &memoryStore{}, prompter)
	done := admitAsync(g, context.Background(), "mcp__a__b")
	prompter.next(t).err <- errors.New("ui socket closed: /run/secret")
	err := result(t, done)
	var prompt *permissions.PromptError
	if !errors.As(err, &prompt) {
		t.Fatalf("Admit = %v, want a *PromptError", err)
	}
	var denied *permissions.DeniedError
	if errors.As(err, &denied) {
		t.Error("a failed prompt must not look like a denial")
	}
	if strings.Contains(err.Error(), "secret") {
		t.Errorf("message %q leaks the prompter's internals", err)
	}
}

// Proves PERM-1.
func TestPERM1_StopAnswersOpenQuestions(t *testing.T) {
	prompter := newScriptedPrompter()
	g, err := actors.StartGate(newSystem(t), actors.GateOptions{Store: &memoryStore{}, Prompter: prompter})
	if err != nil {
		t.Fatal(err)
	}
	onScreen := admitAsync(g, context.Background(), "mcp__a__one")
	pd := prompter.next(t)
	queued := admitAsync(g, context.Background(), "mcp__a__two")
	waitQueued(t, g, 1)
	g.Stop()
	for _, d := range []<-chan error{onScreen, queued} {
		if err := result(t, d); !errors.Is(err, permissions.ErrGateStopped) {
			t.Errorf("Admit = %v, want ErrGateStopped", err)
		}
	}
	if pd.ctx.Err() == nil {
		t.Error("the prompt on screen was not cancelled")
	}
	if err := g.Admit(context.Background(), "mcp__a__three", nil); !errors.Is(err, permissions.ErrGateStopped) {
		t.Errorf("Admit after Stop = %v, want ErrGateStopped", err)
	}
	checkNoLeaks(t)
}
