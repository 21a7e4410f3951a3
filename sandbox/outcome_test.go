package sandbox

import "testing"

// A run's outcome names how it ended from the host's own failure reasons,
// whatever console output preceded them.
func TestOutcomeClassifiesFailureReasons(t *testing.T) {
	cases := map[string]Result{
		OutcomeOK:          {OK: true},
		OutcomeTimeout:     {Error: msgOverBudget},
		OutcomeAborted:     {Error: msgAborted},
		OutcomeOutOfMemory: {Error: msgWorkerOutOfMemory},
		OutcomeCrash:       {Error: msgWorkerCrashed},
		OutcomeUnavailable: {Error: msgWorkerUnavailable},
		OutcomeError:       {Error: "TypeError: x is not a function"},
	}
	for want, res := range cases {
		if got := res.Outcome(); got != want {
			t.Errorf("Outcome of %q = %q, want %q", res.Error, got, want)
		}
	}
	for _, reason := range []string{msgWorkerStackOverflow, CrashResult(nil).Error} {
		if got := (Result{Error: reason}).Outcome(); got != OutcomeCrash {
			t.Errorf("Outcome of %q = %q, want crash", reason, got)
		}
	}
}
