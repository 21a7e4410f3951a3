package cli

import (
	"context"

	"github.com/mcpexec/mcpexec/elicit"
)

// execElicitor answers servers' questions (elicitation) as --ask allow
// answers permission questions: without asking. A form is accepted with
// every field left to its default (the pool fills in the schema's
// defaults); a URL to visit is declined, since nobody visits it. In the
// other modes it is nil: the library declines the questions.
func execElicitor(f execFlags) elicit.Elicitor {
	if f.ask != askAllow {
		return nil
	}
	return elicit.Func(func(_ context.Context, r elicit.Request) (elicit.Response, error) {
		if r.Mode != "form" {
			return elicit.Response{Action: elicit.Decline, Reason: "--ask allow answers forms only"}, nil
		}
		return elicit.Response{Action: elicit.Accept, Content: map[string]any{}}, nil
	})
}
