//go:build !unix

package cli

import "os"

// terminalColumns is 0: the width of the terminal is not asked here.
func terminalColumns(*os.File) int { return 0 }

// notifyResize does nothing: no signal tells of a resize here.
func notifyResize(chan<- os.Signal) {}
