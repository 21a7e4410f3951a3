// Package tests holds the end-to-end tests: they build the demo binary once
// and drive it as a user would (exit statuses, JSON output, permission
// prompts answered on standard input, signals), and drive the mcpexec facade
// against the demo's built-in servers running as real stdio subprocesses.
// Every test also checks that no process it caused outlives it.
package tests
