package hotreload

import "github.com/mcpexec/mcpexec/settings"

// The settings document and the merge of its layers live in package
// settings, which is pure; these names keep hotreload's API whole.
type (
	// Settings is a settings file as written (see settings.Settings).
	Settings = settings.Settings
	// PermissionRules are the rule lists of the "permissions" object.
	PermissionRules = settings.PermissionRules
	// Config is the merged, effective configuration.
	Config = settings.Config
)

// DefaultEnableExec is enableExec when no source sets it.
const DefaultEnableExec = settings.DefaultEnableExec

// ParseSettings decodes a settings document (see settings.ParseSettings).
func ParseSettings(data []byte) (Settings, error) { return settings.ParseSettings(data) }

// Merge combines settings layers, lowest precedence first (see
// settings.Merge).
func Merge(layers ...Settings) Config { return settings.Merge(layers...) }
