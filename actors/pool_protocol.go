package actors

import (
	"encoding/json"
	"github.com/mcpexec/mcpexec/pool"
	"sync/atomic"
	"time"

	"github.com/asynkron/protoactor-go/actor"

	"github.com/mcpexec/mcpexec/toolpool"
)

// GetPoolSnapshot asks the pool actor for the current pool (reply:
// *PoolSnapshot). Take one per model request and per Exec run.
type GetPoolSnapshot struct{}

// PoolSnapshot carries the pool at one moment. The snapshot is immutable and
// shared by every receiver.
type PoolSnapshot struct {
	Snapshot *toolpool.Snapshot
}

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

// CallTool executes one MCP call through the funnel (gate, tools/call with
// Args untouched, projection); flat and nested calls alike. The reply is a
// *ToolCalled with the same ID, sent to the request's sender. Calls run
// concurrently; a zero Deadline means none. ID names the call for CancelCall:
// take it from NextCallID so it is unique among all calls in flight. A call
// still queued when the pool actor stops gets no reply (the actor system
// handles the stop first), so askers keep their own timeout; a call already
// running is cancelled and answered.
type CallTool struct {
	ID       uint64
	Name     string
	Args     json.RawMessage
	Deadline time.Time
}

// callIDs hands out call IDs for the whole process.
var callIDs atomic.Uint64

// NextCallID returns a call ID no other caller has.
func NextCallID() uint64 { return callIDs.Add(1) }

// ToolCalled answers CallTool. Err, when set, is a message a model can be
// shown (see pool.CallError and pool.ToolError).
type ToolCalled struct {
	ID     uint64
	Result pool.Result
	Err    error
}

// CancelCall ends the CallTool with this ID; its ToolCalled then carries a
// cancellation error. Unknown or finished IDs are ignored.
type CancelCall struct {
	ID uint64
}

// GetPoolStatus asks for every configured server's state (reply:
// *PoolStatus).
type GetPoolStatus struct{}

// PoolStatus answers GetPoolStatus.
type PoolStatus struct {
	Servers []pool.ServerStatus
}
