package permissions

import (
	"fmt"
	"strings"

	"github.com/mcpexec/mcpexec/toolpool"
)

// Every sentence here can reach the model (through a denied call's error) or
// the person (through a prompt or a log). Keep them English, stable for the
// same input, and free of tuning numbers.

func disallowedReason(tool, rule string) string {
	return fmt.Sprintf("%s is not available: the settings list %q in disallowedTools", tool, rule)
}

func deniedByRuleReason(tool, rule string) string {
	return fmt.Sprintf("permission to call %s is denied by the deny rule %q", tool, rule)
}

func askRuleReason(tool, rule string) string {
	return fmt.Sprintf("the ask rule %q requires confirmation for %s", rule, tool)
}

func allowRuleReason(tool, rule string) string {
	return fmt.Sprintf("the allow rule %q permits %s", rule, tool)
}

func noRuleReason(tool string) string {
	return fmt.Sprintf("no permission rule matches %s, so the user is asked", tool)
}

func deniedByUserReason(tool, why string) string {
	if why == "" {
		return fmt.Sprintf("the user denied permission to call %s", tool)
	}
	return fmt.Sprintf("the user denied permission to call %s: %s", tool, why)
}

func unattendedReason(tool, how string) string {
	text := fmt.Sprintf("permission to call %s needs the user's approval and no one is available to give it; to allow it, the user can add %q to permissions.allow in the settings file", tool, tool)
	if how != "" {
		text += ", or " + how
	}
	return text
}

func promptFailedMessage(tool string) string {
	return fmt.Sprintf("permission to call %s could not be asked", tool)
}

const gateStoppedMessage = "the permission gate has stopped"

// DescribeHints says in a few words what a tool's server says about it
// ("read-only", "destructive", "idempotent", "reaches the outside world"),
// for a person approving a call; "" when the server said nothing that
// matters for an approval.
func DescribeHints(h toolpool.Annotations) string {
	var words []string
	switch {
	case h.ReadOnly != nil && *h.ReadOnly:
		words = append(words, "read-only")
	case h.Destructive != nil && *h.Destructive:
		words = append(words, "destructive")
	case h.Destructive != nil:
		words = append(words, "not destructive")
	}
	if h.Idempotent != nil && *h.Idempotent && (h.ReadOnly == nil || !*h.ReadOnly) {
		words = append(words, "idempotent")
	}
	if h.OpenWorld != nil && *h.OpenWorld {
		words = append(words, "reaches the outside world")
	}
	return strings.Join(words, ", ")
}
