//go:build !unix

package sandbox

// setDataLimit has no portable equivalent off Unix; the worker process and
// its deadline kill still contain a runaway script, without a memory cap.
func setDataLimit(uint64) error { return nil }
