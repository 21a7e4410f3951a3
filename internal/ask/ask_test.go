package ask_test

import (
	"context"
	"errors"
	"testing"

	"github.com/asynkron/protoactor-go/actor"

	"github.com/mcpexec/mcpexec/internal/ask"
	"github.com/mcpexec/mcpexec/internal/testkit"
)

type ping struct{ n int }
type pong struct{ n int }

// echo answers a ping with a pong, ignores "silent" and answers anything
// else with the wrong type.
func echo(c actor.Context) {
	switch m := c.Message().(type) {
	case *ping:
		c.Respond(&pong{n: m.n})
	case string:
		if m != "silent" {
			c.Respond(42)
		}
	}
}

func TestRequest(t *testing.T) {
	system := testkit.ActorSystem(t)
	pid := system.Root.Spawn(actor.PropsFromFunc(echo))
	ctx := context.Background()

	if got, err := ask.Request[*pong](ctx, system, pid, &ping{n: 7}); err != nil || got.n != 7 {
		t.Fatalf("Request = %+v, %v; want pong 7", got, err)
	}
	if _, err := ask.Request[*pong](ctx, system, pid, "wrong"); err == nil {
		t.Fatal("a reply of the wrong type was accepted")
	}
	cancelled, cancel := context.WithCancel(ctx)
	cancel()
	if _, err := ask.Request[*pong](cancelled, system, pid, "silent"); !errors.Is(err, context.Canceled) {
		t.Fatalf("Request with an ended context = %v", err)
	}
	_ = system.Root.StopFuture(pid).Wait()
	if _, err := ask.Request[*pong](ctx, system, pid, &ping{}); !errors.Is(err, ask.ErrStopped) {
		t.Fatalf("Request to a stopped actor = %v, want ErrStopped", err)
	}
}

// A supervisor answers the asker whose message made an actor fail with
// Crashed; Request turns it into a *CrashError.
func TestRequestAnsweredByASupervisor(t *testing.T) {
	system := testkit.ActorSystem(t)
	pid := system.Root.Spawn(actor.PropsFromFunc(func(c actor.Context) {
		if _, ok := c.Message().(*ping); ok {
			c.Respond(&ask.Crashed{Reason: "boom"})
		}
	}))
	var crashed *ask.CrashError
	if _, err := ask.Request[*pong](context.Background(), system, pid, &ping{}); !errors.As(err, &crashed) || crashed.Reason != "boom" {
		t.Fatalf("Request = %v, want a CrashError", err)
	}
}
