package test262

import (
	"context"
	"strings"

	"github.com/mcpexec/mcpexec/sandbox"
)

// Sandbox runs the scripts as Exec runs a model's script: in sandbox
// worker processes, each run a fresh realm with the lockdown, the
// JavaScript platform and the transform, as global code (sandbox's global
// runs), within Timeout.
type Sandbox struct {
	workers *sandbox.Workers
}

// NewSandbox starts a pool of parallel worker processes of this binary,
// whose main must call mcpexec.MaybeRunWorker first.
func NewSandbox(parallel int) (*Sandbox, error) {
	w, err := sandbox.NewWorkers(sandbox.WorkerOptions{Warm: parallel, MaxWorkers: parallel})
	if err != nil {
		return nil, err
	}
	return &Sandbox{workers: w}, nil
}

// maxPrinted keeps what a test prints whole.
const maxPrinted = 1 << 20

// Run runs one script on a worker.
func (s *Sandbox) Run(ctx context.Context, script string) Outcome {
	res := s.workers.Run(ctx, sandbox.Request{
		Code:   script,
		Global: true,
		Limits: sandbox.Limits{Timeout: Timeout, MaxLogChars: maxPrinted},
	})
	out := Outcome{Printed: res.Logs}
	if res.OK {
		return out
	}
	reason := res.Error
	switch {
	case strings.HasPrefix(reason, sandbox.GlobalParseFailure):
		out.Phase = "parse"
		reason = strings.TrimPrefix(reason, sandbox.GlobalParseFailure)
	case strings.HasPrefix(reason, sandbox.GlobalRuntimeFailure):
		out.Phase = "runtime"
		reason = strings.TrimPrefix(reason, sandbox.GlobalRuntimeFailure)
	default:
		out.Phase = "runtime" // the worker failed: crashed, out of memory, or its time ran out
	}
	if name, message, ok := strings.Cut(reason, ": "); ok && isIdentifier(name) {
		out.Type, out.Message = name, message
	} else {
		out.Message = reason
	}
	return out
}

// Close stops the workers.
func (s *Sandbox) Close() error {
	s.workers.Close()
	return nil
}

func isIdentifier(s string) bool {
	if s == "" {
		return false
	}
	for i, r := range s {
		switch {
		case r == '_' || r == '$' || (r >= 'a' && r <= 'z') || (r >= 'A' && r <= 'Z'):
		case i > 0 && r >= '0' && r <= '9':
		default:
			return false
		}
	}
	return true
}
