package pool

import (
	"context"
	"encoding/json"
	"errors"

	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// A server of MCP 2026-07-28 that needs an answer during a call ends the
// call with resultType "input_required": its inputRequests and an opaque
// requestState, which the client sends back with its inputResponses in a
// new tools/call (multi round-trip requests). The SDK's client answers
// those itself, through the handlers the pool gives it (elicit.go), and
// calls again; that is how every call is made by default.
//
// A host whose own client is asked by round trip too (a gateway passing a
// flat call on to a 2026-07-28 client) wants the server's request instead,
// to pass it on, and later the continuation. Under WithInputReturned a call
// whose server asks returns its request as Result.InputRequired. The SDK is
// not forked for that: the wire tap has recorded the reply as the server
// wrote it before the SDK's client reads it, and the handlers the SDK calls
// to answer refuse at once for such a call (errInputReturned), so the
// SDK's client gives up before anything more is sent, and the pool returns
// what the tap recorded. A request for the roots list alone is the
// exception: the SDK answers that itself, with the pool's roots (none),
// and the call goes on as it always has.

// InputRequired is a server's request for input that a call returned in
// place of its result.
type InputRequired struct {
	// Requests is the server's inputRequests object as it wrote it: each
	// key with its request's method and params, schemas byte for byte.
	Requests json.RawMessage
	// State is the server's requestState, to go back with the answers ("":
	// the server gave none).
	State string
}

// Continuation continues a call whose server returned InputRequired: the
// server's own State, and the responses to its requests by key, as the
// answering client gave them.
type Continuation struct {
	State     string
	Responses mcp.InputResponseMap
}

type inputReturnedKey struct{}

// inputRoute is what a call's context says about its server's requests
// for input.
type inputRoute struct {
	continuation *Continuation
}

// WithInputReturned returns ctx under which a call whose server asks for
// input by input_required returns the request (Result.InputRequired)
// instead of having it answered: nothing is put to an Elicitor or a
// sampling handler, and the server hears nothing more about the call.
func WithInputReturned(ctx context.Context) context.Context {
	return context.WithValue(ctx, inputReturnedKey{}, inputRoute{})
}

// WithContinuation returns ctx under which a call is the continuation of
// one whose server returned InputRequired: it sends the server its state
// and the responses in place of a fresh call (to a server of 2026-07-28,
// whose calls alone ask by input_required; neither leg opts in to its
// tasks extension, see tasks20260728.go). Nobody is asked about it again: the caller
// vouches that the first leg was admitted (a gateway checks the MAC of the
// state it issued); a Gate that is a RuleGate still refuses it when its
// rules forbid the call now. A server that asks again is returned again,
// as under WithInputReturned.
func WithContinuation(ctx context.Context, c Continuation) context.Context {
	return context.WithValue(ctx, inputReturnedKey{}, inputRoute{continuation: &c})
}

// inputRouteOf reports whether ctx returns a server's requests for input,
// and the continuation it makes, if any.
func inputRouteOf(ctx context.Context) (inputRoute, bool) {
	r, ok := ctx.Value(inputReturnedKey{}).(inputRoute)
	return r, ok
}

// errInputReturned is what the pool's handlers tell the SDK's client about
// a server's request for input that goes back to the caller.
var errInputReturned = errors.New("the server's request for input goes back to the caller")

// inputRequiredIn reads a tools/call reply's raw result: the server's
// request for input when it is one with at least one request (an empty
// one asks the client to retry later, which the SDK does itself).
func inputRequiredIn(raw json.RawMessage) (*InputRequired, bool) {
	if len(raw) == 0 {
		return nil, false
	}
	var r struct {
		InputRequests json.RawMessage `json:"inputRequests"`
		RequestState  string          `json:"requestState"`
	}
	var requests map[string]json.RawMessage
	if json.Unmarshal(raw, &r) != nil || json.Unmarshal(r.InputRequests, &requests) != nil || len(requests) == 0 {
		return nil, false
	}
	return &InputRequired{Requests: r.InputRequests, State: r.RequestState}, true
}

// holdInputForCaller makes the handlers through which the SDK's client
// answers a server's input requests refuse those of a call whose requests
// go back to its caller, before they ask anyone: the SDK runs them side by
// side, and none may put a question to a person or a model for a call
// whose client answers itself. The elicitation handler checks for itself
// (server.elicit).
func holdInputForCaller(copts *mcp.ClientOptions) {
	if h := copts.CreateMessageHandler; h != nil {
		copts.CreateMessageHandler = func(ctx context.Context, req *mcp.CreateMessageRequest) (*mcp.CreateMessageResult, error) {
			if _, returned := inputRouteOf(ctx); returned {
				return nil, errInputReturned
			}
			return h(ctx, req)
		}
	}
	if h := copts.CreateMessageWithToolsHandler; h != nil {
		copts.CreateMessageWithToolsHandler = func(ctx context.Context, req *mcp.CreateMessageWithToolsRequest) (*mcp.CreateMessageWithToolsResult, error) {
			if _, returned := inputRouteOf(ctx); returned {
				return nil, errInputReturned
			}
			return h(ctx, req)
		}
	}
}
