package cli

import (
	"context"
	"fmt"

	"github.com/mcpexec/mcpexec/elicit"
	"github.com/mcpexec/mcpexec/permissions"
)

// execElicitor answers servers' questions (elicitation) as permission
// questions are answered (askFor). The person answers on the terminal,
// with the prompter that asks them about permissions (one question at a
// time). --ask allow accepts a form with every field left to its default
// (the pool fills the defaults in) when that makes a complete answer; it
// declines a form with a required field that has no default, and a URL to
// visit, since nobody visits it. With no one to ask, every question is
// declined. The reason of a decline is logged on stderr.
func execElicitor(f execFlags, c console, prompter permissions.Prompter) elicit.Elicitor {
	mode, why := askFor(f, c)
	switch {
	case mode == askAllow:
		return elicit.Func(acceptDefaults)
	case mode == askPrompt:
		if lp, ok := prompter.(*linePrompter); ok {
			return lp
		}
	}
	return elicit.Unattended("no one is asked (" + why + "); --ask allow accepts a form with its defaults")
}

// pausingElicitor keeps the live line off the terminal while the person
// answers a server's question.
type pausingElicitor struct {
	elicit.Elicitor
	live *liveLine
}

func (e pausingElicitor) Elicit(ctx context.Context, r elicit.Request) (elicit.Response, error) {
	defer e.live.aside()()
	return e.Elicitor.Elicit(ctx, r)
}

// acceptDefaults accepts a form with its defaults, when every required
// field has one.
func acceptDefaults(_ context.Context, r elicit.Request) (elicit.Response, error) {
	if r.Mode != "form" {
		return elicit.Response{Action: elicit.Decline, Reason: "--ask allow answers forms only"}, nil
	}
	fields, err := elicit.Fields(r.Schema)
	if err != nil {
		return elicit.Response{Action: elicit.Decline, Reason: err.Error()}, nil
	}
	for _, f := range fields {
		if f.Required && !f.HasDefault {
			return elicit.Response{Action: elicit.Decline, Reason: fmt.Sprintf("--ask allow answers with the defaults, and the required field %q has none", f.Name)}, nil
		}
	}
	return elicit.Response{Action: elicit.Accept, Content: map[string]any{}}, nil
}
