package gateway

import (
	"context"
	"strings"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/mcpexec/mcpexec/permissions"
)

// sessionPrompter asks the person behind one client session about the calls
// of a script that session started.
type sessionPrompter struct {
	session *mcp.ServerSession
	// meta, if set, goes with the question (the task it is about).
	meta mcp.Meta
}

// canElicit reports whether the client declared elicitation (in form mode,
// which every elicitation-capable client supports unless it declares URL
// mode alone).
func canElicit(ss *mcp.ServerSession) bool {
	params := ss.InitializeParams()
	if params == nil || params.Capabilities == nil || params.Capabilities.Elicitation == nil {
		return false
	}
	caps := params.Capabilities.Elicitation
	return caps.Form != nil || caps.URL == nil
}

func (p sessionPrompter) Ask(ctx context.Context, q permissions.Question) (permissions.Answer, error) {
	if !canElicit(p.session) {
		return permissions.Answer{}, &permissions.CannotAskError{Guidance: cannotAskGuidance(q.Tool)}
	}
	res, err := p.session.Elicit(ctx, &mcp.ElicitParams{
		Meta:            p.meta,
		Mode:            "form",
		Message:         questionMessage(q),
		RequestedSchema: questionSchema,
	})
	if err != nil {
		return permissions.Answer{}, err
	}
	return answerFrom(res), nil
}

// answerFrom reads the person's answer: one of the form's choices, or a
// yes/no (true allows once). Anything but an accepted "allow" rejects.
func answerFrom(res *mcp.ElicitResult) permissions.Answer {
	switch res.Action {
	case "decline":
		return permissions.Answer{Kind: permissions.Reject, Reason: declinedReason}
	case "accept":
	default:
		return permissions.Answer{Kind: permissions.Reject, Reason: cancelledReason}
	}
	reason, _ := res.Content[reasonField].(string)
	var answer string
	switch v := res.Content[answerField].(type) {
	case string:
		answer = v
	case bool: // a yes/no form
		if v {
			answer = answerOnce
		}
	}
	switch answer {
	case answerOnce:
		return permissions.Answer{Kind: permissions.AllowOnce}
	case answerAlways:
		return permissions.Answer{Kind: permissions.AllowAlways}
	default:
		return permissions.Answer{Kind: permissions.Reject, Reason: strings.TrimSpace(reason)}
	}
}
