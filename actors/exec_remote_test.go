package actors_test

import (
	"context"
	"encoding/json"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/asynkron/protoactor-go/actor"
	"github.com/rs/zerolog"

	"github.com/mcpexec/mcpexec/actors"
	"github.com/mcpexec/mcpexec/internal/testkit"
	"github.com/mcpexec/mcpexec/nodes/nodepb"
	"github.com/mcpexec/mcpexec/sandbox"
)

// hostileNode stands in for a sandbox node that runs model code and may be
// compromised: on StartRun it does whatever its script says, and hands
// every message it gets afterwards to the test.
type hostileNode struct {
	onStart func(c actor.Context, exec *actor.PID)
	// onAnswer, if set, also hears the answers to its calls.
	onAnswer func(c actor.Context, exec *actor.PID, m *nodepb.CallAnswer)
	got      chan any

	exec *actor.PID
}

func (n *hostileNode) Receive(c actor.Context) {
	switch m := c.Message().(type) {
	case *nodepb.StartRun:
		n.exec = c.Sender()
		n.onStart(c, n.exec)
	case *nodepb.CallAnswer:
		n.got <- m
		if n.onAnswer != nil {
			n.onAnswer(c, n.exec, m)
		}
	case *nodepb.AbortRun, *nodepb.PersonWait:
		n.got <- m
	}
}

// onePlace places every run on one actor of the same system.
type onePlace struct {
	pid    *actor.PID
	placed atomic.Int32
	done   atomic.Int32
}

func (p *onePlace) Place(context.Context) (*actor.PID, func(), error) {
	p.placed.Add(1)
	return p.pid, func() { p.done.Add(1) }, nil
}

// remoteFixture runs Execs whose sandbox actor is a hostileNode.
func remoteFixture(t *testing.T, node *hostileNode) (*actors.Execs, *onePlace) {
	t.Helper()
	system := testkit.ActorSystem(t)
	place := &onePlace{pid: system.Root.Spawn(actor.PropsFromProducer(func() actor.Actor { return node }))}
	execs := actors.NewExecs(system, nil, zerolog.Nop())
	execs.PlaceOn(place)
	return execs, place
}

func reportDone(c actor.Context, exec *actor.PID, res sandbox.Result) {
	data, _ := json.Marshal(res)
	c.Request(exec, &nodepb.RunDone{Result: data})
}

// A node is untrusted: a call outside its run's tool set, or over the
// call cap, is refused by the daemon whatever the node claims, and never
// reaches the funnel.
func TestRemoteRunRefusesCallsOutsideTheToolSetOrCap(t *testing.T) {
	answers := make(chan any, 8)
	node := &hostileNode{got: answers, onStart: func(c actor.Context, exec *actor.PID) {
		c.Request(exec, &nodepb.NestedCall{Id: 1, Name: "mcp__srv__secret", Args: json.RawMessage(`{}`)})
		c.Request(exec, &nodepb.NestedCall{Id: 2, Name: "mcp__srv__echo", Args: json.RawMessage(`{}`)})
		c.Request(exec, &nodepb.NestedCall{Id: 3, Name: "mcp__srv__echo", Args: json.RawMessage(`{}`)})
	}}
	execs, place := remoteFixture(t, node)
	var funnelCalls atomic.Int32
	host := toolHost{"mcp__srv__echo": func(context.Context, json.RawMessage) (sandbox.CallResult, error) {
		funnelCalls.Add(1)
		return sandbox.CallResult{Value: json.RawMessage(`"echoed"`)}, nil
	}}
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	done := make(chan sandbox.Result, 1)
	go func() {
		done <- execs.Run(ctx, actors.ExecRequest{Script: sandbox.Request{
			Code: "return 1", Tools: sandbox.NewToolSet(host.names()), Host: host, Limits: sandbox.Limits{MaxCalls: 2},
		}})
	}()
	byID := map[uint64]*nodepb.CallAnswer{}
	for len(byID) < 3 {
		a := (<-answers).(*nodepb.CallAnswer)
		byID[a.Id] = a
	}
	if a := byID[1]; a.Error == "" || a.Value != nil {
		t.Errorf("call outside the tool set: %+v, want a refusal", a)
	}
	if a := byID[2]; a.Error != "" || string(a.Value) != `"echoed"` {
		t.Errorf("call in the tool set: %+v, want its result", a)
	}
	if a := byID[3]; a.Error == "" {
		t.Errorf("call over the cap: %+v, want a refusal", a)
	}
	if n := funnelCalls.Load(); n != 1 {
		t.Errorf("the funnel ran %d calls, want only the admitted one", n)
	}
	cancel()
	<-done
	if place.done.Load() != place.placed.Load() {
		t.Errorf("%d runs placed, %d released", place.placed.Load(), place.done.Load())
	}
}

