//go:build unix

package sandbox

import (
	"bytes"
	"os"
	"strconv"
	"syscall"
)

// setDataLimit caps the process's data segment and private writable
// mappings, which is where the Go heap lives.
func setDataLimit(limit uint64) error {
	return syscall.Setrlimit(syscall.RLIMIT_DATA, &syscall.Rlimit{Cur: limit, Max: limit})
}

// mappedData is what RLIMIT_DATA counts of this process now (VmData in
// /proc/self/status), or 0 where that cannot be read.
func mappedData() uint64 {
	status, err := os.ReadFile("/proc/self/status")
	if err != nil {
		return 0
	}
	for _, line := range bytes.Split(status, []byte("\n")) {
		rest, ok := bytes.CutPrefix(line, []byte("VmData:"))
		if !ok {
			continue
		}
		kb, err := strconv.ParseUint(string(bytes.TrimSuffix(bytes.TrimSpace(rest), []byte(" kB"))), 10, 64)
		if err != nil {
			return 0
		}
		return kb << 10
	}
	return 0
}
