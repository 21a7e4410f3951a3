//go:build !unix

package sandbox

// setDataLimit has no portable equivalent off Unix; the worker process and
// its deadline kill still contain a runaway script, without a memory cap.
func setDataLimit(uint64) error { return nil }

// mappedData has nothing to measure where there is no data limit.
func mappedData() uint64 { return 0 }
