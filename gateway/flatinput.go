package gateway

import (
	"encoding/json"
	"fmt"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/mcpexec/mcpexec"
)

// A flat call's server may itself ask for input, by returning
// input_required (MCP 2026-07-28). For a client of 2026-07-28 the gateway
// passes that on as its own input_required: the server's input requests
// under the server's keys, as the server wrote them, and a requestState
// that carries the server's own under the gateway's MAC, bound to the call
// and the client (requeststate.go). The client's retry is the call's
// continuation: the server gets its state back and the client's responses
// unchanged, and its first leg is not made again. The permission gate
// already admitted the call on its first leg; the MAC shows that the retry
// continues that very call for that very client, so nobody is asked
// again, but a deny rule or a disallowed tool added since refuses it. The
// state is good once, and until the park timeout has passed since it was
// issued: a replay, or a retry held back longer, is refused and reaches
// nothing (requeststate.go). A server that asks again is passed on again,
// round after round, each round with a fresh state.
//
// The requestState verifies only in the process that issued it, unless
// replicas share the key (--state-key-file): after a restart the retry is
// refused like any state that does not verify, and nothing reaches the
// server; the client starts the call again. Under a shared key the
// continuation needs nothing this process held, so any replica makes it,
// and the server judges its own state; a replica does not know what
// another has used, so there a replay is bounded by the expiry alone.

// serverInputResult is the input_required result passing on in, the
// request for input of the server of the flat call named by subject, to
// client.
func (g *Gateway) serverInputResult(tool, subject, client string, in *mcpexec.ServerInput) *mcp.CallToolResult {
	requests, err := serversInputRequests(in.Requests)
	if err != nil {
		return toolResult(false, textServerInputNotPassed(tool, err), nil)
	}
	return &mcp.CallToolResult{InputRequests: requests, RequestState: g.requestStates.sealServerInput(subject, in.State, client)}
}

// serversInputRequests is a server's inputRequests as the SDK carries them
// to the gateway's client: each request decoded by its method, and a
// form's requestedSchema kept as the server's bytes, which the SDK's
// decoding would give back with their keys sorted.
func serversInputRequests(raw json.RawMessage) (mcp.InputRequestMap, error) {
	var requests mcp.InputRequestMap
	if err := json.Unmarshal(raw, &requests); err != nil {
		return nil, err
	}
	var wire map[string]struct {
		Params struct {
			RequestedSchema json.RawMessage `json:"requestedSchema"`
		} `json:"params"`
	}
	if err := json.Unmarshal(raw, &wire); err != nil {
		return nil, err
	}
	for key, ir := range requests {
		if p, ok := ir.(*mcp.ElicitParams); ok && len(wire[key].Params.RequestedSchema) > 0 {
			p.RequestedSchema = wire[key].Params.RequestedSchema
		}
	}
	return requests, nil
}

// textServerInputNotPassed is the result of a flat call whose server asked
// for input the gateway cannot express to its client.
func textServerInputNotPassed(tool string, err error) string {
	return fmt.Sprintf("The server of %s asked for input that could not be passed on (%v), so the call did not finish.", tool, err)
}
