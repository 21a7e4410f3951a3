package pool

import "fmt"

// This file holds every sentence of this package a model can read: the
// errors a flat call or a script sees when an MCP call fails.

func textUnknownTool(name string) string {
	return fmt.Sprintf("MCP tool %q is not in the current tool pool; it may have been removed since the tool list was shown.", name)
}

func textServerDown(name, server, why string) string {
	return fmt.Sprintf("MCP tool %q is not available: its server %q is not connected: %s", name, server, why)
}

func textConnectionLost(name, server string) string {
	return fmt.Sprintf("MCP tool %q failed: the connection to its server %q was lost during the call.", name, server)
}

func textUnreachable(name, server string) string {
	return fmt.Sprintf("MCP tool %q failed: its server %q could not be reached.", name, server)
}

func textCancelled(name string) string {
	return fmt.Sprintf("MCP tool %q was cancelled before it finished.", name)
}

func textTimedOut(name string) string {
	return fmt.Sprintf("MCP tool %q did not finish before the time ran out.", name)
}

func textProtocolError(name, detail string) string {
	return fmt.Sprintf("MCP tool %q failed: the server answered with an error: %s", name, detail)
}

func textToolErrorWithoutText(name string) string {
	return fmt.Sprintf("MCP tool %q reported an error without a message.", name)
}

func textDenied(name string) string {
	return fmt.Sprintf("MCP tool %q was not allowed to run.", name)
}

func textReplyTooLarge(name, server, size string) string {
	return fmt.Sprintf("MCP tool %q failed: its reply (%s) is larger than the server %q is allowed to send; ask for less at a time.", name, size, server)
}

func textTaskExpired(name, server string) string {
	return fmt.Sprintf("MCP tool %q failed: it ran as a task on its server %q and outlived the time the server keeps a task, so its result is lost.", name, server)
}

func textTaskFailed(name, server, why string) string {
	return fmt.Sprintf("MCP tool %q failed: it ran as a task on its server %q, and the task failed: %s", name, server, why)
}

func textTaskUnasked(name, server string) string {
	return fmt.Sprintf("MCP tool %q failed: its server %q made a task of the call, which did not ask for one, so the task was cancelled and no result came back.", name, server)
}

func textTaskCancelled(name, server string) string {
	return fmt.Sprintf("MCP tool %q failed: it ran as a task on its server %q, and the server cancelled the task.", name, server)
}
