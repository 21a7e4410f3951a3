package permissions

import (
	"context"

	"github.com/mcpexec/mcpexec/messages"
)

// RuleStore is where a permission gate reads the effective rules and saves
// "allow always" answers. The config actor's handle (hotreload.Service) is
// one.
type RuleStore interface {
	// Current returns the effective configuration; it must be cheap.
	Current() messages.Config
	// AllowAlways persists rule as an allow rule. When it returns nil,
	// Current already includes the rule.
	AllowAlways(ctx context.Context, rule string) error
}
