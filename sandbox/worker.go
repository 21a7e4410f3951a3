package sandbox

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"runtime/debug"
	"strconv"
	"sync"
	"sync/atomic"

	"github.com/mcpexec/mcpexec/internal/telemetry"
)

// Environment of a re-executed worker process.
const (
	workerEnv       = "MCPEXEC_SANDBOX_WORKER"
	workerMemoryEnv = "MCPEXEC_SANDBOX_MEMORY"
)

// Worker file descriptors: the protocol runs on pipes of its own, so that
// nothing a library prints on stdout can corrupt it.
const (
	workerInFD  = 3
	workerOutFD = 4
)

// workerMaxStack bounds each goroutine's stack in a worker: deeply nested
// input (JSON.parse of a million brackets) then kills the worker quickly
// instead of growing towards the runtime's default of a gigabyte.
const workerMaxStack = 256 << 20

// MaybeRunWorker turns this process into a sandbox worker when it was
// started as one, serving runs until its host closes the pipe, and exits.
// Otherwise it returns at once. Call it first thing in main (and in TestMain
// of tests that run scripts in worker processes): worker processes are this
// same binary, re-executed, the way Docker's reexec works.
func MaybeRunWorker() {
	if os.Getenv(workerEnv) != "1" {
		return
	}
	os.Exit(workerMain())
}

func workerMain() int {
	if err := limitWorkerMemory(os.Getenv(workerMemoryEnv)); err != nil {
		fmt.Fprintln(os.Stderr, "sandbox worker:", err)
		return 2
	}
	debug.SetMaxStack(workerMaxStack)
	unboundedRegexpMatches()
	// An idle worker should cost little: return what start-up touched.
	debug.FreeOSMemory()
	// The host going away ends the worker at once, even mid-run.
	hostGone := func() { os.Exit(0) }
	c, frames, err := processConn(workerInFD, workerOutFD, hostGone)
	if err != nil {
		fmt.Fprintln(os.Stderr, "sandbox worker:", err)
		return 2
	}
	err = serveWorker(c, frames, hostGone)
	if err != nil {
		fmt.Fprintln(os.Stderr, "sandbox worker:", err)
		return 1
	}
	return 0
}

// limitWorkerMemory applies the memory cap: RLIMIT_DATA, so an allocation
// past it fails and the Go runtime dies with "out of memory" (the host turns
// that into a failure result), and a soft Go memory limit a little below
// it, so the collector works hard before the hard cap is reached. Not far
// below: a script whose live heap sits between the two makes the collector
// run without pause, and a runaway one would crawl there for a long time
// before either cap ends it.
//
// The data limit counts mappings, not memory in use: the worker starts with
// some hundred megabytes of them (thread stacks, the runtime's arenas) that
// are mostly never touched. The cap is for what the script holds, so the
// data limit sits that far above it; the host's watch on the resident set
// holds the cap itself (see memory.go).
func limitWorkerMemory(value string) error {
	if value == "" {
		return nil
	}
	limit, err := strconv.ParseInt(value, 10, 64)
	if err != nil || limit <= 0 {
		return fmt.Errorf("bad memory limit %q", value)
	}
	debug.SetMemoryLimit(limit / 20 * 19)
	return setDataLimit((uint64(limit) + mappedData()) * raceMemoryFactor)
}

// serveWorker serves runs, one at a time, over one connection until the
// host closes it. Every frame from the host is handled on one goroutine at
// a time: between runs the one serving, during a run the run's own loop,
// which reads the host's frames itself whenever the script waits (see
// hostFrames). hostGone runs when the connection ends while a run is still
// going; a worker process exits there, an in-memory one lets the run end at
// its own deadline.
func serveWorker(c *conn, in hostFrames, hostGone func()) error {
	defer in.close()
	if err := c.send(frame{Type: frameReady}); err != nil {
		return err
	}
	s := &workerServer{c: c, in: in, hostGone: hostGone, d: &dispatcher{pending: make(map[uint64]func(frame, error))}, runner: make(chan func())}
	in.busyWaitWhile(s.busyWindow)
	go func() {
		for loop := range s.runner {
			loop()
		}
	}()
	// A runner stuck in a built-in of an abandoned run never receives
	// again; closing is still safe.
	defer close(s.runner)
	for {
		if s.spare == nil {
			// Locking a runtime down is most of what a trivial run
			// costs: do it before the run is asked for. A failure here
			// is the run's to report, when it tries again.
			s.spare, _ = newRealm()
		}
		s.betweenRuns = true
		f, _, err := in.receive()
		s.betweenRuns = false
		if err != nil {
			s.d.closeAll()
			if errors.Is(err, io.EOF) || errors.Is(err, io.ErrClosedPipe) {
				return nil
			}
			return err
		}
		if f.Type != frameStart {
			s.handle(f)
			continue
		}
		s.waits = s.waits[:0] // the host closed every wait of the last run
		s.busyWait.Store(f.BusyWait)
		done := s.serveRun(f)
		if err := c.send(done); err != nil {
			return err
		}
		if done.Abandoned {
			// A runtime still spinning inside a built-in keeps this
			// process busy: stop serving and let the host replace us.
			return nil
		}
	}
}

