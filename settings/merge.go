package settings

import (
	"slices"

	"github.com/mcpexec/mcpexec/messages"
)

// Config is the merged, effective configuration (see messages.Config,
// where it is defined so that every actor can carry it).
type Config = messages.Config

// DefaultEnableExec is enableExec when no source sets it.
const DefaultEnableExec = true

// Merge combines settings layers, lowest precedence first (settings file,
// managed-settings file, remote override). The last layer that sets
// enableExec decides it, else DefaultEnableExec. Rule lists and
// disallowedTools are the union of all layers in order, without repeats.
// The result shares no memory with the layers.
func Merge(layers ...Settings) Config {
	cfg := Config{EnableExec: DefaultEnableExec}
	for _, l := range layers {
		if l.EnableExec != nil {
			cfg.EnableExec = *l.EnableExec
		}
		cfg.Allow = union(cfg.Allow, l.Permissions.Allow)
		cfg.Ask = union(cfg.Ask, l.Permissions.Ask)
		cfg.Deny = union(cfg.Deny, l.Permissions.Deny)
		cfg.DisallowedTools = union(cfg.DisallowedTools, l.DisallowedTools)
	}
	return cfg
}

func union(dst, src []string) []string {
	for _, s := range src {
		if !slices.Contains(dst, s) {
			dst = append(dst, s)
		}
	}
	return dst
}
