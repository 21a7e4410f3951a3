package sandbox

import (
	"context"
	"slices"
	"sync"
	"time"

	"github.com/rs/zerolog"

	"github.com/mcpexec/mcpexec/internal/telemetry"
	"github.com/mcpexec/mcpexec/pause"
)

// killGrace is how long past its budget a worker may take to report the run
// before the host kills its process group: a native call that ignores the
// interrupt cannot hold the budget hostage.
const killGrace = 500 * time.Millisecond

// Run executes one script in this worker, with the semantics of the
// package-level Run. The host side of every nested call (req.Host) runs in
// this process; only plain JSON crosses to the worker. Cancelling ctx kills
// the worker at once. After a timeout, crash or abort the worker is spent.
func (w *Worker) Run(ctx context.Context, req Request) Result {
	limits := req.Limits.withDefaults()
	if w.spent {
		return failure(msgWorkerUnavailable)
	}
	if res, ok := precheck(ctx, req); !ok {
		return res
	}
	w.runs++
	// The host's own budget, a grace past the worker's, is the one that
	// holds when the worker does not stop: it stops only while a person
	// wait is open here and the worker says its clock has stopped.
	clock := newBudgetClock(limits.Timeout+killGrace, req.OnWaiting)
	defer clock.finish()
	hostCtx, cancel := context.WithCancel(ctx)
	h := &hostSide{w: w, req: req, limits: limits, clock: clock}
	h.ctx = pause.WithClock(hostCtx, h)
	h.console.keep = limits.MaxLogChars
	w.current.Store(h)
	defer func() {
		w.current.Store(nil)
		cancel()
		h.end()
	}()

	defer beginRun()()
	start := w.startFrame(req, &limits)
	start.BusyWait = busyWaitAllowed()
	start.Trace = telemetry.Inject(ctx)
	w.running.Store(true)
	defer w.running.Store(false)
	if w.wakeReader != nil && start.BusyWait {
		w.wakeReader()
	}
	if err := w.conn.send(start); err != nil {
		w.spent = true
		return h.failure(w.crashReason())
	}
	hard := time.NewTimer(limits.Timeout + killGrace)
	defer hard.Stop()
	var memoryCheck <-chan time.Time
	if w.pid != 0 {
		tick := time.NewTicker(memoryCheckInterval)
		defer tick.Stop()
		memoryCheck = tick.C
	}
	for {
		select {
		case f, ok := <-w.frames:
			if !ok {
				w.spent = true
				reason := w.crashReason()
				logger := h.logger()
				logger.Warn().Str("exit", w.describeExit()).Msg("sandbox: worker stopped during a run")
				return h.failure(reason)
			}
			if f.Type == frameDone {
				telemetry.RecordPhases(ctx, spansOf(f.Phases))
				res := h.finish(f)
				// An abort cancels the nested calls in flight, and their
				// rejections may end the script before ctx.Done is seen
				// here: the run failed because it was aborted.
				if !res.OK && ctx.Err() != nil {
					return h.failure(msgAborted)
				}
				return res
			}
		case <-clock.expired:
			// Signal only: tearing down a process that grabbed a lot
			// of memory can take a while, and the pool waits for it
			// when the worker is released.
			w.abandon()
			return h.failure(msgOverBudget)
		case <-ctx.Done():
			w.abandon()
			return h.failure(msgAborted)
		case <-memoryCheck:
			if w.overCap() {
				w.overMemory.Store(true)
				w.abandon()
				logger := h.logger()
				logger.Warn().Int64("limit", w.memoryLimit).Msg("sandbox: worker killed over its memory cap")
				return h.failure(msgWorkerOutOfMemory)
			}
		}
	}
}

// startFrame is the frame that starts req. The reachable set goes only
// when it differs from the one this worker has.
func (w *Worker) startFrame(req Request, limits *Limits) frame {
	f := frame{Type: frameStart, Code: req.Code, Global: req.Global, Down: req.Tools.downServers(), Limits: limits, State: req.State != nil}
	if req.Reference != nil {
		f.Keep = &keepFrame{ID: req.Reference.ID}
	}
	names := req.Tools.Names()
	if w.hasTools(names) {
		f.SameTools = true
		return f
	}
	f.Tools = names
	w.tools, w.toolsSent = names, true
	return f
}

