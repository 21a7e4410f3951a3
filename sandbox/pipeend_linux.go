package sandbox

import (
	"errors"
	"io"
	"os"
	"syscall"
	"time"
	"unsafe"
)

// rawPipe is an end of a worker's pipe on Linux: the host's reader and
// writer, and a worker's writer. It reads and writes with raw system calls,
// which never enter the scheduler's system-call path: in a process whose
// threads were all idle, each ordinary read or write would also wake the
// runtime's monitor thread, a third wake-up for a crossing that needs one. It waits in the netpoller only
// when there is nothing to read or no room to write, and busy-waits first
// for a frame that is due (see busywait.go).
type rawPipe struct {
	f      *os.File
	rc     syscall.RawConn
	due    func() bool // whether a frame is due soon and busy-waiting is allowed
	window busyWindow  // the reading goroutine's
}

// pipeEnd is a reader or writer of f, a non-blocking pipe end in the
// netpoller (from os.Pipe, say); due tells a reader when a frame is due.
// A reader has a wake method (see rawPipe.wake).
func pipeEnd(f *os.File, due func() bool) io.ReadWriter {
	rc, err := f.SyscallConn()
	if err != nil {
		return f
	}
	if due == nil {
		due = func() bool { return false }
	}
	return &rawPipe{f: f, rc: rc, due: due}
}

// wake makes a reader asleep in the netpoller look again whether a frame
// is due: a run about to start wants its reader busy-waiting for it, not
// asleep since the last run. An expired read deadline is what wakes it;
// the reader clears it and reads on.
func (p *rawPipe) wake() { _ = p.f.SetReadDeadline(time.Unix(1, 0)) }

func (p *rawPipe) Read(b []byte) (int, error) {
	if len(b) == 0 {
		return 0, nil
	}
	var (
		n           int
		errno       syscall.Errno
		began, last time.Time // the first read that found nothing, the last
		busyTill    time.Time
		switches    int64 // the thread's involuntary switches when busy-waiting began
	)
	read := func(fd uintptr) bool {
		for {
			n, errno = rawIO(syscall.SYS_READ, fd, b)
			if errno == syscall.EINTR {
				continue
			}
			if errno != syscall.EAGAIN {
				return true
			}
			now := time.Now()
			if began.IsZero() {
				began, last = now, now
				if p.due() {
					busyTill = now.Add(p.window.limit())
					switches = involuntarySwitches()
				}
			}
			if now.Before(busyTill) {
				lostCPU := now.Sub(last) >= busyWaitGap && involuntarySwitches() != switches
				if !lostCPU && !cpuWanted() {
					last = now
					continue
				}
				if lostCPU {
					descheduled() // the CPU is wanted: sleep
				}
				busyTill = now
			}
			return false // sleep in the netpoller until it is readable
		}
	}
	err := p.rc.Read(read)
	for errors.Is(err, os.ErrDeadlineExceeded) {
		// Woken (the host sets no other deadline): look again.
		_ = p.f.SetReadDeadline(time.Time{})
		began, last, busyTill = time.Time{}, time.Time{}, time.Time{}
		err = p.rc.Read(read)
	}
	if !busyTill.IsZero() {
		p.window.adapt(time.Since(began))
	}
	return readOutcome(n, errno, err)
}

// readOutcome is what Read returns for a raw read of n bytes that ended
// with errno, in a RawConn.Read that ended with err.
func readOutcome(n int, errno syscall.Errno, err error) (int, error) {
	switch {
	case err != nil:
		return 0, err
	case errno != 0:
		return 0, errno
	case n == 0:
		return 0, io.EOF
	}
	return n, nil
}

func (p *rawPipe) Write(b []byte) (int, error) {
	written := 0
	var errno syscall.Errno
	err := p.rc.Write(func(fd uintptr) bool {
		for written < len(b) {
			n, e := rawIO(syscall.SYS_WRITE, fd, b[written:])
			switch e {
			case 0:
				written += n
			case syscall.EINTR:
			case syscall.EAGAIN:
				return false // wait in the netpoller for room
			default:
				errno = e
				return true
			}
		}
		return true
	})
	switch {
	case err != nil:
		return written, err
	case errno != 0:
		return written, errno
	}
	return written, nil
}

// involuntarySwitches counts the calling thread's involuntary context
// switches: a busy-wait that was away from its CPU for a while tells by it
// whether another task of this machine took the CPU (the count grew) or the
// hypervisor did (it did not, and polling on is still the faster way).
func involuntarySwitches() int64 {
	var u syscall.Rusage
	_, _, _ = syscall.RawSyscall(syscall.SYS_GETRUSAGE, rusageThread, uintptr(unsafe.Pointer(&u)), 0)
	return u.Nivcsw
}

const rusageThread = 1 // RUSAGE_THREAD

// rawIO is read(2) or write(2) of b on fd, as a raw system call: only for a
// non-blocking descriptor, which cannot hold the thread.
func rawIO(call, fd uintptr, b []byte) (int, syscall.Errno) {
	n, _, errno := syscall.RawSyscall(call, fd, uintptr(unsafe.Pointer(&b[0])), uintptr(len(b)))
	return int(n), errno
}
