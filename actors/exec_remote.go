package actors

import (
	"context"
	"encoding/json"
	"sync"
	"time"

	"github.com/asynkron/protoactor-go/actor"

	"github.com/mcpexec/mcpexec/internal/telemetry"
	"github.com/mcpexec/mcpexec/nodes/nodepb"
	"github.com/mcpexec/mcpexec/pause"
	"github.com/mcpexec/mcpexec/sandbox"
)

// Placement puts runs on sandbox nodes (other machines). An Execs with a
// Placement runs every script on a node: its exec actor stays here, with
// the funnel, and the run's sandbox actor runs on the node, spawned there
// by Place.
type Placement interface {
	// Place spawns a sandbox actor for one run on a node and returns its
	// PID, and done, to call once the run is over. It fails when no node
	// can take the run or ctx ends first.
	Place(ctx context.Context) (sandbox *actor.PID, done func(), err error)
}

// abortGrace is how long a node may take to report a run after it was
// aborted before the run ends without its report.
const abortGrace = 2 * time.Second

// remoteRun is an exec actor's state when its sandbox actor is on a node:
// the host's half of the run (sandbox.RemoteRun), which checks every call
// the node asks for, and the context the run's nested calls run under.
type remoteRun struct {
	node *actor.PID
	// tell sends the node a message from the exec actor, from any
	// goroutine: the node takes messages about the run from it alone.
	tell func(msg any)
	run  *sandbox.RemoteRun
	done func() // releases the node's share of the run

	callCtx context.Context
	endRun  context.CancelFunc
	aborted bool
	span    *telemetry.Run // the run's span, a child of the Exec's
}

// The exec actor's own messages about a remote run.
type (
	// nodeGone follows a Terminated of the node's sandbox actor through the
	// user mailbox, behind any report that arrived before it.
	nodeGone struct{ addressLost bool }
	// nodeSilent: the host's budget for the run is spent.
	nodeSilent struct{}
	// runCancelled: the Exec call's context ended.
	runCancelled struct{}
	// abortOverdue: the node did not report an aborted run in time.
	abortOverdue struct{}
)

// startRemote starts the run on the node's sandbox actor.
func (a *execActor) startRemote(c actor.Context) {
	r := a.remote
	r.run = sandbox.NewRemoteRun(a.req.Script)
	root, self := c.ActorSystem().Root, c.Self()
	r.tell = func(msg any) { root.RequestWithCustomSender(r.node, msg, self) }
	runCtx, span := a.req.Telemetry.StartRun(a.ctx)
	r.span = span
	ctx, cancel := context.WithCancel(runCtx)
	r.endRun = cancel
	r.callCtx = pause.WithClock(ctx, &nodeWaits{run: r.run, send: func(paused bool) {
		r.tell(&nodepb.PersonWait{Paused: paused})
	}})
	limits, err := json.Marshal(r.run.Limits())
	if err != nil {
		a.answer(sandbox.CrashResult(nil))
		return
	}
	c.Watch(r.node)
	c.Request(r.node, &nodepb.StartRun{
		Code: a.req.Script.Code, Tools: a.req.Script.Tools.Names(), Down: a.req.Script.Tools.Down(), Limits: limits,
		State: r.run.HasState(), Keep: r.run.Keep(), KeepId: r.run.KeepID(),
	})
	context.AfterFunc(a.ctx, func() { root.Send(self, &runCancelled{}) })
	expired := r.run.Expired()
	go func() {
		select {
		case <-expired:
			root.Send(self, &nodeSilent{})
		case <-ctx.Done():
		}
	}()
}

