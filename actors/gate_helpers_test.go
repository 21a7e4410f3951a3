package actors_test

import (
	"context"
	"runtime"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/asynkron/protoactor-go/actor"

	"github.com/mcpexec/mcpexec/actors"
	"github.com/mcpexec/mcpexec/internal/testkit"
	"github.com/mcpexec/mcpexec/messages"
	"github.com/mcpexec/mcpexec/permissions"
)

// newBenchSystem is an actor system whose own logger is silent.
func newBenchSystem(tb testing.TB) *actor.ActorSystem {
	tb.Helper()
	return testkit.ActorSystem(tb)
}

// memoryStore is a RuleStore holding its configuration in memory.
type memoryStore struct {
	mu    sync.Mutex
	cfg   messages.Config
	saved []string
	fail  error
}

func (s *memoryStore) Current() messages.Config {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.cfg
}

func (s *memoryStore) AllowAlways(_ context.Context, rule string) error {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.fail != nil {
		return s.fail
	}
	s.saved = append(s.saved, rule)
	s.cfg.Allow = append(append([]string(nil), s.cfg.Allow...), rule)
	return nil
}

func (s *memoryStore) savedRules() []string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return append([]string(nil), s.saved...)
}

// scriptedPrompter hands every question to the test through asked and
// answers with what the test sends on the question's reply channel.
type scriptedPrompter struct {
	asked chan *pending
	mu    sync.Mutex
	open  int // prompts being asked right now
	most  int // the most ever open at once
	count int
}

type pending struct {
	q      permissions.Question
	ctx    context.Context
	answer chan permissions.Answer
	err    chan error
}

func newScriptedPrompter() *scriptedPrompter {
	return &scriptedPrompter{asked: make(chan *pending, 64)}
}

func (p *scriptedPrompter) Ask(ctx context.Context, q permissions.Question) (permissions.Answer, error) {
	p.mu.Lock()
	p.open++
	p.count++
	p.most = max(p.most, p.open)
	p.mu.Unlock()
	defer func() {
		p.mu.Lock()
		p.open--
		p.mu.Unlock()
	}()
	pd := &pending{q: q, ctx: ctx, answer: make(chan permissions.Answer, 1), err: make(chan error, 1)}
	p.asked <- pd
	select {
	case a := <-pd.answer:
		return a, nil
	case err := <-pd.err:
		return permissions.Answer{}, err
	case <-ctx.Done():
		return permissions.Answer{}, ctx.Err()
	}
}

func (p *scriptedPrompter) stats() (count, most int) {
	p.mu.Lock()
	defer p.mu.Unlock()
	return p.count, p.most
}

// next waits for the next question put to the person.
func (p *scriptedPrompter) next(t *testing.T) *pending {
	t.Helper()
	select {
	case pd := <-p.asked:
		return pd
	case <-time.After(guard):
		t.Fatal("no question was asked")
		return nil
	}
}

// noPrompter fails the test when anyone is asked.
func noPrompter(t *testing.T) permissions.Prompter {
	return permissions.PrompterFunc(func(context.Context, permissions.Question) (permissions.Answer, error) {
		t.Error("the person was asked, but the rules settle this call")
		return permissions.Answer{}, nil
	})
}

// admitAsync runs Admit on its own goroutine.
func admitAsync(g *actors.Gate, ctx context.Context, tool string) <-chan error {
	done := make(chan error, 1)
	go func() { done <- g.Admit(ctx, tool, []byte(`{}`)) }()
	return done
}

func result(t *testing.T, done <-chan error) error {
	t.Helper()
	select {
	case err := <-done:
		return err
	case <-time.After(guard):
		t.Fatal("Admit did not return")
		return nil
	}
}

// checkNoLeaks fails when goroutines of this module outlive the test.
func checkNoLeaks(t *testing.T) {
	t.Helper()
	deadline := time.Now().Add(guard)
	for {
		leaked := moduleGoroutines()
		if len(leaked) == 0 {
			return
		}
		if time.Now().After(deadline) {
			t.Fatalf("goroutines leaked:\n%s", strings.Join(leaked, "\n\n"))
		}
		runtime.Gosched()
		time.Sleep(time.Millisecond)
	}
}

func moduleGoroutines() []string {
	buf := make([]byte, 1<<20)
	buf = buf[:runtime.Stack(buf, true)]
	var leaked []string
	for _, g := range strings.Split(string(buf), "\n\n") {
		if strings.Contains(g, "testing.tRunner") || strings.Contains(g, "testing.(*M)") {
			continue
		}
		if strings.Contains(g, "github.com/mcpexec/mcpexec/") {
			leaked = append(leaked, g)
		}
	}
	return leaked
}

// waitUntil polls cond until it holds; the guard only turns a hang into a
// failure.
func waitUntil(t *testing.T, cond func() bool) {
	t.Helper()
	deadline := time.Now().Add(guard)
	for !cond() {
		if time.Now().After(deadline) {
			t.Fatal("condition not reached")
		}
		time.Sleep(time.Millisecond)
	}
}

func timeAfterGuard() <-chan time.Time { return time.After(guard) }
