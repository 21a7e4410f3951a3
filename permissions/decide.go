package permissions

import "github.com/mcpexec/mcpexec/messages"

// Decision is what the rules say about a call.
type Decision int

// The decisions. The zero value is Ask, the safe answer when nothing else is
// known.
const (
	Ask Decision = iota
	Allow
	Deny
)

func (d Decision) String() string {
	switch d {
	case Allow:
		return "allow"
	case Deny:
		return "deny"
	default:
		return "ask"
	}
}

// Decide applies cfg's rules to the call of fullName: a leaf tool's full name
// (mcp__server__tool) or Exec. A disallowedTools entry or a deny rule denies,
// then an ask rule asks, then an allow rule allows; a name no rule matches is
// asked. The reason is English and names the rule that decided; for Deny it
// is the text the model is shown.
func Decide(cfg messages.Config, fullName string) (Decision, string) {
	v := decide(cfg, fullName)
	return v.decision, v.reason
}

// verdict is a decision with the rule that made it.
type verdict struct {
	decision Decision
	rule     string
	reason   string
}

func decide(cfg messages.Config, fullName string) verdict {
	if rule, ok := firstMatch(cfg.DisallowedTools, fullName); ok {
		return verdict{Deny, rule, disallowedReason(fullName, rule)}
	}
	if rule, ok := firstMatch(cfg.Deny, fullName); ok {
		return verdict{Deny, rule, deniedByRuleReason(fullName, rule)}
	}
	if rule, ok := firstMatch(cfg.Ask, fullName); ok {
		return verdict{Ask, rule, askRuleReason(fullName, rule)}
	}
	if rule, ok := firstMatch(cfg.Allow, fullName); ok {
		return verdict{Allow, rule, allowRuleReason(fullName, rule)}
	}
	return verdict{Ask, "", noRuleReason(fullName)}
}

// denial is the error for a Deny verdict.
func (v verdict) denial(fullName string) *DeniedError {
	return &DeniedError{Tool: fullName, Rule: v.rule, Reason: v.reason}
}

// Excludes reports whether cfg removes fullName from the tool pool: a deny
// rule or a disallowedTools entry matches it. The one pool constructor applies
// it, so an excluded tool is absent from the flat declarations, the catalog,
// search and the sandbox alike; for Exec it means Exec is not declared and the
// MCP tools stay flatly declared.
func Excludes(cfg messages.Config, fullName string) bool {
	return decide(cfg, fullName).decision == Deny
}