// workerServer is a worker's half of the protocol. Its fields belong to the
// goroutine handling frames at the time (see serveWorker).
type workerServer struct {
	c        *conn
	in       hostFrames
	d        *dispatcher
	hostGone func()
	clock    *budgetClock // the current run's
	waits    []func()     // the host's person waits, open
	ended    bool         // the connection ended during the run
	tools    *ToolSet     // the last run's reachable set
	spare    *realm       // the next run's runtime, made while idle
	runner   chan func()  // to the goroutine every run's loop runs on
	// busyWait: the host's last start or result frame allowed waiting
	// busily (see busywait.go), for the answers to calls in flight
	// (answers) and, between runs, for the next start (nextRun): runs
	// that come back to back find the worker awake.
	busyWait         atomic.Bool
	answers, nextRun busyWindow
	betweenRuns      bool // serveWorker waits for the next start
}

// busyWindow is the window of the frame due, or nil when nothing is due
// soon or the host does not allow busy-waiting.
func (s *workerServer) busyWindow() *busyWindow {
	switch {
	case !s.busyWait.Load() || cpuWanted():
		return nil
	case s.betweenRuns:
		return &s.nextRun
	case s.d.inFlight.Load() > 0:
		return &s.answers
	}
	return nil
}

// handle acts on one frame from the host other than start.
func (s *workerServer) handle(f frame) {
	switch f.Type {
	case frameResult:
		s.busyWait.Store(f.BusyWait)
		s.d.deliver(f)
	case framePause:
		if s.clock != nil {
			s.waits = append(s.waits, s.clock.Pause())
		}
	case frameResume:
		if n := len(s.waits); n > 0 {
			s.waits[n-1]()
			s.waits = s.waits[:n-1]
		}
	}
}

// pump is the run loop's wait (Request.pump): it handles the next frame
// from the host, or returns early when wake is called.
func (s *workerServer) pump() {
	if s.ended {
		s.in.waitWake()
		return
	}
	f, woken, err := s.in.receive()
	switch {
	case woken:
	case err != nil:
		s.ended = true
		s.d.closeAll()
		s.hostGone()
	default:
		s.handle(f)
	}
}

// serveRun executes one start frame and returns the done frame.
func (s *workerServer) serveRun(start frame) frame {
	defer func() { s.clock, s.ended = nil, false }()
	var limits Limits
	if start.Limits != nil {
		limits = *start.Limits
	}
	if !start.SameTools || s.tools == nil {
		s.tools = NewToolSet(start.Tools)
	}
	c := s.c
	req := Request{
		Code:   start.Code,
		Global: start.Global,
		Tools:  s.tools.WithDown(start.Down),
		Limits: limits,
		Host:   &pipeHost{c: c, d: s.d},
		OnLog:  func(text string) { _ = c.send(frame{Type: frameLog, Text: text}) },
		announce: func(name string, reachesHost bool) {
			if !reachesHost {
				_ = c.send(frame{Type: frameCalled, Name: name})
			}
		},
		stateOverPipe: start.State,
		clockStarted:  func(clock *budgetClock) { s.clock = clock },
		clockChanged:  func(stopped bool) { _ = c.send(frame{Type: frameClock, Stopped: stopped}) },
		pump:          s.pump,
		wake:          s.in.wake,
		realm:         s.spare,
		onRunner:      func(loop func()) { s.runner <- loop },
	}
	s.spare = nil
	if start.Keep != nil {
		// The return value's parts cross as they are written, under the
		// return value's id.
		req.Reference = &Reference{ID: start.Keep.ID, Sink: partWriter{h: req.Host.(*pipeHost), id: returnValueID}}
	}
	if telemetry.Sampled(start.Trace) {
		req.phases = &phaseLog{}
	}
	res, abandoned := runReporting(context.Background(), req)
	res.Images = nil // the host holds the images themselves
	return frame{Type: frameDone, Result: &res, Abandoned: abandoned, Phases: req.phases.taken()}
}

