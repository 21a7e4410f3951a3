package sandbox

import (
	"context"
	"encoding/json"
	"errors"
	"reflect"
	"strings"
	"sync"
	"time"

	"github.com/dop251/goja"
	"github.com/rs/zerolog"

	"github.com/mcpexec/mcpexec/jsplatform"
	"github.com/mcpexec/mcpexec/pause"
)

// Request is one script run.
type Request struct {
	// Code is the script: the body of an async function.
	Code string
	// Tools is the reachable set, taken from the pool when the run starts.
	Tools *ToolSet
	// Host executes nested calls and searches.
	Host Host
	// Limits bound the run; zero fields take the defaults.
	Limits Limits
	// OnCall, if set, hears of every nested call the script makes (tool
	// calls and searches, including those rejected over the call cap), in
	// order, as it happens. It runs on the run's goroutine: keep it short.
	OnCall func(name string)
	// OnLog, if set, receives console output as the script writes it, as
	// far as the log cap keeps it. It runs on the run's goroutine.
	OnLog func(text string)
	// OnWaiting, if set, hears each time the run starts and stops waiting
	// on people alone: a nested call waits for a person (see package
	// pause) and the script is idle, with nothing to do until an answer
	// comes. It runs under the budget clock's lock: keep it short. A worker
	// run reports it; a run in this process does not.
	OnWaiting func(waiting bool)
	// Logger receives the run's own diagnostics (never the script's output).
	Logger *zerolog.Logger
	// State is the conversation's state that the script's store and load
	// reach; nil: the run has none, and both throw, saying so.
	State State
	// Reference, if set, receives a return value too long for the
	// model's text whole (see Reference).
	Reference *Reference
	// Global runs Code as global script code instead of the body of an
	// async function: the way the test262 conformance suite runs its
	// files (cmd/test262), in the same realm, platform and transform. The
	// realm also gets print, which writes a console line, and $262, the
	// suite's host hooks (global, evalScript, detachArrayBuffer; gc and
	// createRealm throw). The run ends when no call, timer or job is
	// pending, with no value. A failure's Error starts with its phase
	// (GlobalParseFailure or GlobalRuntimeFailure), then, for a thrown
	// object, its constructor's name: "runtime: TypeError: message".
	Global bool

	// stateOverPipe: in a worker, the host's run has a State, reached
	// across the pipe (Host is the pipe's).
	stateOverPipe bool
	// announce, when set, replaces OnCall and also learns whether the call
	// goes on to the host: a worker announces the calls that do through
	// their call frame, which saves a frame per call.
	announce func(name string, reachesHost bool)
	// clockStarted and clockChanged, when set, hear of the run's budget
	// clock: a worker hands it the host's person waits and tells the host
	// when it stops and starts.
	clockStarted func(*budgetClock)
	clockChanged func(stopped bool)
	// pump and wake, when set, are how the loop waits in a worker: host
	// answers do not arrive on goroutines of their own but are read by the
	// loop itself. pump handles the next frame from the host, which may
	// settle calls (they are queued by the asyncHost's callbacks, on the
	// loop's goroutine), or returns when wake is called. wake may be called
	// from any goroutine: the run is stopping, or a timer is due.
	pump func()
	wake func()
	// realm, when set, is a fresh runtime made ahead of the run (a worker
	// makes the next run's while it waits for it): its lockdown is then
	// off the run's path.
	realm *realm
	// onRunner, when set, runs the runtime's loop on a goroutine that
	// outlives the run: a worker keeps one, so that the stack a run grows
	// (the parser recurses deeply) is already there for the next run,
	// instead of being grown again by copying on every run.
	onRunner func(loop func())
	// phases, when set, collects the timed stretches of the run (a worker
	// whose host traces the run sends them back with the result).
	phases *phaseLog
}

// abandonGrace is how long Run waits, after interrupting a run at its
// deadline, for the runtime to notice. A runtime stuck inside a native
// built-in does not notice; Run then returns without it.
const abandonGrace = 200 * time.Millisecond

