package permissions

import (
	"fmt"
	"strings"
	"unicode"
)

// ExecTool is the name rules use for the Exec tool itself.
const ExecTool = "Exec"

const (
	mcpPrefix      = "mcp__"
	nameSeparator  = "__"
	serverWildcard = "*"
)

// ValidateRule reports whether s is a rule string this package understands.
// Strings that start with mcp__ must name a server (mcp__server), every tool
// of a server (mcp__server__*) or one tool (mcp__server__tool). Other
// non-blank strings without spaces are kept as exact names (Exec, or the
// name of a host tool), so a settings file shared with a host that has rules
// of its own still loads.
func ValidateRule(s string) error {
	if s == "" {
		return fmt.Errorf("empty rule")
	}
	if strings.IndexFunc(s, unicode.IsSpace) >= 0 {
		return fmt.Errorf("rule %q contains white space", s)
	}
	if !strings.HasPrefix(s, mcpPrefix) {
		if strings.HasPrefix(s, "mcp_") {
			return fmt.Errorf("rule %q can never match: MCP tool names start with %q (two underscores)", s, mcpPrefix)
		}
		return nil
	}
	if server, whole := strings.CutSuffix(s[len(mcpPrefix):], nameSeparator+serverWildcard); strings.Contains(s, serverWildcard) &&
		(!whole || server == "" || strings.Contains(server, serverWildcard)) {
		return fmt.Errorf("rule %q can never match: a wildcard stands only for every tool of a server, as in mcp__server__*", s)
	}
	server, tool, hasTool := strings.Cut(s[len(mcpPrefix):], nameSeparator)
	if server == "" {
		return fmt.Errorf("rule %q names no server (want mcp__server or mcp__server__tool)", s)
	}
	if hasTool && tool == "" {
		return fmt.Errorf("rule %q ends with %q (want mcp__server or mcp__server__tool)", s, nameSeparator)
	}
	return nil
}

// ruleMatches reports whether rule names fullName: the same full name, the
// name's server (mcp__server or mcp__server__*), or nothing. Malformed rules
// match nothing; they are rejected when the settings are loaded.
func ruleMatches(rule, fullName string) bool {
	if rule == fullName {
		return rule != ""
	}
	if server, ok := strings.CutSuffix(rule, nameSeparator+serverWildcard); ok {
		rule = server
	}
	// rule is now a server rule or names another tool; most rules are
	// rejected by this prefix test alone.
	rest, ok := strings.CutPrefix(fullName, rule)
	if !ok || len(rest) <= len(nameSeparator) || !strings.HasPrefix(rest, nameSeparator) {
		return false
	}
	server, ok := strings.CutPrefix(rule, mcpPrefix)
	return ok && server != "" && !strings.Contains(server, nameSeparator)
}

// firstMatch returns the first rule in rules that names fullName.
func firstMatch(rules []string, fullName string) (string, bool) {
	for _, r := range rules {
		if ruleMatches(r, fullName) {
			return r, true
		}
	}
	return "", false
}
