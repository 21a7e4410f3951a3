package exectool

import (
	"encoding/json"
	"strings"
)

// A host that lets a run outlive its call (the gateway's yield) offers Exec
// two more arguments, wait and cancel, each taking the handle a run still
// going was returned under. Its description says so in two lines, after
// the sentence on the budget; the text has no numbers in it, so it stays
// the same whatever the host's timings.

const budgetSentence = "The script runs under a time budget; tool calls that completed before a failure stay in effect."

const handleLines = "A script still running when the call returns early says \"Still running\" and gives its handle (run_...); call Exec with {\"wait\": handle} to wait for its result again (it is never run twice).\n" +
	"Call Exec with {\"cancel\": handle} to stop it; tool calls it already made stay in effect."

// WithHandles returns an Exec description (Description or
// DescriptionWithCatalog) telling the model about wait and cancel.
func WithHandles(description string) string {
	return strings.Replace(description, budgetSentence, budgetSentence+"\n"+handleLines, 1)
}

// inputSchemaWithHandles is the parameter schema with wait and cancel: code
// is then no longer required, since a wait or a cancel takes none.
var inputSchemaWithHandles = json.RawMessage(`{"type":"object","properties":{` +
	`"code":{"type":"string","description":"The JavaScript or TypeScript to run: the body of an async function. Use await for tool calls and return the result."},` +
	`"wait":{"type":"string","description":"The handle of a script still running (run_...): wait for its result instead of running code."},` +
	`"cancel":{"type":"string","description":"The handle of a script still running (run_...): stop it."}` +
	`},"additionalProperties":false}`)

// InputSchemaWithHandles returns the parameter schema with wait and cancel
// (a fresh copy).
func InputSchemaWithHandles() json.RawMessage {
	return append(json.RawMessage(nil), inputSchemaWithHandles...)
}

// HandleRequest is what Exec's arguments ask of a run still going.
type HandleRequest struct {
	// Wait or Cancel is the handle; both empty: the arguments run code.
	Wait, Cancel string
}

// ParseHandle reads wait or cancel from Exec's arguments. It returns a zero
// request for arguments that run code (ParseArguments checks those), and an
// argument error for a handle that is not a string or comes with another
// argument.
func ParseHandle(args json.RawMessage) (HandleRequest, error) {
	var in map[string]json.RawMessage
	if json.Unmarshal(args, &in) != nil {
		return HandleRequest{}, nil // ParseArguments explains it
	}
	wait, hasWait := in["wait"]
	cancel, hasCancel := in["cancel"]
	if !hasWait && !hasCancel {
		return HandleRequest{}, nil
	}
	if len(in) != 1 {
		return HandleRequest{}, argumentError(`Exec takes one of "code", "wait" or "cancel".`)
	}
	var req HandleRequest
	raw, into := wait, &req.Wait
	if hasCancel {
		raw, into = cancel, &req.Cancel
	}
	if json.Unmarshal(raw, into) != nil || strings.TrimSpace(*into) == "" {
		return HandleRequest{}, argumentError(`"wait" and "cancel" take the handle of a script still running, as a string.`)
	}
	return req, nil
}
