package sandbox

import (
	"sync"
	"sync/atomic"
	"time"
)

// A synchronous Host's call is served on the connection's reader: the
// answer goes out from the thread that read the call, without the hand-off
// to a goroutine of its own, which costs more than a quick call (starting a
// goroutine wakes a second thread, and both go back to sleep). A call that
// is still running after inlineCallWait hands the reading on to a new
// reader, so that a slow tool holds up neither the script's other calls nor
// its output.
//
// One sweeper, shared by every worker, finds the slow calls: it runs only
// while inline calls are being made, and looks at the workers every
// inlineCallWait. Watching each call with a timer of its own would cost
// more than the hand-off it saves (arming a timer due sooner than the
// netpoller's next wake-up wakes the netpoller), and so would any
// allocation or lock per call: a call costs one atomic store and one
// compare-and-swap here.
const inlineCallWait = time.Millisecond

// inlineSlot is a worker's inline call, if one is running: the time it
// started (Unix nanoseconds), 0 when none is, inlineHandedOn once the sweeper
// took the reading over.
type inlineSlot struct{ since atomic.Int64 }

const inlineHandedOn = -1

var inline struct {
	sweeping atomic.Bool
	mu       sync.Mutex
	workers  map[*Worker]struct{} // live workers, registered at start
}

func registerInline(w *Worker) {
	inline.mu.Lock()
	defer inline.mu.Unlock()
	if inline.workers == nil {
		inline.workers = make(map[*Worker]struct{})
	}
	inline.workers[w] = struct{}{}
}

func unregisterInline(w *Worker) {
	inline.mu.Lock()
	defer inline.mu.Unlock()
	delete(inline.workers, w)
}

// serveInline serves a call of a synchronous Host on the connection's
// reader and reports whether the reading was handed on meanwhile; the
// caller then stops reading.
func (h *hostSide) serveInline(f frame) (wasHandedOn bool) {
	slot := &h.w.inline
	started := time.Now().UnixNano()
	slot.since.Store(started)
	// After the store, so that a sweeper about to stop sees this call, or
	// this call sees the sweeper stopped (see sweepInline).
	if !inline.sweeping.Load() && inline.sweeping.CompareAndSwap(false, true) {
		go sweepInline()
	}
	h.serveCall(h.ctx, f)
	return !slot.since.CompareAndSwap(started, 0)
}

// sweepInline hands the reading on for every inline call that has held its
// reader for inlineCallWait, until a sweep finds no inline call.
func sweepInline() {
	for {
		time.Sleep(inlineCallWait)
		if sweepOnce() {
			continue
		}
		inline.sweeping.Store(false)
		// A call may have started just before the flag went down, and
		// seen it up: look once more.
		if !sweepOnce() || !inline.sweeping.CompareAndSwap(false, true) {
			return
		}
	}
}

// sweepOnce takes over the reading from the slow inline calls and reports
// whether any inline call is running.
func sweepOnce() (busy bool) {
	deadline := time.Now().Add(-inlineCallWait).UnixNano()
	inline.mu.Lock()
	defer inline.mu.Unlock()
	for w := range inline.workers {
		since := w.inline.since.Load()
		if since <= 0 {
			continue
		}
		busy = true
		if since <= deadline && w.inline.since.CompareAndSwap(since, inlineHandedOn) {
			go w.readFrames()
		}
	}
	return busy
}
