package exectool

import (
	"strconv"
	"strings"
)

// The result summary is presentation for the person, never model input
// (EDGE-26): a count of the nested calls, then the two most recent leaf
// names, one per line. It follows the sub-agent tool's shape and never
// repeats the word Exec, which the collapsed line already shows (SUM-1).

// shownCalls is how many of the most recent calls the summary lists (SUM-3).
const shownCalls = 2

// Summary renders the summary of a run that made calls (in order); failed
// runs summarize as "failed" (SUM-6), their cause being in the result.
func Summary(calls []string, failed bool) string {
	if failed {
		return "failed"
	}
	var b strings.Builder
	if len(calls) > shownCalls {
		b.WriteString("... ")
	}
	b.WriteString(callCount(len(calls)))
	for _, name := range calls[max(0, len(calls)-shownCalls):] {
		b.WriteByte('\n')
		b.WriteString(name)
	}
	return b.String()
}

func callCount(n int) string {
	if n == 1 {
		return "1 tool call"
	}
	return strconv.Itoa(n) + " tool calls"
}

// OneLine joins a summary's lines for a one-line display:
// "2 tool calls: mcp__a__x, mcp__a__y".
func OneLine(summary string) string {
	first, rest, ok := strings.Cut(summary, "\n")
	if !ok {
		return first
	}
	return first + ": " + strings.ReplaceAll(rest, "\n", ", ")
}

// CollapsedLine is the tool block's one-line header: the tool name alone,
// with no argument preview (SUM-8): a script's first line rarely says what
// it does.
func CollapsedLine() string { return Name }
