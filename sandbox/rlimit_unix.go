//go:build unix

package sandbox

import "syscall"

// setDataLimit caps the process's data segment and private writable
// mappings, which is where the Go heap lives.
func setDataLimit(bytes uint64) error {
	return syscall.Setrlimit(syscall.RLIMIT_DATA, &syscall.Rlimit{Cur: bytes, Max: bytes})
}
