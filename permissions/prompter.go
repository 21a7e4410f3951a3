package permissions

import (
	"context"
	"encoding/json"

	"github.com/mcpexec/mcpexec/messages"
	"github.com/mcpexec/mcpexec/toolpool"
)

// Question is what the person is asked: may Tool run with Args?
type Question struct {
	// Tool is the leaf tool's full name (mcp__server__tool) or Exec.
	Tool string
	// Args are the call's arguments as the caller passed them.
	Args json.RawMessage
	// AskRule is the ask rule that makes this question come back every
	// time, or "" when none does. An ask rule beats an allow rule, so
	// "allow always" then saves a rule that takes effect only once the ask
	// rule is removed: a Prompter should say so.
	AskRule string
	// Hints are what the tool's server says about it (read-only,
	// destructive, ...), for the person to see what is being approved; the
	// zero value when it said nothing. They are never a reason to allow.
	Hints toolpool.Annotations
}

// NewQuestion is the Question for a call of tool under cfg, with the tool's
// hints.
func NewQuestion(cfg messages.Config, tool string, args json.RawMessage, hints toolpool.Annotations) Question {
	q := Question{Tool: tool, Args: args, Hints: hints}
	if v := decide(cfg, tool); v.list == askList {
		q.AskRule = v.rule
	}
	return q
}

// AnswerKind is the person's choice.
type AnswerKind int

// The choices. The zero value is Reject, so an Answer left empty by mistake
// never lets a call through.
const (
	Reject AnswerKind = iota
	AllowOnce
	AllowAlways
)

func (k AnswerKind) String() string {
	switch k {
	case AllowOnce:
		return "allow once"
	case AllowAlways:
		return "allow always"
	default:
		return "reject"
	}
}

// Answer is the person's reply to a Question.
type Answer struct {
	Kind AnswerKind
	// Reason is the person's explanation for a Reject, passed on to the model.
	Reason string
	// Unattended marks a Reject given because no one was there to answer;
	// the model is then told how the call can be allowed, and Reason (if
	// any) adds a way to the settings file's allow rule.
	Unattended bool
}

// Unattended is the Prompter of a host with no person to ask: it refuses
// every call no rule settles, and the refusal tells the model how to allow
// it: an allow rule in the settings file, or how, when not empty (a flag of
// the host, say).
func Unattended(how string) Prompter {
	return PrompterFunc(func(context.Context, Question) (Answer, error) {
		return Answer{Kind: Reject, Unattended: true, Reason: how}, nil
	})
}

// Rejected is the error of a call the Prompter's answer a refused.
func Rejected(tool string, a Answer) *DeniedError {
	if a.Unattended {
		return &DeniedError{Tool: tool, Reason: unattendedReason(tool, a.Reason)}
	}
	return UserDenied(tool, a.Reason)
}

// Prompter puts a Question to the person. The host daemon provides it. The
// gate calls it for one question at a time. Ask must return soon after ctx
// is done (the call was aborted or the gate is stopping); its answer is then
// ignored.
type Prompter interface {
	Ask(ctx context.Context, q Question) (Answer, error)
}

// ConcurrentPrompter is a Prompter that can hold any number of questions
// open at once: the gate hands it each question as it comes, instead of one
// at a time behind the questions before it. A run that parks its questions
// until an answer arrives in a later request is one; a terminal that shows
// one prompt at a time is not.
type ConcurrentPrompter interface {
	Prompter
	// HoldsManyQuestions marks the Prompter as concurrent.
	HoldsManyQuestions()
}

// prompterKey is the context key of WithPrompter.
type prompterKey struct{}

// WithPrompter returns ctx carrying p: the questions about the calls made
// under ctx go to p instead of the gate's own Prompter.
func WithPrompter(ctx context.Context, p Prompter) context.Context {
	return context.WithValue(ctx, prompterKey{}, p)
}

// PrompterFor is the Prompter the questions of calls made under ctx go to:
// the one WithPrompter put there, else fallback.
func PrompterFor(ctx context.Context, fallback Prompter) Prompter {
	if p, ok := ctx.Value(prompterKey{}).(Prompter); ok && p != nil {
		return p
	}
	return fallback
}

// PrompterFunc adapts a function to Prompter.
type PrompterFunc func(ctx context.Context, q Question) (Answer, error)

// Ask calls f.
func (f PrompterFunc) Ask(ctx context.Context, q Question) (Answer, error) { return f(ctx, q) }
