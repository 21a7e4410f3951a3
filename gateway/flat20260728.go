package gateway

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"sync"

	"github.com/modelcontextprotocol/go-sdk/jsonrpc"
	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/mcpexec/mcpexec"
	"github.com/mcpexec/mcpexec/permissions"
)

// A flat call (Exec switched off) has no script to park, and needs none:
// its permission question comes before it reaches its server. So for a
// client of 2026-07-28 the first call stops at the question, which goes
// back as input_required, and the retry makes the call again with the
// answer given in advance. Nothing ran the first time, so nothing repeats.
// The requestState binds the answer to the call (tool and arguments) and
// the client. A question the server itself asks goes back the same way,
// and its retry continues the server's call (flatinput.go).

// flatQuestionID keys a flat call's one question.
const flatQuestionID = "approval"

// errAskedByRoundTrip stops a flat call at its question.
var errAskedByRoundTrip = errors.New("the question goes back to the client as input_required")

// flatPrompter answers a flat call's question with the answer the retry
// brought, once; any other question is kept, to be asked by round trip.
type flatPrompter struct {
	mu     sync.Mutex
	answer *permissions.Answer
	asked  *permissions.Question
}

func (p *flatPrompter) Ask(_ context.Context, q permissions.Question) (permissions.Answer, error) {
	p.mu.Lock()
	defer p.mu.Unlock()
	if a := p.answer; a != nil {
		p.answer = nil
		return *a, nil
	}
	p.asked = &q
	return permissions.Answer{}, errAskedByRoundTrip
}

// flatParking serves a flat call of a client that gets its questions as
// input_required.
func (g *Gateway) flatParking(ctx context.Context, req *mcp.CallToolRequest, name string) (*mcp.CallToolResult, error) {
	identity := g.identity(callerOf(req.Session, req.Extra, req.ClientInfo()))
	if identity == "" {
		return toolResult(false, closingText, nil), nil
	}
	subject := flatSubject(name, req.Params.Arguments)
	p := &flatPrompter{}
	var answer *mcpexec.ServerInputAnswer
	if state := req.Params.RequestState; state != "" {
		st, err := g.requestStates.openFlat(state, subject, identity)
		if err != nil {
			return nil, &jsonrpc.Error{Code: jsonrpc.CodeInvalidParams, Message: err.Error()}
		}
		switch res, ok := req.Params.InputResponses[flatQuestionID].(*mcp.ElicitResult); {
		case st.serverInput:
			answer = &mcpexec.ServerInputAnswer{State: st.serverState, Responses: req.Params.InputResponses}
		case ok && res != nil:
			a := answerFrom(res)
			p.answer = &a
		}
	}
	// A question its server sends on its connection in the middle of the
	// call cannot reach this client: the session's Elicitor declines it.
	ctx = mcpexec.WithElicitor(mcpexec.WithPrompter(ctx, p), g.elicitorFor(req))
	res := g.sys.CallFlatReturningInput(ctx, name, req.Params.Arguments, answer)
	p.mu.Lock()
	asked := p.asked
	p.mu.Unlock()
	switch {
	case asked != nil:
		return &mcp.CallToolResult{
			InputRequests: mcp.InputRequestMap{flatQuestionID: &mcp.ElicitParams{Mode: "form", Message: questionMessage(*asked), RequestedSchema: questionSchema}},
			RequestState:  g.requestStates.sealFlat(subject, identity),
		}, nil
	case res.InputRequired != nil:
		return g.serverInputResult(name, subject, identity, res.InputRequired), nil
	case res.Reply != nil:
		return passedOn(res.Reply), nil
	}
	return toolResult(res.OK, res.Text, res.Images), nil
}

// flatSubject names a flat call: its tool and a digest of its arguments as
// sent.
func flatSubject(name string, args []byte) string {
	sum := sha256.Sum256(args)
	return name + "\x00" + hex.EncodeToString(sum[:])
}
