// Package settings reads a settings document (enableExec, permission rules,
// disallowedTools) and merges the layers of an administrator's sources into
// the one effective configuration. It is pure: no files, no watching, no
// actors (package hotreload does those), so its rules can be tested and
// reused without them.
package settings
