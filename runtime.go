package mcpexec

import "github.com/mcpexec/mcpexec/sandbox"

// The runtime's types and defaults, as a host sets them: a host (the
// command-line tool, the gateway) reaches the sandbox through this package
// only.
type (
	// Limits bound every Exec run (Options.Limits); zero fields take the
	// defaults below.
	Limits = sandbox.Limits
	// WorkerOptions configure the worker processes scripts run in
	// (Options.Workers, and a sandbox node's workers).
	WorkerOptions = sandbox.WorkerOptions
	// Image is an image a result carries to the model.
	Image = sandbox.Image
)

// Defaults of Limits and WorkerOptions.
const (
	// DefaultTimeout is a run's wall-clock budget.
	DefaultTimeout = sandbox.DefaultTimeout
	// DefaultMaxCalls caps a run's nested calls.
	DefaultMaxCalls = sandbox.DefaultMaxCalls
	// DefaultMemoryLimit is a worker process's memory cap, in bytes.
	DefaultMemoryLimit = sandbox.DefaultMemoryLimit
	// MinMemoryLimit is the smallest memory cap a worker starts under.
	MinMemoryLimit = sandbox.MinMemoryLimit
)
