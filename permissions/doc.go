// Package permissions decides whether a tool call may run, and asks the
// person when no rule settles it.
//
// Rules are strings in three lists (allow, ask, deny) plus the
// disallowedTools list of the settings file. A rule names a leaf tool by its
// full name (mcp__server__tool), a whole server (mcp__server, or
// mcp__server__*), or the Exec tool itself (Exec). Rules always match the
// leaf tool a call reaches, never the outer Exec that carried it, so wrapping
// a call in a script grants nothing.
//
// Precedence is fixed: deny beats ask beats allow, and a tool no rule names
// is asked. Decide is the pure decision; Excludes is the filter the single
// pool constructor applies, so that denied and disallowed tools are absent
// from the declarations, the catalog, search and the sandbox alike.
//
// The package is pure: the permission gate actor that applies these rules
// on the execution funnel and puts the calls no rule settles to the host's
// Prompter is actors.Gate; it reads the rules and saves "allow always"
// answers through a RuleStore.
package permissions
