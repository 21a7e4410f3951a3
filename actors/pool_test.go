package actors_test

import (
	"context"
	"encoding/json"
	"errors"
	"log/slog"
	"runtime"
	"strings"
	"testing"
	"time"

	"github.com/asynkron/protoactor-go/actor"

	"github.com/mcpexec/mcpexec/actors"
	"github.com/mcpexec/mcpexec/internal/testservers"
	"github.com/mcpexec/mcpexec/messages"
	"github.com/mcpexec/mcpexec/permissions"
	"github.com/mcpexec/mcpexec/pool"
)

// The permission gate plugs into the funnel as it is.
var _ pool.Gate = (*actors.Gate)(nil)

// The pool constructor's exclusion comes from permissions.Excludes.
func excludeFor(cfg messages.Config) pool.Exclude {
	return func(name string) bool { return permissions.Excludes(cfg, name) }
}

// guard bounds every wait; reaching it is a failure, never the expected path.
const guard = 30 * time.Second

func newSystem(t *testing.T) *actor.ActorSystem {
	t.Helper()
	system := actor.NewActorSystem(actor.WithLoggerFactory(func(*actor.ActorSystem) *slog.Logger {
		return slog.New(slog.DiscardHandler)
	}))
	t.Cleanup(system.Shutdown)
	return system
}

func behaviour(name string) pool.ServerConfig {
	return pool.ServerConfig{Name: name, Dial: testservers.DialInMemory(testservers.Behaviour(testservers.BehaviourOptions{}))}
}

func startPool(t *testing.T, system *actor.ActorSystem, cfg actors.PoolConfig) *actors.Pool {
	t.Helper()
	p, err := actors.StartPool(system, cfg)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(p.Stop)
	return p
}

func request[T any](t *testing.T, system *actor.ActorSystem, pid *actor.PID, msg any) T {
	t.Helper()
	res, err := system.Root.RequestFuture(pid, msg, guard).Result()
	if err != nil {
		t.Fatalf("%T: %v", msg, err)
	}
	reply, ok := res.(T)
	if !ok {
		t.Fatalf("%T: reply %T", msg, res)
	}
	return reply
}

// collector is a subscriber actor forwarding what it receives to a channel.
func collector(system *actor.ActorSystem) (*actor.PID, chan *actors.PoolChanged) {
	ch := make(chan *actors.PoolChanged, 64)
	pid := system.Root.Spawn(actor.PropsFromFunc(func(c actor.Context) {
		if m, ok := c.Message().(*actors.PoolChanged); ok {
			ch <- m
		}
	}))
	return pid, ch
}

// waitChange reads PoolChanged messages until cond holds for one.
func waitChange(t *testing.T, ch chan *actors.PoolChanged, what string, cond func(*pool.Snapshot) bool) *pool.Snapshot {
	t.Helper()
	timeout := time.After(guard)
	for {
		select {
		case m := <-ch:
			if cond(m.Snapshot) {
				return m.Snapshot
			}
		case <-timeout:
			t.Fatalf("no PoolChanged with %s", what)
		}
	}
}

// subscribe registers a collector and waits until the pool holds name.
func subscribe(t *testing.T, system *actor.ActorSystem, p *actors.Pool, name string) (*actor.PID, chan *actors.PoolChanged) {
	t.Helper()
	sub, changes := collector(system)
	system.Root.Send(p.PID(), &actors.SubscribePool{Subscriber: sub})
	waitChange(t, changes, name, hasTool(name))
	return sub, changes
}

func hasTool(name string) func(*pool.Snapshot) bool {
	return func(s *pool.Snapshot) bool { _, ok := s.Lookup(name); return ok }
}

// Proves CONV-7.
func TestCONV7_PoolActorAnswersSnapshotsAndTellsSubscribers(t *testing.T) {
	system := newSystem(t)
	p := startPool(t, system, actors.PoolConfig{Servers: []pool.ServerConfig{behaviour("b")}})
	_, changes := subscribe(t, system, p, "mcp__b__text")

	if _, ok := p.Snapshot().Lookup("mcp__b__text"); !ok {
		t.Fatalf("snapshot lacks the tool")
	}
	// A tool added at run time reaches subscribers.
	if _, err := p.Call(context.Background(), "mcp__b__add_tool", json.RawMessage(`{"name":"fresh"}`)); err != nil {
		t.Fatal(err)
	}
	waitChange(t, changes, "the added tool", hasTool("mcp__b__fresh"))
	if status := p.Status(); len(status) != 1 || status[0].State != pool.StateConnected {
		t.Fatalf("status %+v", status)
	}
}

// Proves NFR-3.
func TestNFR3_PoolActorCallsGoThroughTheFunnel(t *testing.T) {
	system := newSystem(t)
	gate := &denyGate{tool: "mcp__b__echo"}
	p := startPool(t, system, actors.PoolConfig{
		Servers: []pool.ServerConfig{behaviour("b")},
		Options: pool.Options{Gate: gate},
	})
	subscribe(t, system, p, "mcp__b__text")

	ok, err := p.Call(context.Background(), "mcp__b__text", json.RawMessage(`{}`))
	if err != nil || ok.Value != "first\nsecond" {
		t.Fatalf("reply %+v, %v", ok, err)
	}
	_, err = p.Call(context.Background(), "mcp__b__echo", nil)
	var ce *pool.CallError
	if !errors.As(err, &ce) || ce.Kind != pool.KindDenied {
		t.Fatalf("denied call: %v", err)
	}
}