// pipeHost is the Host a worker's runs see: every call becomes a call frame
// answered by a result frame. It starts calls without a goroutine per call
// (asyncHost): the answer is handed to the run by its own loop, which reads
// the result frame.
type pipeHost struct {
	c *conn
	d *dispatcher
}

func (h *pipeHost) startCall(kind, name string, args json.RawMessage, done func(CallResult, error)) {
	h.d.start(h.c, frame{Type: frameCall, Kind: kind, Name: name, Args: args}, func(f frame, err error) {
		if err != nil {
			done(CallResult{}, err)
			return
		}
		// Placeholders keep the worker's image accounting (cap and
		// dropped count) identical to the host's, which keeps the real
		// images.
		done(CallResult{Value: f.Value, Images: make([]Image, f.Images)}, nil)
	})
}

// part sends a piece of the value id is about to carry (framePart).
func (h *pipeHost) part(id uint64, piece []byte) error {
	return h.c.send(frame{Type: framePart, ID: id, Value: piece})
}

// forget tells the host to drop the parts sent under id: the value they
// began will not be sent.
func (h *pipeHost) forget(id uint64) { _ = h.part(id, nil) }

// partWriter writes a value's pieces as parts under one id.
type partWriter struct {
	h  *pipeHost
	id uint64
}

func (w partWriter) Write(piece []byte) (int, error) {
	if err := w.h.part(w.id, piece); err != nil {
		return 0, err
	}
	return len(piece), nil
}

func (h *pipeHost) CallTool(ctx context.Context, name string, args json.RawMessage) (CallResult, error) {
	return h.wait(ctx, callKindTool, name, args)
}

func (h *pipeHost) Search(ctx context.Context, args json.RawMessage) (json.RawMessage, error) {
	res, err := h.wait(ctx, callKindSearch, SearchCallName, args)
	return res.Value, err
}

func (h *pipeHost) wait(ctx context.Context, kind, name string, args json.RawMessage) (CallResult, error) {
	type answer struct {
		res CallResult
		err error
	}
	ch := make(chan answer, 1)
	h.startCall(kind, name, args, func(res CallResult, err error) { ch <- answer{res, err} })
	select {
	case a := <-ch:
		return a.res, a.err
	case <-ctx.Done():
		return CallResult{}, ctx.Err()
	}
}

// dispatcher matches result frames to the calls waiting for them.
type dispatcher struct {
	mu      sync.Mutex
	next    uint64
	pending map[uint64]func(frame, error)
	closed  bool
	// inFlight is len(pending), for a look without the lock.
	inFlight atomic.Int32
}

var errHostGone = errors.New("the host is gone")

// start sends a call frame; answer runs once, on the goroutine handling
// the host's frames, with the result frame or an error (at once, on the
// caller's goroutine, when the frame cannot be sent).
func (d *dispatcher) start(c *conn, f frame, answer func(frame, error)) {
	d.startAs(c, d.newID(), f, answer)
}

// newID numbers a call before it starts (a store sends its value's parts
// under the call's id first).
func (d *dispatcher) newID() uint64 {
	d.mu.Lock()
	defer d.mu.Unlock()
	d.next++
	return d.next
}

// startAs is start for a call numbered id by newID.
func (d *dispatcher) startAs(c *conn, id uint64, f frame, answer func(frame, error)) {
	d.mu.Lock()
	if d.closed {
		d.mu.Unlock()
		answer(frame{}, errHostGone)
		return
	}
	f.ID = id
	d.pending[f.ID] = answer
	d.inFlight.Store(int32(len(d.pending)))
	d.mu.Unlock()
	if err := c.send(f); err != nil {
		if d.take(f.ID) != nil {
			answer(frame{}, err)
		}
	}
}

func (d *dispatcher) take(id uint64) func(frame, error) {
	d.mu.Lock()
	defer d.mu.Unlock()
	answer := d.pending[id]
	delete(d.pending, id)
	d.inFlight.Store(int32(len(d.pending)))
	return answer
}

func (d *dispatcher) deliver(f frame) {
	answer := d.take(f.ID)
	switch {
	case answer == nil:
	case f.Error != "":
		answer(frame{}, plainError(f.Error))
	default:
		answer(f, nil)
	}
}

func (d *dispatcher) closeAll() {
	d.mu.Lock()
	d.closed = true
	pending := d.pending
	d.pending = nil
	d.inFlight.Store(0)
	d.mu.Unlock()
	for _, answer := range pending {
		answer(frame{}, errHostGone)
	}
}
