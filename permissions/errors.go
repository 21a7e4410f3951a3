package permissions

import "errors"

// DeniedError is the error a denied call gets: by a deny rule, by a
// disallowedTools entry, or by the person. Its message is the English reason
// the model is shown. Use errors.As to tell a denial from other failures.
type DeniedError struct {
	// Tool is the full name of the denied tool.
	Tool string
	// Rule is the deny rule or disallowedTools entry that matched; empty when
	// the person denied the call.
	Rule string
	// Reason is the complete explanation.
	Reason string
}

func (e *DeniedError) Error() string { return e.Reason }

// PromptError reports that the Prompter failed, so the call did not run. Its
// message names the tool only; the Prompter's own error is kept for logs and
// errors.Is/As through Unwrap.
type PromptError struct {
	Tool string
	Err  error
}

func (e *PromptError) Error() string {
	var cannot *CannotAskError
	if errors.As(e.Err, &cannot) && cannot.Guidance != "" {
		return promptFailedMessage(e.Tool) + ": " + cannot.Guidance
	}
	return promptFailedMessage(e.Tool)
}

// CannotAskError is what a Prompter returns when no person can be asked:
// the one who would answer has no way to see a question (an MCP client
// without elicitation). Its Guidance, written for the model, says how the
// call could be permitted, and is part of the denied call's error.
type CannotAskError struct {
	Guidance string
}

func (e *CannotAskError) Error() string { return e.Guidance }

// Unwrap returns the Prompter's error.
func (e *PromptError) Unwrap() error { return e.Err }

// ErrGateStopped is returned for calls that needed the person after the gate
// was stopped.
var ErrGateStopped = errors.New(gateStoppedMessage)