// signalGate admits every call and signals each one.
type signalGate chan struct{}

func (g signalGate) Admit(context.Context, string, json.RawMessage) error {
	g <- struct{}{}
	return nil
}

type denyGate struct{ tool string }

func (g *denyGate) Admit(_ context.Context, name string, _ json.RawMessage) error {
	if name == g.tool {
		return errors.New("denied by rule")
	}
	return nil
}

func TestPoolCancelAndDeadlineEndHangingCalls(t *testing.T) {
	system := newSystem(t)
	p := startPool(t, system, actors.PoolConfig{Servers: []pool.ServerConfig{behaviour("b")}})
	subscribe(t, system, p, "mcp__b__hang")

	ctx, cancel := context.WithCancel(context.Background())
	hung := make(chan error, 1)
	go func() {
		_, err := p.Call(ctx, "mcp__b__hang", nil)
		hung <- err
	}()
	// Other calls are not held up by the hanging one.
	if _, err := p.Call(context.Background(), "mcp__b__text", nil); err != nil {
		t.Fatal(err)
	}
	cancel()
	if err := <-hung; !errors.Is(err, context.Canceled) {
		t.Fatalf("cancelled call: %v", err)
	}
	late, stop := context.WithTimeout(context.Background(), time.Millisecond)
	defer stop()
	if _, err := p.Call(late, "mcp__b__hang", nil); !errors.Is(err, context.DeadlineExceeded) || !strings.Contains(err.Error(), "did not finish") {
		t.Fatalf("deadline: %v", err)
	}
}

// Proves CONV-6.
func TestCONV6_ConfigChangedExcludesDeniedTools(t *testing.T) {
	system := newSystem(t)
	p := startPool(t, system, actors.PoolConfig{Servers: []pool.ServerConfig{behaviour("b")}, ExcludeFor: excludeFor})
	_, changes := subscribe(t, system, p, "mcp__b__text")

	system.Root.Send(p.PID(), &messages.ConfigChanged{Config: messages.Config{Deny: []string{"mcp__b__text"}}})
	snap := waitChange(t, changes, "text excluded", func(s *pool.Snapshot) bool { return !hasTool("mcp__b__text")(s) })
	if !hasTool("mcp__b__image")(snap) {
		t.Fatal("only the denied tool may go")
	}
	_, err := p.Call(context.Background(), "mcp__b__text", nil)
	var ce *pool.CallError
	if !errors.As(err, &ce) || ce.Kind != pool.KindUnknownTool {
		t.Fatalf("excluded tool called: %v", err)
	}
	// A failed reload keeps the last exclusion.
	system.Root.Send(p.PID(), &messages.ConfigChanged{Err: errors.New("bad file")})
	// (the mailbox is ordered: once a subscription is answered, the
	// ConfigChanged before it was handled)
	subscribe(t, system, p, "mcp__b__image")
	if hasTool("mcp__b__text")(p.Snapshot()) {
		t.Fatal("a failed reload lifted the exclusion")
	}
	// disallowedTools naming the whole server empties the pool.
	system.Root.Send(p.PID(), &messages.ConfigChanged{Config: messages.Config{DisallowedTools: []string{"mcp__b"}}})
	waitChange(t, changes, "server b disallowed", func(s *pool.Snapshot) bool { return s.Len() == 0 })
}

func TestPoolActorStopLeavesNothingRunning(t *testing.T) {
	system := newSystem(t)
	baseline := runtime.NumGoroutine()
	admitted := make(chan struct{}, 1)
	p, err := actors.StartPool(system, actors.PoolConfig{Servers: []pool.ServerConfig{behaviour("b")},
		Options: pool.Options{Gate: signalGate(admitted)}})
	if err != nil {
		t.Fatal(err)
	}
	sub, _ := subscribe(t, system, p, "mcp__b__hang")
	hung := make(chan error, 1)
	go func() {
		_, err := p.Call(context.Background(), "mcp__b__hang", nil)
		hung <- err
	}()
	<-admitted // past the gate: the call is on its way to the server
	p.Stop()
	if err := <-hung; !errors.Is(err, context.Canceled) {
		t.Fatalf("call in flight at Stop: %v", err)
	}
	_ = system.Root.StopFuture(sub).Wait()
	deadline := time.Now().Add(guard)
	for runtime.NumGoroutine() > baseline {
		if time.Now().After(deadline) {
			buf := make([]byte, 1<<20)
			t.Fatalf("goroutines %d > %d\n%s", runtime.NumGoroutine(), baseline, buf[:runtime.Stack(buf, true)])
		}
		time.Sleep(10 * time.Millisecond)
	}
}

func TestStartPoolRejectsDuplicateNames(t *testing.T) {
	if _, err := actors.StartPool(newSystem(t), actors.PoolConfig{Servers: []pool.ServerConfig{behaviour("x"), behaviour("x")}}); err == nil {
		t.Fatal("duplicate names accepted")
	}
}
