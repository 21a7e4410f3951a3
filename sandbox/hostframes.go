package sandbox

import "sync"

// hostFrames hands a worker the host's frames, on the goroutine that handles
// them: between runs the one serving, during a run the run's loop, which
// waits for the host's answers by reading them itself. That saves the two
// goroutine hand-offs per nested call that a reader goroutine would cost
// (reader to loop, and the wake-up of the loop's thread), which dominate a
// nested call's time on a busy machine.
type hostFrames interface {
	// receive waits for the next frame, or until wake is called (woken,
	// and no frame).
	receive() (f frame, woken bool, err error)
	// wake makes a receive in progress return woken, or the next one if
	// none is; any goroutine may call it.
	wake()
	// busyWaitWhile makes receive busy-wait before it sleeps whenever due
	// gives a window, that of the kind of frame due (see busywait.go),
	// where waiting can poll.
	busyWaitWhile(due func() *busyWindow)
	// waitWake waits for wake alone: the connection has ended, and the
	// run goes on until its timers or its budget end it.
	waitWake()
	// close releases what the source holds once serving is over.
	close()
}

// chanFrames is hostFrames for any reader: a goroutine of its own reads the
// frames and passes them on. The in-memory worker uses it (an io.Pipe has
// no file descriptor to wait on), and process workers where there is no
// poll(2) to wait with.
type chanFrames struct {
	frames chan received
	woken  chan struct{} // buffered: one pending wake-up is enough
	stop   chan struct{}
	once   sync.Once
}

type received struct {
	f   frame
	err error
}

// newChanFrames starts reading c; close stops the reader once its
// connection has ended.
func newChanFrames(c *conn) *chanFrames {
	in := &chanFrames{frames: make(chan received), woken: make(chan struct{}, 1), stop: make(chan struct{})}
	go func() {
		for {
			f, err := c.receive()
			select {
			case in.frames <- received{f, err}:
			case <-in.stop:
				return
			}
			if err != nil {
				return
			}
		}
	}()
	return in
}

func (in *chanFrames) receive() (frame, bool, error) {
	select {
	case r := <-in.frames:
		return r.f, false, r.err
	case <-in.woken:
		return frame{}, true, nil
	}
}

func (in *chanFrames) wake() {
	select {
	case in.woken <- struct{}{}:
	default:
	}
}

func (in *chanFrames) waitWake() { <-in.woken }

// busyWaitWhile does nothing: a reader goroutine's channel has no pipe to
// poll.
func (in *chanFrames) busyWaitWhile(func() *busyWindow) {}

// close lets the reader go, which may be waiting to hand over a frame
// nobody will take.
func (in *chanFrames) close() { in.once.Do(func() { close(in.stop) }) }