// hasTools reports whether the worker's reachable set is names already.
func (w *Worker) hasTools(names []string) bool {
	return w.toolsSent && slices.Equal(names, w.tools)
}

// precheck settles the requests that never reach a worker.
func precheck(ctx context.Context, req Request) (Result, bool) {
	if isBlank(req.Code) {
		return failure(msgEmptyCode), false
	}
	if ctx.Err() != nil {
		return failure(msgAborted), false
	}
	return Result{}, true
}

// hostSide is the host's half of one worker run: it executes the worker's
// nested calls, keeps the images and a copy of the console output (so a
// crash loses neither), and hears of every call for the live summary.
type hostSide struct {
	w      *Worker
	req    Request
	limits Limits
	ctx    context.Context // ends with the run; nested calls run under it
	clock  *budgetClock    // the host's budget

	console consoleLog
	calls   sync.WaitGroup

	mu        sync.Mutex
	ended     bool // the run returned: frames still in flight are dropped
	served    int  // call frames received
	callNames []string
	images    []Image

	// values gathers the parts of values on their way (valueparts.go):
	// those of stores, and the return value's, which go to the run's
	// Reference. Only the connection's reader touches it.
	values valueParts
}

// end waits for the nested calls in flight. The reader may still hold this
// run and be handing it a late frame (after an abort or a kill): ended makes
// it drop such frames instead of starting calls nobody waits for.
func (h *hostSide) end() {
	h.mu.Lock()
	h.ended = true
	h.mu.Unlock()
	h.calls.Wait()
}

// during handles a frame the worker sends while the run goes on, on the
// connection reader's goroutine, and reports whether it was one, and whether
// the reader handed the reading on to another goroutine meanwhile.
func (h *hostSide) during(f frame) (handled, handedOn bool) {
	switch f.Type {
	case frameCalled, frameLog, frameCall:
	case frameClock:
		h.clock.setIdle(f.Stopped)
		return true, false
	case framePart:
		h.values.add(h, f)
		return true, false
	default:
		return false, false
	}
	h.mu.Lock()
	ended := h.ended
	if !ended && f.Type == frameCall {
		h.calls.Add(1)
	}
	h.mu.Unlock()
	if ended {
		return true, false
	}
	switch f.Type {
	case frameCalled:
		h.called(f.Name)
	case frameLog:
		if kept := h.console.append(f.Text); kept != "" && h.req.OnLog != nil {
			h.req.OnLog(kept)
		}
	case frameCall:
		if f.Kind == callKindStore || f.Kind == callKindLoad {
			// Not a nested call: the script's own state, served off the
			// reader (a state may be a file or a database).
			parts, over := h.values.take(f.ID)
			go h.serveState(f, parts, over)
			return true, false
		}
		h.called(f.Name)
		if async, ok := h.req.Host.(AsyncHost); ok {
			h.startCall(async, f)
		} else {
			return true, h.serveInline(f)
		}
	}
	return true, false
}

// admit checks a call frame against what the run allows (admission).
func (h *hostSide) admit(f frame) string {
	h.mu.Lock()
	h.served++
	served := h.served
	h.mu.Unlock()
	return admission(h.req.Tools, h.limits, served, f.Kind, f.Name)
}

// Pause opens a person wait for a nested call (pause.Clock): the worker
// stops its clock if the script is idle, and so does the host's once the
// worker says so.
func (h *hostSide) Pause() (resume func()) {
	_ = h.w.conn.send(frame{Type: framePause})
	end := h.clock.Pause()
	var once sync.Once
	return func() {
		once.Do(func() {
			end()
			_ = h.w.conn.send(frame{Type: frameResume})
		})
	}
}

// finish turns the done frame into the run's Result.
func (h *hostSide) finish(f frame) Result {
	if f.Result == nil {
		h.w.spent = true
		return h.failure(msgWorkerCrashed)
	}
	if f.Abandoned {
		h.w.abandon()
	}
	res := *f.Result
	h.mu.Lock()
	res.Images = h.images
	h.mu.Unlock()
	if res.Whole != nil && res.Whole.Kept && !h.values.returnedWhole(res.Whole.Bytes) {
		// The host does not take the worker's word for it.
		logger := h.logger()
		logger.Warn().Int64("bytes", res.Whole.Bytes).Msg("sandbox: the worker's return value did not arrive whole")
		res.wholeLost()
	}
	return res
}

