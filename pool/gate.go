package pool

import (
	"context"
	"encoding/json"
)

// Gate is the funnel's first step: it admits or refuses a call before it
// reaches a server. The permissions package implements it; the default
// admits everything. A refusal's Error text is what the caller shows, so it
// must be a clear English sentence.
type Gate interface {
	Admit(ctx context.Context, name string, args json.RawMessage) error
}

// RuleGate is a Gate that can also tell, without asking anyone, that its
// rules forbid a call (a deny rule, a disallowed tool). The funnel asks it
// about a call that continues one the Gate admitted earlier: nobody is
// asked again, but a rule added since (hot reload, managed settings) still
// refuses the call. Its refusal is shown like Admit's.
type RuleGate interface {
	Gate
	Forbidden(name string) error
}

// AllowAll is the Gate that admits every call.
type AllowAll struct{}

// Admit implements Gate.
func (AllowAll) Admit(context.Context, string, json.RawMessage) error { return nil }
