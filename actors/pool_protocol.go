package actors

import (
	"github.com/asynkron/protoactor-go/actor"

	"github.com/mcpexec/mcpexec/toolpool"
)

// The pool actor's protocol. Besides these it takes *messages.ConfigChanged
// from the config actor: deny rules and disallowedTools change the pool.
// Reading the pool and calling a tool are not messages: Pool.Snapshot is an
// atomic read and Pool.Call runs the funnel on the caller's goroutine, since
// neither needs an order that a mailbox would give.

// SubscribePool registers Subscriber for *PoolChanged. The pool actor
// answers at once with the current pool, then sends one after every change
// (a server connected, disconnected or changed its tools, or the exclusion
// changed). Changes in quick succession may arrive as one.
type SubscribePool struct {
	Subscriber *actor.PID
}

// UnsubscribePool removes a subscriber registered with SubscribePool.
type UnsubscribePool struct {
	Subscriber *actor.PID
}

// PoolChanged tells a subscriber the pool it should now use.
type PoolChanged struct {
	Snapshot *toolpool.Snapshot
}