// stopError ends a run from outside: the budget ran out or the caller
// cancelled.
type stopError struct{ message string }

func (e *stopError) Error() string { return e.message }

var (
	errOverBudget = &stopError{msgOverBudget}
	errAborted    = &stopError{msgAborted}
)

func isBlank(code string) bool { return strings.TrimSpace(code) == "" }

func isStop(err error) bool {
	var s *stopError
	return errors.As(err, &s)
}

// Run executes one script and always returns a Result: every way a script
// can end (return, throw, syntax error, budget, cancellation, a crash of the
// runtime) is a Result, never a panic or a Go error.
func Run(ctx context.Context, req Request) Result {
	res, _ := runReporting(ctx, req)
	return res
}

// runReporting is Run that also reports whether the runtime had to be abandoned
// (still busy inside a built-in after its interrupt), which makes the
// process that hosts it unfit for further runs.
func runReporting(ctx context.Context, req Request) (res Result, abandoned bool) {
	if res, ok := precheck(ctx, req); !ok {
		return res, false
	}
	x := newExecution(req)
	defer x.clock.finish()
	if req.clockStarted != nil {
		req.clockStarted(x.clock)
	}

	done := make(chan Result, 1)
	loop := func() { done <- x.execute() }
	if req.onRunner != nil {
		req.onRunner(loop)
	} else {
		go loop()
	}

	var stop *stopError
	select {
	case res := <-done:
		// A script that failed on a call the abort cancelled failed
		// because of the abort, whichever of the two arrived first.
		if !res.OK && ctx.Err() != nil {
			return x.fail(msgAborted), false
		}
		return res, false
	case <-x.clock.expired:
		stop = errOverBudget
	case <-ctx.Done():
		stop = errAborted
	}
	x.stop(stop)
	select {
	case res := <-done:
		// The script may have ended before the interrupt reached it,
		// failing on a call the stop cancelled: it failed because of
		// the stop.
		if !res.OK {
			return x.fail(stop.message), false
		}
		return res, false
	case <-time.After(abandonGrace):
		x.logger.Warn().Msg("sandbox: runtime did not stop after interrupt; abandoning it")
		return x.fail(stop.message), true
	}
}

// execution is the state of one run. Fields below mu are shared with Run's
// goroutine; everything else belongs to the runtime's goroutine.
type execution struct {
	req    Request
	limits Limits
	logger zerolog.Logger
	realm  *realm

	clock      *budgetClock
	hostCtx    context.Context // nested calls run under it; it carries clock
	cancelHost context.CancelFunc
	hostCalls  sync.WaitGroup
	settled    chan completion
	finished   chan struct{}
	pending    int
	// ready holds the answers a pump settled (worker mode), in order, from
	// readyHead on.
	ready     []completion
	readyHead int

	console  consoleLog
	timers   timers
	platform *jsplatform.Platform
	// rejections are the Errors that rejected nested calls, for the
	// description of one left uncaught.
	rejections map[*goja.Object]rejection

	mu       sync.Mutex
	stopping *stopError
	calls    []string
	images   []Image
	dropped  int
}

// completion is a host answer on its way back to the runtime's goroutine.
type completion struct {
	resolve, reject func(any) error
	value           json.RawMessage
	images          []Image
	err             error
	rejection       rejection
}

func newExecution(req Request) *execution {
	x := &execution{
		req:      req,
		limits:   req.Limits.withDefaults(),
		logger:   zerolog.Nop(),
		settled:  make(chan completion),
		finished: make(chan struct{}),
	}
	if req.Logger != nil {
		x.logger = *req.Logger
	}
	x.console.keep = x.limits.MaxLogChars
	x.clock = newBudgetClock(x.limits.Timeout, req.clockChanged)
	x.hostCtx, x.cancelHost = context.WithCancel(pause.WithClock(context.Background(), x.clock))
	return x
}

