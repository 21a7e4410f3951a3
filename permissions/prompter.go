package permissions

import (
	"context"
	"encoding/json"
)

// Question is what the person is asked: may Tool run with Args?
type Question struct {
	// Tool is the leaf tool's full name (mcp__server__tool) or Exec.
	Tool string
	// Args are the call's arguments as the caller passed them.
	Args json.RawMessage
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
}

// Prompter puts a Question to the person. The host daemon provides it. The
// gate calls it for one question at a time. Ask must return soon after ctx
// is done (the call was aborted or the gate is stopping); its answer is then
// ignored.
type Prompter interface {
	Ask(ctx context.Context, q Question) (Answer, error)
}

// PrompterFunc adapts a function to Prompter.
type PrompterFunc func(ctx context.Context, q Question) (Answer, error)

// Ask calls f.
func (f PrompterFunc) Ask(ctx context.Context, q Question) (Answer, error) { return f(ctx, q) }
