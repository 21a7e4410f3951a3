package gateway

import (
	"context"
	"errors"

	"github.com/modelcontextprotocol/go-sdk/jsonrpc"
	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/mcpexec/mcpexec"
)

// From protocol version 2026-07-28 a server may not ask its client anything
// in the middle of a call: a call that needs an answer ends with
// resultType "input_required", the questions as inputRequests and an
// opaque requestState, and the client calls again with inputResponses and
// the requestState (multi round-trip requests). An Exec script cannot be
// ended and replayed (its nested calls have run), so the run parks instead:
// its worker keeps it, its budget clock stops, and the retry resumes the
// same run where it waits (mcpexec.System.StartRun, ResumeRun).

// protocol20260728 is the first protocol version with multi round-trip
// requests and without server-to-client requests.
const protocol20260728 = "2026-07-28"

// asksByRoundTrip reports whether the caller of req gets its questions as
// input_required results: it speaks 2026-07-28 or later and can answer
// elicitation (a client that cannot is refused with guidance instead, as
// in every version).
func asksByRoundTrip(req *mcp.CallToolRequest) bool {
	return req.ProtocolVersion() >= protocol20260728 && canElicit(req.Session)
}

// execParking serves an Exec call whose questions go back to the caller as
// input_required: a first call starts a run that parks on its questions; a
// retry carrying a requestState answers them and resumes that run.
func (g *Gateway) execParking(ctx context.Context, req *mcp.CallToolRequest, c caller, onProgress func(string)) (*mcp.CallToolResult, error) {
	identity := g.identity(c)
	if identity == "" {
		return toolResult(false, closingText, nil), nil
	}
	if state := req.Params.RequestState; state != "" {
		holder, run, err := g.requestStates.open(state, identity)
		if err != nil {
			return nil, &jsonrpc.Error{Code: jsonrpc.CodeInvalidParams, Message: err.Error()}
		}
		if replica, here := g.holds(holder); !here {
			return g.forwardRetry(ctx, replica, state, identity, req.Params.InputResponses, onProgress)
		}
		return g.retryHere(ctx, holder, run, identity, req.Params.InputResponses, onProgress), nil
	}
	return g.parkingResult(g.sys.StartRun(ctx, mcpexec.DeclareOptions{}, req.Params.Arguments, onProgress), identity), nil
}

// retryHere answers the questions of run, which this process holds or
// held as holder, and waits for the run again.
func (g *Gateway) retryHere(ctx context.Context, holder string, run mcpexec.RunID, identity string, responses mcp.InputResponseMap, onProgress func(string)) *mcp.CallToolResult {
	if holder != g.holder() {
		// Issued under the shared key by this replica's earlier
		// incarnation: the run died with it.
		return toolResult(false, textRunLost(g.replica()), nil)
	}
	res, err := g.resume(ctx, run, responses, onProgress)
	if err != nil {
		return toolResult(false, unknownRunText, nil)
	}
	return g.parkingResult(res, identity)
}

// parkingResult is the tool result of a run that parks: its questions as
// input_required, with the requestState of its retry, or its end.
func (g *Gateway) parkingResult(res mcpexec.ExecResult, identity string) *mcp.CallToolResult {
	if res.Pending != nil {
		return &mcp.CallToolResult{
			InputRequests: inputRequests(res.Pending.Questions, g.describeHints),
			RequestState:  g.requestStates.seal(g.holder(), res.Pending.Run, identity),
		}
	}
	return execResult(res)
}

// resume answers the questions run waits on with responses and waits for
// the run again. A run that ended (expired, say) gives its end; one this
// process does not know fails.
func (g *Gateway) resume(ctx context.Context, run mcpexec.RunID, responses mcp.InputResponseMap, onProgress func(string)) (mcpexec.ExecResult, error) {
	status, err := g.sys.RunStatus(ctx, run)
	if err != nil {
		if errors.Is(err, mcpexec.ErrUnknownRun) {
			return mcpexec.ExecResult{}, err
		}
		return mcpexec.ExecResult{Text: err.Error()}, nil
	}
	return g.sys.ResumeRun(ctx, run, answersTo(status.Questions, responses), onProgress)
}