// stop ends the run from Run's goroutine: later host answers are ignored,
// the runtime is interrupted, and the loop wakes up.
func (x *execution) stop(reason *stopError) {
	x.mu.Lock()
	if x.stopping == nil {
		x.stopping = reason
	}
	r := x.realm
	x.mu.Unlock()
	x.cancelHost()
	if r != nil {
		r.vm.Interrupt(reason)
	}
	if x.req.wake != nil {
		x.req.wake()
	}
}

// stopped reports the stop reason once the run has been stopped.
func (x *execution) stopped() error {
	x.mu.Lock()
	defer x.mu.Unlock()
	if x.stopping != nil {
		return x.stopping
	}
	return nil
}

// execute runs the script on the calling goroutine, which becomes the
// runtime's goroutine, and returns its Result.
func (x *execution) execute() (res Result) {
	defer func() {
		if p := recover(); p != nil {
			x.logger.Error().Interface("panic", p).Msg("sandbox: runtime crashed")
			res = x.fail(msgCrashed + ".")
		}
		x.stopTimers()
		close(x.finished)
		x.cancelHost()
		x.hostCalls.Wait()
	}()

	prepare := x.req.phases.begin(phasePrepare)
	r, err := x.req.realm, error(nil)
	if r == nil {
		r, err = newRealm()
	}
	if err != nil {
		x.logger.Error().Err(err).Msg("sandbox: lockdown failed")
		return x.fail(msgCrashed + ".")
	}
	x.mu.Lock()
	x.realm = r
	reason := x.stopping
	x.mu.Unlock()
	if reason != nil {
		return x.fail(reason.message)
	}
	r.log = x.logLine
	x.installTools()
	x.installState()
	if err := x.installPlatform(); err != nil {
		x.logger.Error().Err(err).Msg("sandbox: globals failed")
		return x.fail(msgCrashed + ".")
	}

	prepare.end(false)
	if x.req.Global {
		return x.executeGlobal()
	}
	compiling := x.req.phases.begin(phaseCompile)
	prog, js, err := compileCached(x.req.Code)
	compiling.end(err != nil)
	if err != nil {
		return x.fail(err.Error())
	}
	if err := x.platform.Prepare(js); err != nil {
		x.logger.Error().Err(err).Msg("sandbox: engine repair failed")
		return x.fail(msgCrashed + ".")
	}
	evaluating := x.req.phases.begin(phaseEvaluate)
	defer func() { evaluating.end(!res.OK) }()
	v, err := x.start(prog)
	if err != nil {
		return x.failFrom(err)
	}
	promise, isPromise := asPromise(v)
	if !isPromise {
		return x.succeed(v)
	}
	for promise.State() == goja.PromiseStatePending {
		if x.pending == 0 {
			return x.fail(msgNeverSettles)
		}
		var err error
		if x.req.pump != nil {
			err = x.pumpStep()
		} else {
			err = x.waitStep()
		}
		if err != nil {
			return x.failFrom(err)
		}
	}
	if promise.State() == goja.PromiseStateRejected {
		return x.fail(x.describeThrown(promise.Result()))
	}
	return x.succeed(promise.Result())
}

// waitStep waits for the next thing the loop has to do, and does it: a host
// answer, handed over by the goroutine that ran the call, or due timers.
func (x *execution) waitStep() error {
	x.clock.setIdle(true)
	select {
	case c := <-x.settled:
		x.clock.setIdle(false)
		x.pending--
		return x.deliver(c)
	case <-x.timers.wake:
		// Timer callbacks are script work: the budget clock runs.
		x.clock.setIdle(false)
		return x.fireDue()
	case <-x.hostCtx.Done():
		return x.stopped()
	}
}

