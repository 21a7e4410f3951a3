package actors

import (
	"context"
	"encoding/json"
	"fmt"
	"sync"

	"github.com/asynkron/protoactor-go/actor"
	"github.com/rs/zerolog"

	"github.com/mcpexec/mcpexec/messages"
	"github.com/mcpexec/mcpexec/pool"
	"github.com/mcpexec/mcpexec/toolpool"
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

// Pool is the handle of a running pool actor, which owns the connections to
// the MCP servers and the snapshot they make.
//
// Supervision: a crash of the pool actor restarts it around the same
// connections and subscribers; it then tells every subscriber the current
// pool, in case a change was lost with the crash.
type Pool struct {
	system  *actor.ActorSystem
	pid     *actor.PID
	manager *pool.Manager
	logger  zerolog.Logger

	// lifetime ends at Stop; calls in flight end with it.
	lifetime context.Context
	end      context.CancelFunc
	mu       sync.RWMutex
	stopped  bool
	calls    sync.WaitGroup
	watchers sync.WaitGroup
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
	p := &Pool{system: system, manager: manager, logger: cfg.Options.Logger}
	p.lifetime, p.end = context.WithCancel(context.Background())
	kept := &poolMemory{subscribers: map[string]*actor.PID{}}
	props := actor.PropsFromProducer(func() actor.Actor {
		return &poolActor{pool: p, excludeFor: cfg.ExcludeFor, kept: kept}
	})
	p.pid = spawnSupervised(system, props, newSupervisor("pool", actor.RestartDirective, p.logger))
	return p, nil
}

// PID is the pool actor, for ConfigChanged and subscriptions.
func (p *Pool) PID() *actor.PID { return p.pid }

// SetServers replaces the configured servers and returns once the servers
// it stops are gone (see pool.Manager.SetServers). The Manager is safe for
// concurrent use and the actor keeps nothing that depends on the server
// list; its mailbox must not wait while servers stop. Subscribers hear of
// the new pool like of any other change.
func (p *Pool) SetServers(servers []pool.ServerConfig) error { return p.manager.SetServers(servers) }

// Snapshot returns the pool as it is now: one atomic read.
func (p *Pool) Snapshot() *toolpool.Snapshot { return p.manager.Snapshot() }

// Status reports every configured server, sorted by name.
func (p *Pool) Status() []pool.ServerStatus { return p.manager.Status() }

// Ready is closed once every configured server has been tried once
// (connected, or failed and retrying).
func (p *Pool) Ready() <-chan struct{} { return p.manager.Ready() }

// Call runs one MCP call through the funnel (gate, tools/call, projection)
// on the caller's goroutine: flat and nested calls alike. Cancelling ctx,
// or stopping the pool, cancels it. A panic anywhere in the call (the gate
// and the Prompter behind it, the SDK, the reply's projection) is this
// call's failure; the pool and every other call go on.
func (p *Pool) Call(ctx context.Context, name string, args json.RawMessage) (res pool.Result, err error) {
	p.mu.RLock()
	if p.stopped {
		p.mu.RUnlock()
		return pool.Result{}, fmt.Errorf("%s was not called: the MCP connections are closed.", name)
	}
	p.calls.Add(1)
	p.mu.RUnlock()
	defer p.calls.Done()
	ctx, cancel := context.WithCancel(ctx)
	defer cancel()
	defer context.AfterFunc(p.lifetime, cancel)()
	defer func() {
		if v := recover(); v != nil {
			p.logger.Error().Str("tool", name).Interface("panic", v).Msg("pool: call panicked")
			res, err = pool.Result{}, &CallPanicked{Tool: name}
		}
	}()
	return p.manager.Call(ctx, name, args)
}

// CallPanicked is the error of a call that failed inside mcpexec: a panic
// on its path. Its message is written for the model.
type CallPanicked struct {
	Tool string
}

func (e *CallPanicked) Error() string {
	return fmt.Sprintf("The call to %s failed inside the host; it may or may not have reached its server.", e.Tool)
}

// Stop stops the actor, ends the calls in flight, and returns once every
// server connection and process is gone and every call has returned.
func (p *Pool) Stop() {
	p.stopOnce.Do(func() {
		p.mu.Lock()
		p.stopped = true
		p.mu.Unlock()
		_ = p.system.Root.StopFuture(p.pid).Wait()
		p.end()
		p.calls.Wait()
		p.watchers.Wait()
		_ = p.manager.Close()
	})
}

// poolActor follows the configuration into the pool's exclusion and tells
// subscribers of every new pool. What outlives a crash is in poolMemory.
type poolActor struct {
	pool       *Pool
	excludeFor func(messages.Config) pool.Exclude
	kept       *poolMemory

	// stopWatching ends this incarnation's watcher.
	stopWatching context.CancelFunc
}

// poolMemory is the pool actor's state that outlives a restart.
type poolMemory struct {
	subscribers map[string]*actor.PID
	lastSent    uint64 // snapshot version subscribers last heard of
}

// poolMoved is the watcher's signal that the Manager published a snapshot.
type poolMoved struct{}

func (a *poolActor) Receive(c actor.Context) {
	switch msg := c.Message().(type) {
	case *actor.Started:
		a.watch(c.Self())
		// After a restart a change may have been lost with the crash.
		a.kept.lastSent = 0
		a.broadcast(c)
	case *SubscribePool:
		a.kept.subscribers[msg.Subscriber.String()] = msg.Subscriber
		c.Send(msg.Subscriber, &PoolChanged{Snapshot: a.pool.Snapshot()})
	case *UnsubscribePool:
		delete(a.kept.subscribers, msg.Subscriber.String())
	case *poolMoved:
		a.broadcast(c)
	case *messages.ConfigChanged:
		if a.excludeFor != nil && msg.Err == nil {
			a.pool.manager.SetExclude(a.excludeFor(msg.Config))
		}
	case *actor.Restarting, *actor.Stopping:
		a.stopWatching()
	}
}

// watch relays the Manager's change signals into the mailbox.
func (a *poolActor) watch(self *actor.PID) {
	ctx, stop := context.WithCancel(a.pool.lifetime)
	a.stopWatching = stop
	changes, unsubscribe := a.pool.manager.Subscribe()
	system := a.pool.system
	a.pool.watchers.Add(1)
	go func() {
		defer a.pool.watchers.Done()
		defer unsubscribe()
		for {
			select {
			case <-ctx.Done():
				return
			case <-changes:
				system.Root.Send(self, &poolMoved{})
			}
		}
	}()
}

// broadcast sends the current pool to every subscriber once per version.
func (a *poolActor) broadcast(c actor.Context) {
	snap := a.pool.Snapshot()
	if snap.Version() == a.kept.lastSent && a.kept.lastSent != 0 {
		return
	}
	a.kept.lastSent = snap.Version()
	for _, pid := range a.kept.subscribers {
		c.Send(pid, &PoolChanged{Snapshot: snap})
	}
}
