package pool

import (
	"context"
	"errors"
)

// Outcome classifies a funnel call's error for telemetry and the call
// audit: "ok" for nil, else a low-cardinality class that never carries the
// error's text.
func Outcome(err error) string {
	var ce *CallError
	var te *ToolError
	switch {
	case err == nil:
		return "ok"
	case errors.As(err, &te):
		return "tool_error" // the MCP conventions' name for isError
	case errors.As(err, &ce):
		switch ce.Kind {
		case KindUnknownTool:
			return "unknown_tool"
		case KindServerDown:
			return "server_down"
		case KindDenied:
			return "denied"
		case KindProtocol:
			return "protocol_error"
		case KindConnectionLost:
			return "connection_lost"
		case KindReplyTooLarge:
			return "reply_too_large"
		case KindCancelled:
			if errors.Is(ce.err, context.DeadlineExceeded) {
				return "timeout"
			}
			return "cancelled"
		}
	case errors.Is(err, context.DeadlineExceeded):
		return "timeout"
	case errors.Is(err, context.Canceled):
		return "cancelled"
	}
	return "failed"
}
