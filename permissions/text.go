package permissions

import "fmt"

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
