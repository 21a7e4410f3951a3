package mcpexec

import (
	"context"
	"encoding/json"

	"github.com/mcpexec/mcpexec/pool"
)

// A server of MCP 2026-07-28 that needs an answer during a call returns
// input_required (its input requests and its own requestState) and is
// called again with the answers. CallFlat has the answers found within the
// call: the pool's client puts the questions to the Elicitor of ctx and
// calls again. A host whose own client answers by round trip too (a
// gateway serving tools flat to a 2026-07-28 client) passes the server's
// request on instead, and comes back with the answers later, possibly from
// another request: CallFlatReturningInput.

type (
	// ServerInput is a server's request for input that a flat call
	// returned in place of its result: its inputRequests as the server
	// wrote them, and its requestState.
	ServerInput = pool.InputRequired
	// ServerInputAnswer continues a flat call whose server returned
	// ServerInput: the server's requestState and the responses by the
	// keys of its requests.
	ServerInputAnswer = pool.Continuation
)

// CallFlatReturningInput runs a flat call like CallFlat, except that a
// server that asks for input by input_required has its request returned in
// ToolResult.InputRequired rather than answered: nobody is asked, and the
// server hears nothing more of the call. With answer set, the call is the
// continuation of such a call (same name, same arguments): the server gets
// its state and the responses unchanged, and the call is not put to the
// permission gate again, since its first leg passed it; the caller vouches
// that answer comes from the client whose call that was (the gateway MACs
// the state it hands out). A server that asks again is returned again.
func (s *System) CallFlatReturningInput(ctx context.Context, name string, args json.RawMessage, answer *ServerInputAnswer) ToolResult {
	if answer != nil {
		ctx = pool.WithContinuation(ctx, *answer)
	} else {
		ctx = pool.WithInputReturned(ctx)
	}
	return s.funnel.CallFlat(ctx, name, args)
}
