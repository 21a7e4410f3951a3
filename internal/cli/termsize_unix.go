//go:build unix

package cli

import (
	"os"
	"os/signal"

	"golang.org/x/sys/unix"
)

// terminalColumns asks the terminal f is how many columns wide it is; 0
// when it cannot say (f is not a terminal).
func terminalColumns(f *os.File) int {
	ws, err := unix.IoctlGetWinsize(int(f.Fd()), unix.TIOCGWINSZ)
	if err != nil {
		return 0
	}
	return int(ws.Col)
}

// notifyResize delivers a signal on ch whenever the terminal is resized.
func notifyResize(ch chan<- os.Signal) { signal.Notify(ch, unix.SIGWINCH) }