// A node that starts a run and never reports it is given up on once the
// host's budget is spent: the run fails with the silent-machine text, and
// the node's actor is stopped.
func TestRemoteRunEndsWhenTheNodeStopsAnswering(t *testing.T) {
	node := &hostileNode{got: make(chan any, 8), onStart: func(c actor.Context, exec *actor.PID) {
		c.Request(exec, &nodepb.RunStarted{})
	}}
	execs, place := remoteFixture(t, node)
	res := execs.Run(context.Background(), actors.ExecRequest{Script: sandbox.Request{
		Code: "return 1", Tools: sandbox.NewToolSet(nil), Limits: sandbox.Limits{Timeout: 50 * time.Millisecond},
	}})
	if res.OK || res.Error != sandbox.MsgMachineSilent {
		t.Errorf("result %+v, want the silent-machine failure", res)
	}
	if place.done.Load() != 1 {
		t.Errorf("the run was not released from its node")
	}
}

// Cancelling an Exec call aborts the run on its node; a node that does not
// report the aborted run still leaves the call with the Aborted failure.
func TestRemoteRunAbortReachesTheNode(t *testing.T) {
	got := make(chan any, 8)
	node := &hostileNode{got: got, onStart: func(c actor.Context, exec *actor.PID) {
		c.Request(exec, &nodepb.CallCounted{Name: "mcp__srv__echo"})
		c.Request(exec, &nodepb.ConsoleText{Text: "working\n"})
	}}
	execs, _ := remoteFixture(t, node)
	ctx, cancel := context.WithCancel(context.Background())
	progress := make(chan string, 1)
	done := make(chan sandbox.Result, 1)
	go func() {
		done <- execs.Run(ctx, actors.ExecRequest{
			Script:     sandbox.Request{Code: "return 1", Tools: sandbox.NewToolSet(nil)},
			OnProgress: func(summary string) { progress <- summary },
		})
	}()
	<-progress
	cancel()
	if _, ok := (<-got).(*nodepb.AbortRun); !ok {
		t.Fatalf("the node was not told to abort")
	}
	res := <-done
	if res.OK || !strings.Contains(res.Error, "Aborted") || !strings.Contains(res.Logs, "working") || len(res.Calls) != 1 {
		t.Errorf("result %+v, want Aborted with the console output and the call so far", res)
	}
}

// A node's report is the run's result, with the images the daemon kept
// from the calls: only their number crossed to the node.
func TestRemoteRunReportsTheNodesResultWithTheImagesKeptHere(t *testing.T) {
	got := make(chan any, 8)
	node := &hostileNode{got: got, onStart: func(c actor.Context, exec *actor.PID) {
		c.Request(exec, &nodepb.NestedCall{Id: 1, Name: "mcp__srv__picture", Args: json.RawMessage(`{}`)})
	}, onAnswer: func(c actor.Context, exec *actor.PID, _ *nodepb.CallAnswer) {
		reportDone(c, exec, sandbox.Result{OK: true, Text: "42", Value: json.RawMessage(`42`)})
	}}
	execs, _ := remoteFixture(t, node)
	picture := sandbox.Image{MIMEType: "image/png", Data: []byte{1, 2, 3}}
	host := toolHost{"mcp__srv__picture": func(context.Context, json.RawMessage) (sandbox.CallResult, error) {
		return sandbox.CallResult{Value: json.RawMessage(`null`), Images: []sandbox.Image{picture}}, nil
	}}
	done := make(chan sandbox.Result, 1)
	go func() {
		done <- execs.Run(context.Background(), actors.ExecRequest{Script: sandbox.Request{
			Code: "return 42", Tools: sandbox.NewToolSet(host.names()), Host: host,
		}})
	}()
	answer := (<-got).(*nodepb.CallAnswer)
	if answer.Images != 1 {
		t.Errorf("answer %+v, want one image counted", answer)
	}
	res := <-done
	if !res.OK || res.Text != "42" || len(res.Images) != 1 || string(res.Images[0].Data) != string(picture.Data) {
		t.Errorf("result %+v, want the node's with the image", res)
	}
}
