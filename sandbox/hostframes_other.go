//go:build !linux

package sandbox

import "os"

// processConn is a worker process's connection to its host: a reader
// goroutine hands the frames on (see chanFrames).
func processConn(in, out *os.File, hostGone func()) (*conn, hostFrames, error) {
	c := newConn(in, out)
	return c, newChanFrames(c), nil
}
