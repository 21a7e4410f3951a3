//go:build !linux

package sandbox

import "os"

// processConn is a worker process's connection to its host on the pipes
// inFD and outFD: a reader goroutine hands the frames on (see chanFrames).
func processConn(inFD, outFD uintptr, hostGone func()) (*conn, hostFrames, error) {
	c := workerConn(os.NewFile(inFD, "sandbox-in"), os.NewFile(outFD, "sandbox-out"))
	return c, newChanFrames(c), nil
}
