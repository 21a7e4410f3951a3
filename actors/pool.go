package actors

import (
	"context"
	"sync"

	"github.com/asynkron/protoactor-go/actor"

	"github.com/mcpexec/mcpexec/messages"
	"github.com/mcpexec/mcpexec/pool"
)

// PoolConfig configures the pool actor.
type PoolConfig struct {
	// Servers are the MCP servers to keep connected (see pool.ParseConfig).
	Servers []pool.ServerConfig
	// Options configure the pool, including its Gate and first Exclude.
	Options pool.Options
	// ExcludeFor turns an effective configuration into the pool's exclusion
	// (deny rules and disallowedTools); on *messages.ConfigChanged the actor
	// applies it. Nil ignores configuration changes.
	ExcludeFor func(messages.Config) pool.Exclude
}

// Pool is the handle of a running pool actor.
type Pool struct {
	system   *actor.ActorSystem
	pid      *actor.PID
	work     *sync.WaitGroup
	stopOnce sync.Once
}

// StartPool starts connecting cfg.Servers and spawns the actor that owns the
// connections. It fails only on a configuration that cannot start at all
// (two servers with one name); a bad server entry is reported in its status.
func StartPool(system *actor.ActorSystem, cfg PoolConfig) (*Pool, error) {
	manager, err := pool.New(context.Background(), cfg.Servers, cfg.Options)
	if err != nil {
		return nil, err
	}
	p := &Pool{system: system, work: &sync.WaitGroup{}}
	props := actor.PropsFromProducer(func() actor.Actor {
		lifetime, stop := context.WithCancel(context.Background())
		return &poolActor{
			system: system, manager: manager, excludeFor: cfg.ExcludeFor, work: p.work,
			lifetime: lifetime, stop: stop,
			subscribers: map[string]*actor.PID{}, calls: map[uint64]inflight{},
		}
	})
	p.pid = system.Root.Spawn(props)
	return p, nil
}

// PID is the pool actor.
func (p *Pool) PID() *actor.PID { return p.pid }

// Stop stops the actor and returns once every server connection and process
// is gone and every call it ran has returned.
func (p *Pool) Stop() {
	p.stopOnce.Do(func() {
		_ = p.system.Root.StopFuture(p.pid).Wait()
		p.work.Wait()
	})
}

// poolActor owns the pool Manager and what needs an order: the subscriber
// list, the calls in flight (to cancel them by ID) and the exclusion
// following configuration changes.
//
// Most of the work is not here: the Manager keeps its own snapshot behind an
// atomic pointer and runs one goroutine per server, and calls run in their
// own goroutines because a slow tool must not hold up the mailbox. What the
// actor adds is the message protocol for the other actors, cancellation by
// ID, and the translation of ConfigChanged into an exclusion.
type poolActor struct {
	system     *actor.ActorSystem
	self       *actor.PID
	manager    *pool.Manager
	excludeFor func(messages.Config) pool.Exclude
	work       *sync.WaitGroup

	// lifetime ends when the actor stops; calls and the watcher run under it.
	lifetime context.Context
	stop     context.CancelFunc

	subscribers map[string]*actor.PID
	lastSent    uint64 // snapshot version subscribers last heard of
	calls       map[uint64]inflight
	seq         uint64 // tells a reused ID's calls apart
}

// inflight is a call that has not returned yet.
type inflight struct {
	cancel context.CancelFunc
	seq    uint64
}

// poolMoved is the watcher's signal that the Manager published a snapshot.
type poolMoved struct{}

// callDone is a call goroutine's notice that its call returned.
type callDone struct {
	id, seq uint64
}

func (a *poolActor) Receive(c actor.Context) {
	switch msg := c.Message().(type) {
	case *actor.Started:
		a.self = c.Self()
		a.watch()
	case *GetPoolSnapshot:
		c.Respond(&PoolSnapshot{Snapshot: a.manager.Snapshot()})
	case *GetPoolStatus:
		c.Respond(&PoolStatus{Servers: a.manager.Status()})
	case *SubscribePool:
		a.subscribers[msg.Subscriber.String()] = msg.Subscriber
		c.Send(msg.Subscriber, &PoolChanged{Snapshot: a.manager.Snapshot()})
	case *UnsubscribePool:
		delete(a.subscribers, msg.Subscriber.String())
	case *poolMoved:
		a.broadcast(c)
	case *messages.ConfigChanged:
		if a.excludeFor != nil && msg.Err == nil {
			a.manager.SetExclude(a.excludeFor(msg.Config))
		}
	case *CallTool:
		a.call(c, msg)
	case *CancelCall:
		if call, ok := a.calls[msg.ID]; ok {
			call.cancel()
		}
	case *callDone:
		if call, ok := a.calls[msg.id]; ok && call.seq == msg.seq {
			call.cancel()
			delete(a.calls, msg.id)
		}
	case *actor.Stopping:
		a.stop() // ends calls in flight and the watcher
	case *actor.Stopped:
		_ = a.manager.Close()
	}
}

// watch relays the Manager's change signals into the mailbox.
func (a *poolActor) watch() {
	changes, unsubscribe := a.manager.Subscribe()
	a.work.Add(1)
	go func() {
		defer a.work.Done()
		defer unsubscribe()
		for {
			select {
			case <-a.lifetime.Done():
				return
			case <-changes:
				a.system.Root.Send(a.self, &poolMoved{})
			}
		}
	}()
}

// broadcast sends the current pool to every subscriber once per version.
func (a *poolActor) broadcast(c actor.Context) {
	snap := a.manager.Snapshot()
	if snap.Version() == a.lastSent {
		return
	}
	a.lastSent = snap.Version()
	for _, pid := range a.subscribers {
		c.Send(pid, &PoolChanged{Snapshot: snap})
	}
}

// call runs one funnel call in its own goroutine and answers the sender.
func (a *poolActor) call(c actor.Context, msg *CallTool) {
	ctx, cancel := context.WithCancel(a.lifetime)
	if !msg.Deadline.IsZero() {
		cancel()
		ctx, cancel = context.WithDeadline(a.lifetime, msg.Deadline)
	}
	if previous, ok := a.calls[msg.ID]; ok {
		previous.cancel() // a reused ID replaces the call it named
	}
	a.seq++
	seq := a.seq
	a.calls[msg.ID] = inflight{cancel: cancel, seq: seq}
	replyTo := c.Sender()
	a.work.Add(1)
	go func() {
		defer a.work.Done()
		res, err := a.manager.Call(ctx, msg.Name, msg.Args)
		a.system.Root.Send(a.self, &callDone{id: msg.ID, seq: seq})
		if replyTo != nil {
			a.system.Root.Send(replyTo, &ToolCalled{ID: msg.ID, Result: res, Err: err})
		}
	}()
}
