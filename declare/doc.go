// Package declare assembles the tool declarations (tools[]) of one model
// request. It is decided afresh on every request from the pool snapshot and
// the effective configuration, in both directions (CONV-5): Exec and no flat
// MCP entry when the pool is non-empty and Exec is enabled, registered and
// neither excluded nor denied; otherwise every MCP tool flatly, from the same
// snapshot, so turning Exec off never takes MCP capability with it (CONV-3,
// CONV-4, EDGE-4). Built-in tools pass through untouched.
//
// A flat MCP tool whose name the model APIs would reject (longer than 64
// characters, or with characters other than letters, digits, '_' and '-')
// is declared under a stable alias (FlatNames); the host maps a call to
// the alias back to the real tool before the permission gate.
package declare
