package sandbox

import (
	"errors"
	"fmt"
	"io"
	"os"
	"syscall"
	"time"
	"unsafe"
)

// fdFrames is hostFrames for a worker process on Linux: the goroutine that
// wants the next frame waits for it in poll(2) on the protocol pipe and an
// eventfd that wake signals, then reads it with a blocking read, on its own
// thread. A nested call's answer thus wakes the run's loop directly: no
// reader goroutine, no netpoller, no second thread in between. While the
// run has calls in flight, it busy-waits for the answers first (see
// busywait.go).
type fdFrames struct {
	c      *conn
	file   *os.File // owns in: its finalizer would close it
	in     int      // the protocol pipe from the host, in blocking mode
	wakeFD int      // an eventfd

	due func() *busyWindow // the window of the frame due, if busy-waiting is allowed
}

// processConn is a worker process's connection to its host. hostGone runs
// as soon as the host closes its end, even while a script computes and no
// frame is read.
func processConn(in, out *os.File, hostGone func()) (*conn, hostFrames, error) {
	fd := int(in.Fd())
	if err := syscall.SetNonblock(fd, false); err != nil {
		return nil, nil, fmt.Errorf("protocol pipe: %w", err)
	}
	wake, _, errno := syscall.Syscall(syscall.SYS_EVENTFD2, 0, syscall.O_CLOEXEC|syscall.O_NONBLOCK, 0)
	if errno != 0 {
		return nil, nil, fmt.Errorf("eventfd: %w", errno)
	}
	go watchHangUp(fd, hostGone)
	c := newConn(blockingReader(fd), out)
	return c, &fdFrames{c: c, file: in, in: fd, wakeFD: int(wake)}, nil
}

// watchHangUp calls hostGone when the host's end of the pipe is closed.
// Asking poll(2) for no event still reports a hang-up, and never the data
// the run's loop reads.
func watchHangUp(fd int, hostGone func()) {
	fds := []pollFD{{fd: int32(fd)}}
	if err := poll(fds); err == nil && fds[0].revents&(pollHangUp|pollError|pollInvalid) != 0 {
		hostGone()
	}
}

func (in *fdFrames) receive() (frame, bool, error) {
	if in.c.r.Buffered() == 0 {
		readable, woken, err := in.wait()
		if err != nil {
			return frame{}, false, err
		}
		if woken || !readable {
			return frame{}, true, nil
		}
	}
	// The rest of a frame the host began to write is at most one write
	// away: wait for it whatever wakes.
	f, err := in.c.receive()
	return f, false, err
}

func (in *fdFrames) busyWaitWhile(due func() *busyWindow) { in.due = due }

func (in *fdFrames) waitWake() {
	for {
		if _, woken, err := in.poll(false, true); woken || err != nil {
			return
		}
	}
}

// wait waits until the pipe is readable or wake was called, busy-waiting
// first when a frame is due.
func (in *fdFrames) wait() (readable, woken bool, err error) {
	var window *busyWindow
	if in.due != nil {
		window = in.due()
	}
	if window == nil {
		return in.poll(true, true)
	}
	began := time.Now()
	till := began.Add(window.limit())
	for {
		readable, woken, err = in.poll(true, false)
		if err != nil || woken {
			return readable, woken, err
		}
		if readable || !time.Now().Before(till) {
			break
		}
		yield()
	}
	if !readable {
		if readable, woken, err = in.poll(true, true); err != nil || woken {
			return readable, woken, err
		}
	}
	window.adapt(time.Since(began))
	return readable, woken, err
}

// poll waits until the pipe is readable (when withPipe) or wake was called,
// and consumes the wake-up; it only looks when not block.
func (in *fdFrames) poll(withPipe, block bool) (readable, woken bool, err error) {
	fds := []pollFD{{fd: int32(in.wakeFD), events: pollIn}, {fd: int32(in.in), events: pollIn}}
	if !withPipe {
		fds = fds[:1]
	}
	if !block {
		peek(fds)
	} else if err := poll(fds); err != nil {
		return false, false, err
	}
	if fds[0].revents&pollIn != 0 {
		var count [8]byte
		_, _ = syscall.Read(in.wakeFD, count[:])
		woken = true
	}
	// A hang-up counts as readable: the read then ends the connection.
	readable = withPipe && fds[1].revents != 0
	return readable, woken, nil
}

func (in *fdFrames) wake() {
	one := [8]byte{1}
	_, _ = syscall.Write(in.wakeFD, one[:])
}

func (in *fdFrames) close() { _ = syscall.Close(in.wakeFD) }

// pollFD is struct pollfd of poll(2).
type pollFD struct {
	fd      int32
	events  int16
	revents int16
}

const (
	pollIn      = 0x1
	pollError   = 0x8
	pollHangUp  = 0x10
	pollInvalid = 0x20
)

// poll waits, without a timeout, until one of fds has an event (ppoll(2),
// which every Linux architecture has).
func poll(fds []pollFD) error {
	for {
		_, _, errno := syscall.Syscall6(syscall.SYS_PPOLL, uintptr(unsafe.Pointer(&fds[0])), uintptr(len(fds)), 0, 0, 0, 0)
		switch errno {
		case 0:
			return nil
		case syscall.EINTR:
			continue
		default:
			return errno
		}
	}
}

// peek is poll(2) with a zero timeout, which cannot block: a raw system
// call, which costs a busy-wait less than the scheduler's system-call path.
func peek(fds []pollFD) {
	var zero syscall.Timespec
	_, _, _ = syscall.RawSyscall6(syscall.SYS_PPOLL, uintptr(unsafe.Pointer(&fds[0])), uintptr(len(fds)), uintptr(unsafe.Pointer(&zero)), 0, 0, 0)
}

// blockingReader reads a file descriptor in blocking mode with plain read
// calls, outside the runtime's netpoller.
type blockingReader int

func (fd blockingReader) Read(p []byte) (int, error) {
	for {
		n, err := syscall.Read(int(fd), p)
		switch {
		case errors.Is(err, syscall.EINTR):
			continue
		case err != nil:
			return 0, err
		case n == 0 && len(p) > 0:
			return 0, io.EOF
		}
		return n, nil
	}
}
