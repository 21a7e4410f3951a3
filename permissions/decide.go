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
	return v.decision, v.reason(fullName)
}

// Check applies cfg's rules to the call of fullName like Decide, and for a
// Deny returns the *DeniedError the caller is given.
func Check(cfg messages.Config, fullName string) (Decision, *DeniedError) {
	v := decide(cfg, fullName)
	if v.decision == Deny {
		return Deny, v.denial(fullName)
	}
	return v.decision, nil
}

// UserDenied is the error of a call the person rejected; why is their
// reason, passed on to the model ("" for none).
func UserDenied(tool, why string) *DeniedError {
	return &DeniedError{Tool: tool, Reason: deniedByUserReason(tool, why)}
}

// verdict is a decision with the rule, and the list, that made it.
type verdict struct {
	decision Decision
	list     ruleList
	rule     string
}

// ruleList names the list a deciding rule came from.
type ruleList int

const (
	noList ruleList = iota
	disallowedList
	denyList
	askList
	allowList
)

func decide(cfg messages.Config, fullName string) verdict {
	if rule, ok := firstMatch(cfg.DisallowedTools, fullName); ok {
		return verdict{Deny, disallowedList, rule}
	}
	if rule, ok := firstMatch(cfg.Deny, fullName); ok {
		return verdict{Deny, denyList, rule}
	}
	if rule, ok := firstMatch(cfg.Ask, fullName); ok {
		return verdict{Ask, askList, rule}
	}
	if rule, ok := firstMatch(cfg.Allow, fullName); ok {
		return verdict{Allow, allowList, rule}
	}
	return verdict{Ask, noList, ""}
}

// reason explains the verdict; it is formatted only when someone reads it.
func (v verdict) reason(fullName string) string {
	switch v.list {
	case disallowedList:
		return disallowedReason(fullName, v.rule)
	case denyList:
		return deniedByRuleReason(fullName, v.rule)
	case askList:
		return askRuleReason(fullName, v.rule)
	case allowList:
		return allowRuleReason(fullName, v.rule)
	default:
		return noRuleReason(fullName)
	}
}

// denial is the error for a Deny verdict.
func (v verdict) denial(fullName string) *DeniedError {
	return &DeniedError{Tool: fullName, Rule: v.rule, Reason: v.reason(fullName)}
}

// Excludes reports whether cfg removes fullName from the tool pool: a deny
// rule or a disallowedTools entry matches it. The one pool constructor applies
// it, so an excluded tool is absent from the flat declarations, the catalog,
// search and the sandbox alike; for Exec it means Exec is not declared and the
// MCP tools stay flatly declared.
func Excludes(cfg messages.Config, fullName string) bool {
	return decide(cfg, fullName).decision == Deny
}