// receiveRemote handles the messages of a remote run and reports whether m
// was one.
func (a *execActor) receiveRemote(c actor.Context, m any) bool {
	r := a.remote
	switch m := m.(type) {
	case *nodepb.RunStarted:
		if a.fromNode(c) {
			r.run.Started()
		}
	case *nodepb.CallCounted:
		if a.fromNode(c) {
			r.run.Called(m.Name)
		}
	case *nodepb.NestedCall:
		if a.fromNode(c) {
			a.startRemoteCall(c, m)
		}
	case *nodepb.ConsoleText:
		if a.fromNode(c) {
			r.run.Log(m.Text)
		}
	case *nodepb.StateCall:
		if a.fromNode(c) {
			go func() {
				value, found, err := r.run.ServeState(m.Store, m.Key, m.Value)
				r.tell(&nodepb.StateAnswer{Id: m.Id, Value: value, Found: found, Error: errMessage(err)})
			}()
		}
	case *nodepb.ResultPart:
		if a.fromNode(c) {
			r.run.Part(m.Data)
		}
	case *nodepb.RunDone:
		if !a.fromNode(c) {
			return true
		}
		var res sandbox.Result
		if err := json.Unmarshal(m.Result, &res); err != nil {
			a.logger.Warn().Err(err).Str("node", r.node.Address).Msg("exec: unreadable report from a sandbox node")
			a.answerRemote(c, r.run.Lost())
			return true
		}
		if !res.OK && r.aborted {
			res = r.run.Aborted()
		}
		a.answerRemote(c, r.run.Finish(res))
	case *actor.Terminated:
		if m.Who.Equal(r.node) {
			// Through the user mailbox: a report sent before the node's
			// actor stopped is handled first.
			c.Send(c.Self(), &nodeGone{addressLost: m.Why == actor.TerminatedReason_AddressTerminated})
		}
	case *nodeGone:
		if m.addressLost {
			a.logger.Warn().Str("node", r.node.Address).Msg("exec: sandbox node lost during a run")
			a.answerRemote(c, r.run.Lost())
		} else {
			a.answerRemote(c, r.run.Crashed())
		}
	case *nodeSilent:
		a.logger.Warn().Str("node", r.node.Address).Msg("exec: sandbox node did not report a run in time")
		a.answerRemote(c, r.run.Silent())
	case *runCancelled:
		if !a.answered {
			r.aborted = true
			r.tell(&nodepb.AbortRun{})
			self := c.Self()
			time.AfterFunc(abortGrace, func() { c.ActorSystem().Root.Send(self, &abortOverdue{}) })
		}
	case *abortOverdue:
		a.answerRemote(c, r.run.Aborted())
	default:
		return false
	}
	return true
}

// fromNode reports whether the message in hand came from the run's node:
// another sender gets no say in this run.
func (a *execActor) fromNode(c actor.Context) bool {
	if s := c.Sender(); s != nil && s.Equal(a.remote.node) {
		return true
	}
	a.logger.Warn().Str("message", typeName(c.Message())).Msg("exec: message from a stranger to a remote run dropped")
	return false
}

// startRemoteCall checks a nested call the node asks for, as the host's
// half of the run, and runs it on the funnel on a goroutine of its own.
func (a *execActor) startRemoteCall(c actor.Context, call *nodepb.NestedCall) {
	r := a.remote
	if refusal := r.run.Admit(call.Search, call.Name); refusal != "" {
		a.logger.Warn().Str("node", r.node.Address).Str("tool", call.Name).Msg("exec: sandbox node asked for a call its run may not make")
		r.tell(&nodepb.CallAnswer{Id: call.Id, Error: refusal})
		return
	}
	route, logger := a.route, a.logger
	go func() {
		res, err := route.observed(r.callCtx, call.Search, call.Name, call.Args, logger)
		answer := &nodepb.CallAnswer{Id: call.Id, Value: res.Value}
		if err != nil {
			answer.Error = err.Error()
		} else if !call.Search {
			answer.Images = int32(r.run.KeepImages(res.Images))
		}
		r.tell(answer)
	}()
}

// answerRemote answers the Exec call and lets go of the node's sandbox
// actor, stopping it if it is still there.
func (a *execActor) answerRemote(c actor.Context, res sandbox.Result) {
	if a.answered {
		return
	}
	r := a.remote
	r.endRun()
	c.Unwatch(r.node)
	c.Stop(r.node)
	if r.done != nil {
		r.done()
	}
	r.span.End(res.Outcome())
	a.answer(res)
}

// nodeWaits is the budget clock of a remote run's nested calls: a person
// wait stops the host's budget and tells the node, whose worker stops the
// script's own clock while the script is idle.
type nodeWaits struct {
	run  *sandbox.RemoteRun
	send func(paused bool)
}

func (w *nodeWaits) Pause() (resume func()) {
	end := w.run.Pause()
	w.send(true)
	var once sync.Once
	return func() {
		once.Do(func() {
			end()
			w.send(false)
		})
	}
}

func errMessage(err error) string {
	if err == nil {
		return ""
	}
	return err.Error()
}
