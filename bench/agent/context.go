package agent

import (
	"encoding/json"
)

// Context is what a model reads before its first turn: the tools as they
// are declared to it, the gateway's instructions and the task. Each later
// turn re-reads it with the transcript so far.
type Context struct {
	Declarations string
	Instructions string
	Prompt       string
}

// declarations renders the tools as a model API takes them: name,
// description and input schema (output schemas and annotations stay with
// the client).
func declarations(tools []toolDecl) (string, error) {
	b, err := json.Marshal(tools)
	return string(b), err
}

type toolDecl struct {
	Name        string `json:"name"`
	Description string `json:"description"`
	InputSchema any    `json:"input_schema"`
}

// Tokens is a run's context, counted.
type Tokens struct {
	// Prefix is the declarations, instructions and task: read on every turn.
	Prefix int
	// Declarations alone (the tools' share of Prefix).
	Declarations int
	// Summed is the context summed over all turns: turn k reads the prefix
	// and every call and result before it.
	Summed int
}

// countContext counts a run: with n calls there are n+1 model turns (the
// last reads the last result and answers).
func countContext(setup Setup, c Context, steps []Step) (Tokens, error) {
	texts := []string{c.Declarations, c.Instructions, c.Prompt}
	for _, s := range steps {
		texts = append(texts, s.Call, s.Result)
	}
	counts, err := countTokens(setup, texts)
	if err != nil {
		return Tokens{}, err
	}
	t := Tokens{Declarations: counts[0], Prefix: counts[0] + counts[1] + counts[2]}
	history := 0
	for turn := 0; turn <= len(steps); turn++ {
		t.Summed += t.Prefix + history
		if turn < len(steps) {
			history += counts[3+2*turn] + counts[4+2*turn]
		}
	}
	return t, nil
}
