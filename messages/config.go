package messages

// Config is the merged, effective configuration: what the rest of the system
// acts on. It is built by the config actor from the settings file, the
// managed-settings file and the remote override, and is never mutated after it
// is published (receivers may share its slices but must not write to them).
type Config struct {
	// EnableExec reports whether Exec is offered: remote override, then
	// managed-settings file, then settings file, then the default (true).
	EnableExec bool
	// Allow, Ask and Deny are permission rule strings: a leaf tool's full name
	// (mcp__server__tool), a whole server (mcp__server) or Exec.
	Allow, Ask, Deny []string
	// DisallowedTools removes tools (same rule forms) from the pool entirely.
	DisallowedTools []string
}

// ConfigSource names what triggered a ConfigChanged.
type ConfigSource string

// The sources of a configuration change.
const (
	SourceStart        ConfigSource = "start"
	SourceSettingsFile ConfigSource = "settings-file"
	SourceManagedFile  ConfigSource = "managed-settings-file"
	SourceRemote       ConfigSource = "remote"
	SourceAllowRule    ConfigSource = "allow-rule"
)

// ConfigChanged is published by the config actor to every subscriber after
// each reload attempt that found something new: changed file content, a new
// remote value, a saved "allow always" rule, or a source that stopped loading.
type ConfigChanged struct {
	// Seq increases by one with every published change, so a subscriber can
	// tell how many reloads happened between two events it saw.
	Seq uint64
	// Config is the effective configuration after this event. When Err is set
	// it is the last good configuration, unchanged.
	Config Config
	// Source is what triggered the event.
	Source ConfigSource
	// Err is set when Source could not be loaded (a malformed file, an
	// unreachable endpoint); the configuration was kept as it was.
	Err error
}

// SaveAllowRule asks the config actor to persist an allow rule to the
// settings file, merged with whatever the file holds now (reply:
// *AllowRuleSaved). The new configuration is published before the reply.
type SaveAllowRule struct {
	Rule string
}

// AllowRuleSaved answers SaveAllowRule; Err is nil when the rule is on disk.
type AllowRuleSaved struct {
	Rule string
	Err  error
}