// called records a nested call the script made. A call that reaches the host
// is announced by its call frame; one rejected in the worker (over the cap)
// by a called frame.
func (h *hostSide) called(name string) {
	h.mu.Lock()
	h.callNames = append(h.callNames, name)
	h.mu.Unlock()
	if h.req.OnCall != nil {
		h.req.OnCall(name)
	}
}

// serveCall executes one nested call for the worker and answers it.
func (h *hostSide) serveCall(ctx context.Context, f frame) {
	refusal := h.admit(f)
	switch {
	case refusal != "":
		h.answer(f.ID, f.Kind, CallResult{}, plainError(refusal))
	case h.req.Host == nil:
		h.answer(f.ID, f.Kind, CallResult{}, plainError(msgCrashed+": no host is attached to this run."))
	case f.Kind == callKindSearch:
		res, err := safeHostCall(h.logger(), func() (CallResult, error) {
			v, err := h.req.Host.Search(ctx, f.Args)
			return CallResult{Value: v}, err
		})
		h.answer(f.ID, f.Kind, res, err)
	default:
		res, err := safeHostCall(h.logger(), func() (CallResult, error) { return h.req.Host.CallTool(ctx, f.Name, f.Args) })
		h.answer(f.ID, f.Kind, res, err)
	}
}

// startCall hands one nested call to an AsyncHost, on the connection
// reader's goroutine, without a goroutine of its own.
func (h *hostSide) startCall(host AsyncHost, f frame) {
	if refusal := h.admit(f); refusal != "" {
		go h.answer(f.ID, f.Kind, CallResult{}, plainError(refusal))
		return
	}
	host.Start(h.ctx, &Call{Search: f.Kind == callKindSearch, Name: f.Name, Args: f.Args, h: h, id: f.ID, kind: f.Kind})
}

// answer sends a nested call's outcome to the worker; the call is then over.
func (h *hostSide) answer(id uint64, kind string, res CallResult, err error) {
	defer h.calls.Done()
	reply := frame{Type: frameResult, ID: id, Value: res.Value, Error: errMessage(err), BusyWait: busyWaitAllowed()}
	if kind == callKindTool {
		reply.Images = len(res.Images)
		h.keepImages(res.Images)
	}
	if kind != callKindLoad && len(reply.Value) > maxFrameSize {
		// A tool's value larger than a worker's own frames is more than
		// a script should be handed at once; a loaded value is the
		// script's own and crosses whatever its size.
		reply.Value, reply.Error = nil, msgResultTooLarge
	}
	if err := h.w.conn.send(reply); err == errFrameTooLarge {
		_ = h.w.conn.send(frame{Type: frameResult, ID: id, Error: msgResultTooLarge})
	}
}

func (h *hostSide) keepImages(images []Image) {
	h.mu.Lock()
	defer h.mu.Unlock()
	for _, img := range images {
		if len(h.images) < h.limits.MaxImages {
			h.images = append(h.images, img)
		}
	}
}

// failure is a failure Result built on the host side, from what the host
// saw of the run.
func (h *hostSide) failure(reason string) Result {
	h.mu.Lock()
	defer h.mu.Unlock()
	return hostFailure(&h.console, reason, h.images, h.callNames)
}

// hostFailure is a failure Result from what a host kept of a run: the
// console output, the images and the calls.
func hostFailure(console *consoleLog, reason string, images []Image, calls []string) Result {
	logs, _, _ := console.text()
	return Result{
		Text:   failureText(console, reason),
		Logs:   logs,
		Error:  reason,
		Images: images,
		Calls:  append([]string(nil), calls...),
	}
}

func (h *hostSide) logger() zerolog.Logger {
	if h.req.Logger != nil {
		return *h.req.Logger
	}
	return zerolog.Nop()
}

func errMessage(err error) string {
	if err == nil {
		return ""
	}
	return err.Error()
}
