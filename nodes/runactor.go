package nodes

import (
	"context"
	"encoding/json"
	"sync"

	"github.com/asynkron/protoactor-go/actor"
	"github.com/rs/zerolog"

	"github.com/mcpexec/mcpexec/actors"
	"github.com/mcpexec/mcpexec/nodes/nodepb"
	"github.com/mcpexec/mcpexec/pause"
	"github.com/mcpexec/mcpexec/sandbox"
)

// runActor is a sandbox actor on a node: it runs one script, sent by the
// run's exec actor in the daemon (StartRun's sender), on one worker of the
// node's pool. Every nested call, console line and the outcome go back to
// that exec actor as messages; the node never talks to an MCP server.
type runActor struct {
	workers actors.WorkerSource
	logger  zerolog.Logger

	exec   *actor.PID
	cancel context.CancelFunc
	done   chan struct{}
	host   *nodeHost
	state  *nodeState // nil when the run has no state
	waits  []func()   // the daemon's person waits, open
}

// runFinished carries the run's outcome from its goroutine to the actor.
type runFinished struct{ result sandbox.Result }

func (a *runActor) Receive(c actor.Context) {
	switch m := c.Message().(type) {
	case *nodepb.StartRun:
		a.start(c, m)
	case *nodepb.CallAnswer:
		if a.fromExec(c) {
			a.host.answer(m)
		}
	case *nodepb.StateAnswer:
		if a.fromExec(c) && a.state != nil {
			a.state.answer(m)
		}
	case *nodepb.PersonWait:
		if !a.fromExec(c) {
			return
		}
		if m.Paused {
			a.waits = append(a.waits, pause.ForPerson(a.host.callContext()))
		} else if n := len(a.waits); n > 0 {
			a.waits[n-1]()
			a.waits = a.waits[:n-1]
		}
	case *nodepb.AbortRun:
		if a.fromExec(c) && a.cancel != nil {
			a.cancel()
		}
	case *actor.Terminated:
		// The daemon went away: nobody waits for this run any more.
		if a.exec != nil && m.Who.Equal(a.exec) && a.cancel != nil {
			a.logger.Warn().Str("daemon", a.exec.Address).Msg("sandbox node: daemon lost during a run; aborting it")
			a.cancel()
		}
	case *runFinished:
		a.report(c, m.result)
		c.Stop(c.Self())
	case *actor.Restarting:
		// A failure in this actor: report it rather than start over, which
		// would leave the daemon waiting for a run that never comes.
		a.stopRun()
		if a.exec != nil {
			a.report(c, sandbox.CrashResult(nil))
		}
	case *actor.Stopping:
		a.stopRun()
	}
}

// fromExec reports whether the message in hand came from the run's exec
// actor.
func (a *runActor) fromExec(c actor.Context) bool {
	s := c.Sender()
	return a.exec != nil && s != nil && s.Equal(a.exec)
}

func (a *runActor) start(c actor.Context, m *nodepb.StartRun) {
	if a.exec != nil || c.Sender() == nil {
		return // one run per actor, for an exec actor that can be answered
	}
	a.exec = c.Sender()
	c.Watch(a.exec)
	var limits sandbox.Limits
	if err := json.Unmarshal(m.Limits, &limits); err != nil {
		a.logger.Warn().Err(err).Msg("sandbox node: unreadable limits")
	}
	root, self, exec := c.ActorSystem().Root, c.Self(), a.exec
	send := func(msg any) { root.RequestWithCustomSender(exec, msg, self) }
	a.host = &nodeHost{send: send, pending: map[uint64]*sandbox.Call{}}
	req := sandbox.Request{
		Code:   m.Code,
		Tools:  sandbox.NewToolSet(m.Tools).WithDown(m.Down),
		Limits: limits,
		Host:   a.host,
		OnCall: func(name string) { send(&nodepb.CallCounted{Name: name}) },
		OnLog:  func(text string) { send(&nodepb.ConsoleText{Text: text}) },
		Logger: &a.logger,
	}
	var ctx context.Context
	ctx, a.cancel = context.WithCancel(context.Background())
	if m.State {
		a.state = &nodeState{send: send, ctx: ctx, pending: map[uint64]chan *nodepb.StateAnswer{}}
		req.State = a.state
	}
	if m.Keep {
		req.Reference = &sandbox.Reference{ID: m.KeepId, Sink: resultParts{send: send}}
	}
	a.done = make(chan struct{})
	go func() {
		defer close(a.done)
		res := sandbox.CrashResult(nil)
		defer func() {
			if p := recover(); p != nil {
				a.logger.Error().Interface("panic", p).Msg("sandbox node: run panicked")
			}
			root.Send(self, &runFinished{result: res})
		}()
		res = a.run(ctx, req, func() { send(&nodepb.RunStarted{}) })
	}()
}

// run runs req on a worker; started runs once the worker is there.
func (a *runActor) run(ctx context.Context, req sandbox.Request, started func()) sandbox.Result {
	w, err := a.workers.Acquire(ctx)
	if err != nil {
		return sandbox.UnavailableResult(ctx)
	}
	defer a.workers.Release(w)
	started()
	return w.Run(ctx, req)
}

