package mcpexec

import (
	"context"
	"errors"
	"time"

	"github.com/asynkron/protoactor-go/actor"

	"github.com/mcpexec/mcpexec/actors"
	"github.com/mcpexec/mcpexec/pool"
)

// askTimeout bounds a question to an actor that should answer at once (the
// pool's snapshot and status), so a stopped actor cannot hang a request.
const askTimeout = 10 * time.Second

// cancelGrace is how long a cancelled call may take to be answered.
const cancelGrace = 5 * time.Second

var errNoAnswer = errors.New("mcpexec: the pool did not answer")

// ask sends msg to pid and returns the first reply. It spawns a one-off
// receiver instead of using a future: a future that times out while its
// reply is arriving races inside the actor library.
func (s *System) ask(pid *actor.PID, msg any, wait func(reply <-chan any) (any, error)) (any, error) {
	reply := make(chan any, 1)
	receiver := s.system.Root.Spawn(actor.PropsFromFunc(func(c actor.Context) {
		switch c.Message().(type) {
		case *actor.Started, *actor.Stopping, *actor.Stopped, *actor.Restarting:
			return
		}
		select {
		case reply <- c.Message():
		default:
		}
	}))
	defer s.system.Root.Stop(receiver)
	s.system.Root.RequestWithCustomSender(pid, msg, receiver)
	return wait(reply)
}

func within(timeout time.Duration) func(<-chan any) (any, error) {
	return func(reply <-chan any) (any, error) {
		select {
		case m := <-reply:
			return m, nil
		case <-time.After(timeout):
			return nil, errNoAnswer
		}
	}
}

// snapshot asks the pool actor for the pool as it is now. Without an MCP
// manager the pool is empty (nil, true). If the pool does not answer, ok is
// false: "cannot read the pool" is not "the pool is empty" (EDGE-5), and
// callers must not act on it as if it were.
func (s *System) snapshot() (snap *pool.Snapshot, ok bool) {
	if s.pool == nil {
		return nil, true
	}
	m, err := s.ask(s.pool.PID(), &actors.GetPoolSnapshot{}, within(askTimeout))
	if reply, isSnapshot := m.(*actors.PoolSnapshot); err == nil && isSnapshot {
		s.lastSnapshot.Store(reply.Snapshot)
		return reply.Snapshot, true
	}
	s.logger.Error().Err(err).Msg("mcpexec: the pool did not answer")
	return nil, false
}

// declarationSnapshot is the pool for tools[]: the latest one the pool
// answered with when it cannot answer now, so a slow pool actor does not
// drop Exec from tools[] (and break the cached prefix) for one request.
func (s *System) declarationSnapshot() *pool.Snapshot {
	if snap, ok := s.snapshot(); ok {
		return snap
	}
	return s.lastSnapshot.Load()
}

// call runs one MCP call through the pool's funnel (gate, tools/call,
// projection). Cancelling ctx cancels the call.
func (s *System) call(ctx context.Context, name string, args []byte) (pool.Result, error) {
	if s.pool == nil {
		return pool.Result{}, errors.New(msgNoMCPManager)
	}
	id := actors.NextCallID()
	m, err := s.ask(s.pool.PID(), &actors.CallTool{ID: id, Name: name, Args: args}, func(reply <-chan any) (any, error) {
		select {
		case m := <-reply:
			return m, nil
		case <-ctx.Done():
			s.system.Root.Send(s.pool.PID(), &actors.CancelCall{ID: id})
		}
		select {
		case m := <-reply:
			return m, nil
		case <-time.After(cancelGrace):
			return nil, ctx.Err()
		}
	})
	if err != nil {
		return pool.Result{}, err
	}
	called, ok := m.(*actors.ToolCalled)
	if !ok {
		return pool.Result{}, errNoAnswer
	}
	return called.Result, called.Err
}

// WaitReady waits until every configured server has been tried once
// (connected, or failed and retrying), or ctx ends.
func (s *System) WaitReady(ctx context.Context) error {
	if s.pool == nil {
		return nil
	}
	for {
		m, err := s.ask(s.pool.PID(), &actors.GetPoolStatus{}, within(askTimeout))
		if err != nil {
			return err
		}
		status, _ := m.(*actors.PoolStatus)
		settled := status != nil
		for _, srv := range statusServers(status) {
			if srv.State == pool.StateConnecting {
				settled = false
			}
		}
		if settled {
			return nil
		}
		select {
		case <-ctx.Done():
			return ctx.Err()
		case <-time.After(20 * time.Millisecond):
		}
	}
}

func statusServers(status *actors.PoolStatus) []pool.ServerStatus {
	if status == nil {
		return nil
	}
	return status.Servers
}
