package gateway

import (
	"context"
	"encoding/json"
	"fmt"
	"strings"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/mcpexec/mcpexec/elicit"
	"github.com/mcpexec/mcpexec/permissions"
)

// sessionElicitor passes the questions a pool server asks during a call
// (elicitation) on to the client whose request made the call, within that
// request: the server's form schema as the server sent it, and the client's
// answer (accept with its content, decline, cancel) back to the server as it
// came. Only the message gains a line saying which server asks and during
// which tool, since the client knows only the gateway.
type sessionElicitor struct {
	session *mcp.ServerSession
	// hints says what a tool's server says about it, for the message.
	hints func(tool string) string
	// roundTrips is set when the request speaks 2026-07-28 or later, where
	// a client cannot be asked within a call: an Exec run parks instead
	// and a flat call passes its server's input_required on (neither
	// reaches this Elicitor); a flat call's question that still does (its
	// client declared no elicitation, or its server sent
	// elicitation/create in the middle of the call) is declined.
	roundTrips bool
}

// elicitorFor is the Elicitor of the questions servers ask during req.
func (g *Gateway) elicitorFor(req *mcp.CallToolRequest) sessionElicitor {
	return sessionElicitor{session: req.Session, hints: g.describeHints, roundTrips: req.ProtocolVersion() >= protocol20260728}
}

func (e sessionElicitor) Elicit(ctx context.Context, r elicit.Request) (elicit.Response, error) {
	if e.roundTrips {
		return elicit.Response{Action: elicit.Decline, Reason: notWithinACallReason}, nil
	}
	if !canElicitMode(e.session, r.Mode) {
		return elicit.Response{Action: elicit.Decline, Reason: cannotForwardReason(r.Mode)}, nil
	}
	res, err := e.session.Elicit(ctx, forwardedParams(r, e.hints))
	if err != nil {
		return elicit.Response{}, err
	}
	return elicit.Response{Action: elicit.Action(res.Action), Content: res.Content}, nil
}

// ElicitationComplete tells the client that a url-mode question it was
// passed and accepted has finished on its server's side, as the server
// said (elicit.Completer).
func (e sessionElicitor) ElicitationComplete(ctx context.Context, _, elicitationID string) {
	if e.roundTrips {
		return // its question went out in an input_required result, with no session to tell
	}
	_ = e.session.NotifyElicitationComplete(ctx, &mcp.ElicitationCompleteParams{ElicitationID: elicitationID})
}

// canElicitMode reports whether the client declared elicitation in mode:
// "url" needs its URL capability, a form the form capability (which a bare
// elicitation capability implies).
func canElicitMode(ss *mcp.ServerSession, mode string) bool {
	if mode != "url" {
		return canElicit(ss)
	}
	params := ss.InitializeParams()
	return params != nil && params.Capabilities != nil && params.Capabilities.Elicitation != nil &&
		params.Capabilities.Elicitation.URL != nil
}

// forwardedParams is a server's question as the gateway asks its client.
func forwardedParams(r elicit.Request, hints func(tool string) string) *mcp.ElicitParams {
	p := &mcp.ElicitParams{Mode: r.Mode, Message: forwardedMessage(r, hints), URL: r.URL, ElicitationID: r.ElicitationID}
	if p.Mode == "" {
		p.Mode = "form"
	}
	if len(r.Schema) > 0 {
		p.RequestedSchema = json.RawMessage(r.Schema)
	}
	return p
}

// forwardedMessage is the server's message after a line naming the server
// and the calls it asks during, each with what its server says about it
// (read-only, destructive...), so the person knows what they answer for.
func forwardedMessage(r elicit.Request, hints func(tool string) string) string {
	var b strings.Builder
	fmt.Fprintf(&b, "The MCP server %q asks", r.Server)
	for i, tool := range r.Tools {
		if i == 0 {
			b.WriteString(" during ")
		} else {
			b.WriteString(", ")
		}
		b.WriteString(tool)
		if h := hints(tool); h != "" {
			b.WriteString(" (its server says: " + h + ")")
		}
	}
	b.WriteString(":\n")
	b.WriteString(r.Message)
	return b.String()
}

// describeHints says what the System's pool says about a tool.
func (g *Gateway) describeHints(tool string) string {
	return permissions.DescribeHints(g.sys.ToolHints(tool))
}

// notWithinACallReason is why a server's question during a flat call of a
// 2026-07-28 client was declined.
const notWithinACallReason = "a client of protocol 2026-07-28 cannot be asked within a call, and a flat call cannot wait for a later one"

// cannotForwardReason is why a server's question was declined for a client
// that cannot be asked it (the log says so; MCP gives the server no reason).
func cannotForwardReason(mode string) string {
	if mode == "" {
		mode = "form"
	}
	return "the MCP client cannot be asked a server's question (it does not support " + mode + " elicitation)"
}
