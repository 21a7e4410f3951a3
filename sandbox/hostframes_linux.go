package sandbox

import (
	"errors"
	"fmt"
	"os"
	"sync/atomic"
	"syscall"
	"time"
	"unsafe"
)

// fdFrames is hostFrames for a worker process on Linux: the goroutine that
// wants the next frame reads the protocol pipe itself, so a nested call's
// answer wakes the run's loop directly, with no reader goroutine in between.
// While a frame is due soon it busy-waits (see busywait.go); otherwise it
// waits in the runtime's netpoller, which wake interrupts by expiring the
// pipe's read deadline.
//
// Waiting in the netpoller, not in a blocking system call, matters because
// a worker runs on one P (see startProcessWorker): a goroutine blocked in a
// system call holds the only P, so the runtime's monitor thread takes it
// away after 20 µs and then keeps polling every 20 µs, which across the
// workers of a busy host cost a sixth of their CPU. Reads and writes are raw
// system calls on non-blocking descriptors for the same reason: they never
// enter the scheduler's system-call path, which would also wake the monitor
// thread from its sleep.
type fdFrames struct {
	c    *conn
	pipe *os.File // the protocol pipe from the host: non-blocking, in the netpoller
	fd   int      // pipe's (its Fd method would make it blocking)
	rc   syscall.RawConn

	woken     atomic.Bool   // wake was called and not yet reported
	wokenChan chan struct{} // for waitWake; buffered, one pending is enough

	due func() *busyWindow // the window of the frame due, if busy-waiting is allowed
}

// processConn is a worker process's connection to its host on the pipes
// inFD and outFD. hostGone runs as soon as the host closes its end, even
// while a script computes and no frame is read.
func processConn(inFD, outFD uintptr, hostGone func()) (*conn, hostFrames, error) {
	for _, fd := range []uintptr{inFD, outFD} {
		if err := syscall.SetNonblock(int(fd), true); err != nil {
			return nil, nil, fmt.Errorf("protocol pipe %d: %w", fd, err)
		}
	}
	// Non-blocking, so both files join the netpoller.
	in, out := os.NewFile(inFD, "sandbox-in"), os.NewFile(outFD, "sandbox-out")
	rc, err := in.SyscallConn()
	if err != nil {
		return nil, nil, fmt.Errorf("protocol pipe: %w", err)
	}
	go watchHangUp(int(inFD), hostGone)
	frames := &fdFrames{pipe: in, fd: int(inFD), rc: rc, wokenChan: make(chan struct{}, 1)}
	frames.c = workerConn(frames, pipeEnd(out, nil))
	return frames.c, frames, nil
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
		woken, err := in.wait()
		if err != nil {
			return frame{}, false, err
		}
		if woken {
			return frame{}, true, nil
		}
	}
	// The rest of a frame the host began to write is at most one write
	// away: wait for it whatever wakes (Read keeps a wake for later).
	f, err := in.c.receive()
	return f, false, err
}

func (in *fdFrames) busyWaitWhile(due func() *busyWindow) { in.due = due }

// wait waits until the pipe is readable or wake was called, busy-waiting
// first when a frame is due.
func (in *fdFrames) wait() (woken bool, err error) {
	if in.woken.Swap(false) {
		return true, nil
	}
	var window *busyWindow
	if in.due != nil {
		window = in.due()
	}
	var began time.Time
	if window != nil {
		began = time.Now()
		till, last := began.Add(window.limit()), began
		switches := involuntarySwitches()
		for {
			if in.woken.Swap(false) {
				return true, nil
			}
			if readable(in.fd) {
				window.adapt(time.Since(began))
				return false, nil
			}
			now := time.Now()
			if now.Sub(last) >= busyWaitGap && involuntarySwitches() != switches {
				descheduled() // another task took the CPU: sleep
				break
			}
			if cpuWanted() {
				break
			}
			if !now.Before(till) {
				break
			}
			last = now
		}
	}
	for {
		err = in.rc.Read(func(fd uintptr) bool { return in.woken.Load() || readable(int(fd)) })
		if !errors.Is(err, os.ErrDeadlineExceeded) {
			break
		}
		// A wake's deadline: this one's, or that of a wake already taken
		// through woken, which left it set. Either way, look again.
		in.clearWake()
		if in.woken.Load() {
			err = nil
			break
		}
	}
	if err != nil {
		return false, err
	}
	if in.woken.Swap(false) {
		return true, nil
	}
	if window != nil {
		window.adapt(time.Since(began))
	}
	return false, nil
}

// Read is the connection's source: raw reads, waiting in the netpoller
// for the rest of a frame. A wake meanwhile stays pending.
func (in *fdFrames) Read(b []byte) (int, error) {
	if len(b) == 0 {
		return 0, nil
	}
	for {
		var (
			n     int
			errno syscall.Errno
		)
		err := in.rc.Read(func(fd uintptr) bool {
			for {
				n, errno = rawIO(syscall.SYS_READ, fd, b)
				if errno != syscall.EINTR {
					return errno != syscall.EAGAIN
				}
			}
		})
		if errors.Is(err, os.ErrDeadlineExceeded) {
			in.clearWake()
			in.woken.Store(true)
			continue
		}
		return readOutcome(n, errno, err)
	}
}

func (in *fdFrames) wake() {
	in.woken.Store(true)
	select {
	case in.wokenChan <- struct{}{}:
	default:
	}
	// An expired deadline ends a wait in the netpoller at once.
	_ = in.pipe.SetReadDeadline(time.Unix(1, 0))
}

// clearWake lifts the deadline a wake set.
func (in *fdFrames) clearWake() { _ = in.pipe.SetReadDeadline(time.Time{}) }

func (in *fdFrames) waitWake() {
	for !in.woken.Swap(false) {
		<-in.wokenChan
	}
}

func (in *fdFrames) close() {}

// readable reports whether fd has data (or a hang-up) to read now.
func readable(fd int) bool {
	fds := []pollFD{{fd: int32(fd), events: pollIn}}
	peek(fds)
	return fds[0].revents != 0
}

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
