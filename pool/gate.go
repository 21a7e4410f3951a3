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

// AllowAll is the Gate that admits every call.
type AllowAll struct{}

// Admit implements Gate.
func (AllowAll) Admit(context.Context, string, json.RawMessage) error { return nil }
