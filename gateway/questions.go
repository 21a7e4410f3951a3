package gateway

import (
	"encoding/json"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/mcpexec/mcpexec"
	"github.com/mcpexec/mcpexec/elicit"
)

// The questions of a parked run, as the 2026-07-28 protocol carries them:
// each is one elicitation input request, keyed by the question's id within
// its run, and the client's elicitation results come back keyed the same.
// A permission question becomes the approval form (questionSchema); a
// server's question is passed on as the server asked it (message, mode,
// schema or URL) and its answer goes back to the server unchanged.

// inputRequests are the input requests asking qs.
func inputRequests(qs []mcpexec.Question) mcp.InputRequestMap {
	out := make(mcp.InputRequestMap, len(qs))
	for _, q := range qs {
		switch {
		case q.Permission != nil:
			out[q.ID] = &mcp.ElicitParams{Mode: "form", Message: questionMessage(*q.Permission), RequestedSchema: questionSchema}
		case q.Elicitation != nil:
			out[q.ID] = serverQuestion(*q.Elicitation)
		}
	}
	return out
}

// serverQuestion is a server's question as an input request.
func serverQuestion(r elicit.Request) *mcp.ElicitParams {
	p := &mcp.ElicitParams{Mode: r.Mode, Message: r.Message, URL: r.URL, ElicitationID: r.ElicitationID}
	if p.Mode == "" {
		p.Mode = "form"
	}
	if len(r.Schema) > 0 {
		p.RequestedSchema = json.RawMessage(r.Schema)
	}
	return p
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