// report sends the run's outcome to the exec actor. The images stay with
// the daemon, which kept them as the calls returned.
func (a *runActor) report(c actor.Context, res sandbox.Result) {
	res.Images = nil
	data, err := json.Marshal(res)
	if err != nil {
		data, _ = json.Marshal(sandbox.CrashResult(res.Calls))
	}
	c.ActorSystem().Root.RequestWithCustomSender(a.exec, &nodepb.RunDone{Result: data}, c.Self())
}

// stopRun aborts a run still going and waits for its worker to be back.
func (a *runActor) stopRun() {
	if a.cancel != nil {
		a.cancel()
		<-a.done
	}
	for _, resume := range a.waits {
		resume()
	}
	a.waits = nil
}

// nodeHost is the Host a node's run sees: every nested call goes to the
// exec actor in the daemon as a NestedCall, and its CallAnswer comes back
// through the run actor.
type nodeHost struct {
	send func(msg any)

	mu      sync.Mutex
	next    uint64
	pending map[uint64]*sandbox.Call
	ctx     context.Context // the worker run's context, with its budget clock
}

// Start implements sandbox.AsyncHost.
func (h *nodeHost) Start(ctx context.Context, call *sandbox.Call) {
	h.mu.Lock()
	if h.ctx != ctx {
		h.ctx = ctx
		context.AfterFunc(ctx, h.failPending)
	}
	h.next++
	id := h.next
	h.pending[id] = call
	h.mu.Unlock()
	h.send(&nodepb.NestedCall{Id: id, Search: call.Search, Name: call.Name, Args: call.Args})
}

func (h *nodeHost) answer(m *nodepb.CallAnswer) {
	h.mu.Lock()
	call := h.pending[m.Id]
	delete(h.pending, m.Id)
	h.mu.Unlock()
	if call == nil {
		return
	}
	if m.Error != "" {
		call.Answer(sandbox.CallResult{}, answerError(m.Error))
		return
	}
	// Placeholders keep the worker's image accounting identical to the
	// daemon's, which keeps the real images.
	call.Answer(sandbox.CallResult{Value: m.Value, Images: make([]sandbox.Image, m.Images)}, nil)
}

// callContext is the context of the run's nested calls, whose budget clock
// a person wait in the daemon stops.
func (h *nodeHost) callContext() context.Context {
	h.mu.Lock()
	defer h.mu.Unlock()
	if h.ctx == nil {
		return context.Background()
	}
	return h.ctx
}

// failPending answers every call still pending when the run ended, so the
// worker's host side never waits for an answer that cannot come.
func (h *nodeHost) failPending() {
	h.mu.Lock()
	pending := h.pending
	h.pending = map[uint64]*sandbox.Call{}
	h.mu.Unlock()
	for _, call := range pending {
		call.Answer(sandbox.CallResult{}, context.Canceled)
	}
}

// CallTool and Search are never used: a worker run's calls come through
// Start.
func (h *nodeHost) CallTool(context.Context, string, json.RawMessage) (sandbox.CallResult, error) {
	return sandbox.CallResult{}, errNotSynchronous
}

func (h *nodeHost) Search(context.Context, json.RawMessage) (json.RawMessage, error) {
	return nil, errNotSynchronous
}

// answerError is a nested call's failure as the daemon wrote it for the
// model.
type answerError string

func (e answerError) Error() string { return string(e) }

const errNotSynchronous = answerError("The sandbox failed while running the script: the sandbox machine takes calls asynchronously.")

// nodeState is the State a node's run sees: the conversation's state stays
// with the daemon, and every store and load is a StateCall answered by a
// StateAnswer. It waits for the answer while the run lasts.
type nodeState struct {
	send func(msg any)
	ctx  context.Context // the run's: it ends when the run is aborted or the daemon is lost

	mu      sync.Mutex
	next    uint64
	pending map[uint64]chan *nodepb.StateAnswer
}

func (s *nodeState) Store(key string, value json.RawMessage) error {
	_, _, err := s.call(&nodepb.StateCall{Store: true, Key: key, Value: value})
	return err
}

func (s *nodeState) Load(key string) (json.RawMessage, bool, error) {
	return s.call(&nodepb.StateCall{Key: key})
}

func (s *nodeState) call(m *nodepb.StateCall) (json.RawMessage, bool, error) {
	answer := make(chan *nodepb.StateAnswer, 1)
	s.mu.Lock()
	s.next++
	m.Id = s.next
	s.pending[m.Id] = answer
	s.mu.Unlock()
	defer func() {
		s.mu.Lock()
		delete(s.pending, m.Id)
		s.mu.Unlock()
	}()
	s.send(m)
	select {
	case a := <-answer:
		if a.Error != "" {
			return nil, false, answerError(a.Error)
		}
		return a.Value, a.Found, nil
	case <-s.ctx.Done():
		return nil, false, s.ctx.Err()
	}
}

func (s *nodeState) answer(m *nodepb.StateAnswer) {
	s.mu.Lock()
	answer := s.pending[m.Id]
	s.mu.Unlock()
	if answer != nil {
		answer <- m
	}
}

// resultParts sends the pieces of a return value too long for the text to
// the daemon, in order, ahead of the run's RunDone.
type resultParts struct{ send func(msg any) }

func (r resultParts) Write(piece []byte) (int, error) {
	r.send(&nodepb.ResultPart{Data: append([]byte(nil), piece...)})
	return len(piece), nil
}