// pumpStep is waitStep in a worker: answers the pump already settled come
// first, then due timers; only when there is nothing to do does the loop
// wait, in the pump, reading the host's next frame itself.
func (x *execution) pumpStep() error {
	if x.readyHead < len(x.ready) {
		c := x.ready[x.readyHead]
		x.ready[x.readyHead] = completion{}
		if x.readyHead++; x.readyHead == len(x.ready) {
			x.ready, x.readyHead = x.ready[:0], 0
		}
		x.clock.setIdle(false)
		x.pending--
		return x.deliver(c)
	}
	select {
	case <-x.timers.wake:
		x.clock.setIdle(false)
		return x.fireDue()
	case <-x.hostCtx.Done():
		return x.stopped()
	default:
	}
	x.clock.setIdle(true)
	x.req.pump()
	return nil
}

// start runs the program, whose value is the script's async function, and
// calls that function: the script's promise is its result.
func (x *execution) start(prog *goja.Program) (goja.Value, error) {
	v, err := x.realm.vm.RunProgram(prog)
	if err != nil {
		return nil, err
	}
	script, ok := goja.AssertFunction(v)
	if !ok {
		return nil, errors.New("the compiled script is not a function")
	}
	return script(goja.Undefined())
}

// deliver settles a script promise with a host answer. Settling runs the
// promise jobs it unblocks, so it returns the runtime's error if the script
// was interrupted meanwhile.
func (x *execution) deliver(c completion) error {
	if c.err != nil {
		e := x.realm.newError(c.err.Error())
		if obj, ok := e.(*goja.Object); ok {
			if x.rejections == nil {
				x.rejections = make(map[*goja.Object]rejection)
			}
			x.rejections[obj] = c.rejection
		}
		return c.reject(e)
	}
	x.keepImages(c.images)
	v, err := fromJSON(x.realm, c.value)
	if err != nil {
		x.logger.Warn().Err(err).Msg("sandbox: host returned a value that is not JSON")
		return c.reject(x.realm.newError("The tool returned a value that could not be read."))
	}
	return c.resolve(v)
}

func (x *execution) keepImages(images []Image) {
	x.mu.Lock()
	defer x.mu.Unlock()
	for _, img := range images {
		if len(x.images) < x.limits.MaxImages {
			x.images = append(x.images, img)
		} else {
			x.dropped++
		}
	}
}

// callTool is the body of every tool wrapper: it checks the arguments,
// counts the call, and hands it to the host on a goroutine of its own.
func (x *execution) callTool(name string, arg goja.Value) goja.Value {
	return x.nested(callKindTool, name, arg, func(ctx context.Context, args json.RawMessage) (CallResult, error) {
		return x.req.Host.CallTool(ctx, name, args)
	})
}

// search is the body of tools["$codemode"].search: a nested call like any
// other, counted against the same cap (SEARCH-5).
func (x *execution) search(arg goja.Value) goja.Value {
	return x.nested(callKindSearch, SearchCallName, arg, func(ctx context.Context, args json.RawMessage) (CallResult, error) {
		value, err := x.req.Host.Search(ctx, args)
		return CallResult{Value: value}, err
	})
}

type hostCall func(ctx context.Context, args json.RawMessage) (CallResult, error)

// asyncHost is a Host that starts a call without blocking and answers later
// on a goroutine of its own: the worker's pipe host, whose answers arrive on
// its connection's reader. It saves a goroutine and a hand-off per call.
type asyncHost interface {
	startCall(kind, name string, args json.RawMessage, done func(CallResult, error))
}

