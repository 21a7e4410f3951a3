package gateway

import (
	"fmt"
	"strings"

	"github.com/mcpexec/mcpexec/exectool"
	"github.com/mcpexec/mcpexec/permissions"
)

// Text the model or the person can read. Keep it English and stable for the
// same input, free of tuning numbers.

// cannotAskGuidance is the model's explanation when a call needs the
// person's approval and the client cannot ask (no elicitation).
func cannotAskGuidance(tool string) string {
	return fmt.Sprintf("this MCP client cannot show permission questions (it does not support elicitation). "+
		"The user can permit the call by adding %q to permissions.allow in the mcpexec settings file.", tool)
}

// The elicitation form that asks the person about one call.
const (
	answerField = "answer"
	reasonField = "reason"

	answerOnce   = "allow once"
	answerAlways = "allow always"
	answerDeny   = "deny"
)

// maxPreview bounds the argument preview in a question.
const maxPreview = 400

func questionMessage(q permissions.Question) string {
	args := strings.Join(strings.Fields(string(q.Args)), " ")
	if args == "" {
		args = "{}"
	}
	if r := []rune(args); len(r) > maxPreview {
		args = string(r[:maxPreview]) + "…"
	}
	tool := q.Tool
	if h := permissions.DescribeHints(q.Hints); h != "" {
		tool += " (its server says: " + h + ")"
	}
	return fmt.Sprintf("A script run by Exec wants to call %s with %s. Allow it?", tool, args)
}

// questionSchema is the form: the answer, and an optional reason the model
// is told when the call is denied.
var questionSchema = map[string]any{
	"type": "object",
	"properties": map[string]any{
		answerField: map[string]any{
			"type":        "string",
			"title":       "Answer",
			"enum":        []string{answerOnce, answerAlways, answerDeny},
			"description": "allow always saves an allow rule for this tool in the settings file",
		},
		reasonField: map[string]any{
			"type":        "string",
			"title":       "Reason",
			"description": "optional: why the call is denied, passed on to the model",
		},
	},
	"required": []string{answerField},
}

// Failures of a retry that answers a parked run.
const (
	unknownRunText = "Unknown run: the run these answers are for is not known here: it ended long ago and was forgotten. " +
		"The calls it waited on did not run; tool calls that had already completed stay in effect."
	closingText = "The gateway is shutting down: the call did not run."
	// expiredRunText is a task's error once its run's end is forgotten.
	expiredRunText = "The task's result has expired: it ended long enough ago that it is no longer kept."
)

// textRunLost is the failure of a retry whose run was lost with the
// process that held it: replica (an address), or, without replicas, this
// gateway's earlier incarnation.
func textRunLost(replica string) string {
	where := "the gateway restarted since it parked, and the run was lost with it"
	if replica != "" {
		where = "it waited on gateway replica " + replica + ", which is gone (stopped, restarted or crashed), and the run was lost with its replica"
	}
	return "Run lost: the run these answers are for no longer exists: " + where + ". " +
		"The calls it waited on did not run; tool calls that had already completed stay in effect."
}

// textReplicaUnknown refuses a retry whose run waits on a replica this
// gateway is not joined to.
func textReplicaUnknown(replica string) string {
	return "The run these answers are for waits on gateway replica " + replica +
		", which is not among this gateway's replicas, so the answers could not reach it; nothing was run."
}

// textForwardFailed is the failure of a retry this replica could not pass
// to the replica holding its run, or whose answer it could not read.
func textForwardFailed(replica string, err error) string {
	return "The answers could not be passed to gateway replica " + replica + ", which holds the run: " + err.Error() + "."
}

// Denial reasons when the person closed the question without answering.
const (
	declinedReason  = "the user declined the question"
	cancelledReason = "the user dismissed the question"
)

// textStillRunning is the result of an Exec call whose script goes on
// after the call stopped waiting: its handle and what it did so far.
func textStillRunning(handle, summary string) string {
	return fmt.Sprintf("Still running: the script has not finished yet. Its handle is %s: call Exec with {\"wait\": %q} to wait for its result, or {\"cancel\": %q} to stop it.\nSo far: %s",
		handle, handle, handle, exectool.OneLine(summary))
}

// textUnknownHandle refuses a wait or cancel that names no run of the
// session.
func textUnknownHandle(handle string) string {
	return fmt.Sprintf("No script of this session is running under the handle %q: it is unknown, was started by another client, or its result was already returned.", handle)
}

// textCancelledRun is the result of a cancel.
func textCancelledRun(calls []string) string {
	return "The script was cancelled. Tool calls it had already made stay in effect.\nSo far: " + exectool.OneLine(exectool.Summary(calls, false))
}
