package sandbox

import "strings"

// Outcomes of a run, as telemetry and the call audit name them.
const (
	OutcomeOK          = "ok"
	OutcomeError       = "error" // the script threw, did not compile, or never settled
	OutcomeTimeout     = "timeout"
	OutcomeAborted     = "aborted"
	OutcomeExpired     = "expired" // waited for a person's answer longer than it may
	OutcomeOutOfMemory = "out_of_memory"
	OutcomeCrash       = "crash"
	OutcomeUnavailable = "unavailable"
)

// Outcome classifies how the run ended, from its failure reason: a few
// stable classes for metrics and span status, never the script's own text.
func (r Result) Outcome() string {
	switch {
	case r.OK:
		return OutcomeOK
	case r.Error == msgOverBudget:
		return OutcomeTimeout
	case r.Error == msgAborted:
		return OutcomeAborted
	case r.Error == msgExpired:
		return OutcomeExpired
	case r.Error == msgWorkerOutOfMemory:
		return OutcomeOutOfMemory
	case r.Error == msgWorkerCrashed, r.Error == msgWorkerStackOverflow, strings.HasPrefix(r.Error, msgCrashed):
		return OutcomeCrash
	case r.Error == msgWorkerUnavailable, r.Error == msgAllWorkersParked:
		return OutcomeUnavailable
	}
	return OutcomeError
}

// Size is how many bytes a nested call handed back: the value's JSON and
// the images beside it.
func (r CallResult) Size() int {
	n := len(r.Value)
	for _, img := range r.Images {
		n += len(img.Data)
	}
	return n
}

// Runs is how many runs the worker has served: 0 for a fresh worker.
// Call it between runs, from the goroutine that holds the worker.
func (w *Worker) Runs() int { return w.runs }
