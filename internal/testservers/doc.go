// Package testservers provides MCP servers for tests: a behaviour server built
// on the official Go SDK (text, structured, image, error, hanging, crashing
// and process-spawning tools), a raw JSON-RPC server that replays recorded
// tools/list replies byte for byte (pagination, list_changed floods,
// malformed replies), and a way to run either as a real stdio subprocess by
// re-executing the test binary (call MaybeServe first thing in TestMain).
package testservers
