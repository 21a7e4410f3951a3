package gateway

import (
	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/mcpexec/mcpexec"
	"github.com/mcpexec/mcpexec/elicit"
)

// The questions of a parked run, as the 2026-07-28 protocol carries them:
// each is one elicitation input request, keyed by the question's id within
// its run, and the client's elicitation results come back keyed the same.
// A permission question becomes the approval form (questionSchema); a
// server's question is passed on as the server asked it (mode, schema or
// URL; its message after a line naming the server and the tool, as in a
// call, forward.go) and its answer goes back to the server unchanged.

// inputRequests are the input requests asking qs; hints says what a tool's
// server says about it.
func inputRequests(qs []mcpexec.Question, hints func(tool string) string) mcp.InputRequestMap {
	out := make(mcp.InputRequestMap, len(qs))
	for _, q := range qs {
		switch {
		case q.Permission != nil:
			out[q.ID] = &mcp.ElicitParams{Mode: "form", Message: questionMessage(*q.Permission), RequestedSchema: questionSchema}
		case q.Elicitation != nil:
			out[q.ID] = forwardedParams(*q.Elicitation, hints)
		}
	}
	return out
}

// answersTo reads the client's responses to qs. A question with no
// response, or with one that is not an elicitation result, is left
// unanswered (the run goes on waiting for it); responses to no open
// question are ignored.
func answersTo(qs []mcpexec.Question, responses mcp.InputResponseMap) map[string]mcpexec.Answer {
	out := map[string]mcpexec.Answer{}
	for _, q := range qs {
		res, ok := responses[q.ID].(*mcp.ElicitResult)
		if !ok || res == nil {
			continue
		}
		switch {
		case q.Permission != nil:
			out[q.ID] = mcpexec.Answer{Permission: answerFrom(res)}
		case q.Elicitation != nil:
			out[q.ID] = mcpexec.Answer{Elicitation: elicit.Response{Action: elicit.Action(res.Action), Content: res.Content}}
		}
	}
	return out
}