func (x *execution) nested(kind, name string, arg goja.Value, call hostCall) goja.Value {
	args, err := x.callArguments(arg)
	if err != nil {
		// Malformed arguments never reach the host, so they are not a call.
		return x.realm.rejected(err.Error())
	}
	x.mu.Lock()
	x.calls = append(x.calls, name)
	count := len(x.calls)
	x.mu.Unlock()
	reachesHost := count <= x.limits.MaxCalls && x.req.Host != nil
	switch {
	case x.req.announce != nil:
		x.req.announce(name, reachesHost)
	case x.req.OnCall != nil:
		x.req.OnCall(name)
	}
	if count > x.limits.MaxCalls {
		return x.realm.rejected(msgCallLimit)
	}
	if x.req.Host == nil {
		return x.realm.rejected(msgCrashed + ": no host is attached to this run.")
	}
	promise, resolve, reject := x.realm.vm.NewPromise()
	x.pending++
	caller := rejection{tool: callForm(kind, name), site: x.captureCallSite()}
	settle := func(res CallResult, err error) {
		c := completion{resolve: resolve, reject: reject, value: res.Value, images: res.Images, err: err, rejection: caller}
		if x.req.pump != nil {
			// On the loop's own goroutine, in the pump (see Request.pump).
			x.ready = append(x.ready, c)
			return
		}
		select {
		case x.settled <- c:
		case <-x.finished:
		}
	}
	if async, ok := x.req.Host.(asyncHost); ok {
		async.startCall(kind, name, args, settle)
		return x.realm.vm.ToValue(promise)
	}
	x.hostCalls.Add(1)
	go func() {
		defer x.hostCalls.Done()
		settle(safeHostCall(x.logger, func() (CallResult, error) { return call(x.hostCtx, args) }))
	}()
	return x.realm.vm.ToValue(promise)
}

// safeHostCall runs one host call, containing a panic in the host as a
// failure of that call alone.
func safeHostCall(logger zerolog.Logger, call func() (CallResult, error)) (res CallResult, err error) {
	defer func() {
		if p := recover(); p != nil {
			logger.Error().Interface("panic", p).Msg("sandbox: host call panicked")
			res, err = CallResult{}, plainError(msgHostCallCrashed)
		}
	}()
	return call()
}

// failFrom turns an error out of the runtime into a failure Result.
func (x *execution) failFrom(err error) Result {
	var interrupted *goja.InterruptedError
	var stop *stopError
	var exception *goja.Exception
	var overflow *goja.StackOverflowError
	switch {
	case errors.As(err, &stop):
		return x.fail(stop.message)
	case errors.As(err, &interrupted):
		if s, ok := interrupted.Value().(*stopError); ok {
			return x.fail(s.message)
		}
		return x.fail(msgOverBudget)
	case errors.As(err, &overflow):
		return x.fail("RangeError: Maximum call stack size exceeded")
	case errors.As(err, &exception):
		return x.fail(x.describeThrown(exception.Value()))
	}
	x.logger.Error().Err(err).Msg("sandbox: unexpected runtime error")
	return x.fail(msgCrashed + ".")
}

// describeThrown renders a thrown value for the model without calling its
// toString (which is script code). Reading it may still run getters, so it
// runs guarded: a getter that throws is described as an exception, one that
// spins past the deadline ends the run with the budget message.
func (x *execution) describeThrown(v goja.Value) string {
	if s, isString := stringValue(v); isString {
		return "Uncaught " + s
	}
	text := "Uncaught exception"
	err := x.guard(func() error {
		if obj, isObject := v.(*goja.Object); isObject && obj.ClassName() == "Error" {
			text = x.describeError(obj)
			return nil
		}
		o := x.newOutbound(resultMode, x.limits.MaxResultChars)
		if _, err := o.value(v, 0); err != nil || len(o.buf) == 0 {
			return err
		}
		text = "Uncaught " + string(o.buf)
		return nil
	})
	if err != nil && isStop(err) {
		return err.Error()
	}
	return text
}

var promiseType = reflect.TypeOf((*goja.Promise)(nil))

// asPromise returns v's promise without exporting anything else.
func asPromise(v goja.Value) (*goja.Promise, bool) {
	obj, isObject := v.(*goja.Object)
	if !isObject || obj.ExportType() != promiseType {
		return nil, false
	}
	p, ok := obj.Export().(*goja.Promise)
	return p, ok
}

func (x *execution) newOutbound(mode exportMode, keep int) *outbound {
	return &outbound{
		mode:    mode,
		realm:   x.realm,
		stopped: x.stopped,
		keep:    keep,
	}
}
