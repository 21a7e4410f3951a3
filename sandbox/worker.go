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
	in, out := os.NewFile(workerInFD, "sandbox-in"), os.NewFile(workerOutFD, "sandbox-out")
	if in == nil || out == nil {
		fmt.Fprintln(os.Stderr, "sandbox worker: protocol pipes missing")
		return 2
	}
	// The host going away ends the worker at once, even mid-run.
	err := serveWorker(in, out, func() { os.Exit(0) })
	if err != nil {
		fmt.Fprintln(os.Stderr, "sandbox worker:", err)
		return 1
	}
	return 0
}

// limitWorkerMemory applies the memory cap: RLIMIT_DATA, so an allocation
// past it fails and the Go runtime dies with "out of memory" (the host turns
// that into a failure result), and a soft Go memory limit somewhat below it,
// so the collector works hard before the hard cap is reached.
func limitWorkerMemory(value string) error {
	if value == "" {
		return nil
	}
	limit, err := strconv.ParseInt(value, 10, 64)
	if err != nil || limit <= 0 {
		return fmt.Errorf("bad memory limit %q", value)
	}
	debug.SetMemoryLimit(limit / 10 * 8)
	return setDataLimit(uint64(limit) * raceMemoryFactor)
}

// serveWorker serves runs, one at a time, over one connection until the
// host closes it. hostGone runs when the connection ends while a run is
// still going; a worker process exits there, an in-memory one lets the run
// end at its own deadline.
func serveWorker(r io.Reader, w io.Writer, hostGone func()) error {
	c := newConn(r, w)
	if err := c.send(frame{Type: frameReady}); err != nil {
		return err
	}
	d := &dispatcher{pending: make(map[uint64]chan frame)}
	starts := make(chan frame)
	readDone := make(chan error, 1)
	var running sync.Mutex // held while a run is in progress
	go func() {
		defer close(starts)
		for {
			f, err := c.receive()
			if err != nil {
				d.closeAll()
				readDone <- err
				if !running.TryLock() {
					hostGone()
					return
				}
				running.Unlock()
				return
			}
			switch f.Type {
			case frameStart:
				starts <- f
			case frameResult:
				d.deliver(f)
			}
		}
	}()
	for f := range starts {
		running.Lock()
		done := serveRun(c, d, f)
		running.Unlock()
		if err := c.send(done); err != nil {
			return err
		}
		if done.Abandoned {
			// A runtime still spinning inside a built-in keeps this
			// process busy: stop serving and let the host replace us.
			return nil
		}
	}
	if err := <-readDone; err != nil && !errors.Is(err, io.EOF) && !errors.Is(err, io.ErrClosedPipe) {
		return err
	}
	return nil
}

// serveRun executes one start frame and returns the done frame.
func serveRun(c *conn, d *dispatcher, start frame) frame {
	var limits Limits
	if start.Limits != nil {
		limits = *start.Limits
	}
	req := Request{
		Code:   start.Code,
		Tools:  NewToolSet(start.Tools),
		Limits: limits,
		Host:   &pipeHost{c: c, d: d},
		OnCall: func(name string) { _ = c.send(frame{Type: frameCalled, Name: name}) },
		OnLog:  func(text string) { _ = c.send(frame{Type: frameLog, Text: text}) },
	}
	res, abandoned := runReporting(context.Background(), req)
	res.Images = nil // the host holds the images themselves
	return frame{Type: frameDone, Result: &res, Abandoned: abandoned}
}

// pipeHost is the Host a worker's runs see: every call becomes a call frame
// answered by a result frame.
type pipeHost struct {
	c *conn
	d *dispatcher
}

func (h *pipeHost) CallTool(ctx context.Context, name string, args json.RawMessage) (CallResult, error) {
	f, err := h.d.call(ctx, h.c, frame{Type: frameCall, Kind: callKindTool, Name: name, Args: args})
	if err != nil {
		return CallResult{}, err
	}
	// Placeholders keep the worker's image accounting (cap and dropped
	// count) identical to the host's, which keeps the real images.
	return CallResult{Value: f.Value, Images: make([]Image, f.Images)}, nil
}

func (h *pipeHost) Search(ctx context.Context, args json.RawMessage) (json.RawMessage, error) {
	f, err := h.d.call(ctx, h.c, frame{Type: frameCall, Kind: callKindSearch, Name: SearchCallName, Args: args})
	if err != nil {
		return nil, err
	}
	return f.Value, nil
}

// dispatcher matches result frames to the calls waiting for them.
type dispatcher struct {
	mu      sync.Mutex
	next    uint64
	pending map[uint64]chan frame
	closed  bool
}

var errHostGone = errors.New("the host is gone")

func (d *dispatcher) call(ctx context.Context, c *conn, f frame) (frame, error) {
	ch := make(chan frame, 1)
	d.mu.Lock()
	if d.closed {
		d.mu.Unlock()
		return frame{}, errHostGone
	}
	d.next++
	f.ID = d.next
	d.pending[f.ID] = ch
	d.mu.Unlock()
	defer func() {
		d.mu.Lock()
		delete(d.pending, f.ID)
		d.mu.Unlock()
	}()
	if err := c.send(f); err != nil {
		return frame{}, err
	}
	select {
	case res, ok := <-ch:
		if !ok {
			return frame{}, errHostGone
		}
		if res.Error != "" {
			return frame{}, plainError(res.Error)
		}
		return res, nil
	case <-ctx.Done():
		return frame{}, ctx.Err()
	}
}

func (d *dispatcher) deliver(f frame) {
	d.mu.Lock()
	defer d.mu.Unlock()
	if ch, ok := d.pending[f.ID]; ok {
		ch <- f
		delete(d.pending, f.ID)
	}
}

func (d *dispatcher) closeAll() {
	d.mu.Lock()
	defer d.mu.Unlock()
	d.closed = true
	for id, ch := range d.pending {
		close(ch)
		delete(d.pending, id)
	}
}
