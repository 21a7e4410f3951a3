package sandbox

import (
	"cmp"
	"math"
	"slices"
	"time"

	"github.com/dop251/goja"
)

// Timers run on the run's event loop, like host answers: a Go timer only
// wakes the loop, which calls the callbacks that are due on the runtime's
// goroutine, earliest first (and in the order they were scheduled when due
// together), as Node does. A scheduled timer is pending work (a script awaiting
// a backoff delay is not stuck), the budget ends a run whatever its timers,
// and no timer outlives its run: the run's end stops them all.

// maxLiveTimers bounds the timers a run may have scheduled at once, so a
// loop that schedules without end fails instead of growing until the
// memory cap.
const maxLiveTimers = 10_000

// timer is one scheduled callback.
type timer struct {
	id       int64
	callback goja.Callable
	args     []goja.Value
	interval time.Duration // repeats when repeat is set
	repeat   bool
	due      time.Time
	t        *time.Timer
}

// timers is the run's timer table; it belongs to the runtime's goroutine.
// It is made when the first timer is scheduled; until then the loop's
// receive from the nil wake channel never fires.
type timers struct {
	next int64
	live map[int64]*timer
	wake chan struct{} // buffered: one pending wake-up is enough
}

// timerFunction makes one of setTimeout, setInterval, clearTimeout and
// clearInterval in the run's realm.
func (x *execution) timerFunction(name string) goja.Value {
	var fn func(goja.FunctionCall) goja.Value
	switch name {
	case "setTimeout", "setInterval":
		repeat := name == "setInterval"
		fn = func(call goja.FunctionCall) goja.Value {
			return x.realm.vm.ToValue(x.schedule(call, repeat))
		}
	default:
		fn = func(call goja.FunctionCall) goja.Value {
			x.cancelTimer(call.Argument(0))
			return goja.Undefined()
		}
	}
	return x.realm.newFunction(name, fn)
}

// schedule is setTimeout and setInterval: callback, delay in milliseconds,
// then the arguments the callback receives.
func (x *execution) schedule(call goja.FunctionCall, repeat bool) int64 {
	callback, ok := goja.AssertFunction(call.Argument(0))
	if !ok {
		panic(x.realm.vm.NewTypeError(msgTimerCallback))
	}
	if len(x.timers.live) >= maxLiveTimers {
		panic(x.realm.vm.NewTypeError(msgTooManyTimers))
	}
	if x.timers.live == nil {
		x.timers.live = make(map[int64]*timer)
		x.timers.wake = make(chan struct{}, 1)
	}
	x.timers.next++
	t := &timer{
		id:       x.timers.next,
		callback: callback,
		interval: x.timerDelay(call.Argument(1)),
		repeat:   repeat,
	}
	if len(call.Arguments) > 2 {
		t.args = append([]goja.Value(nil), call.Arguments[2:]...)
	}
	x.timers.live[t.id] = t
	x.pending++
	x.arm(t)
	return t.id
}

// arm starts t's Go timer, which wakes the loop when t is due.
func (x *execution) arm(t *timer) {
	wake, wakeLoop := x.timers.wake, x.req.wake
	t.due = time.Now().Add(t.interval)
	t.t = time.AfterFunc(t.interval, func() {
		select {
		case wake <- struct{}{}:
		default:
		}
		if wakeLoop != nil {
			wakeLoop()
		}
	})
}

// minTimerDelay is the shortest delay, as in Node: a zero-delay interval
// would otherwise spin the loop.
const minTimerDelay = time.Millisecond

// timerDelay reads a delay as Node does (after *= 1): Number(delay)
// milliseconds, anything below one (or not a number) meaning one.
func (x *execution) timerDelay(v goja.Value) time.Duration {
	if v == nil || goja.IsUndefined(v) {
		return minTimerDelay
	}
	if goja.IsBigInt(v) {
		panic(x.realm.vm.NewTypeError(msgMixedBigInt))
	}
	ms := x.platform.ToNumber(v)
	if math.IsNaN(ms) || ms < 1 {
		return minTimerDelay
	}
	if ms > float64(math.MaxInt64/int64(time.Millisecond)) {
		return time.Duration(math.MaxInt64)
	}
	return time.Duration(ms * float64(time.Millisecond))
}

// cancelTimer is clearTimeout and clearInterval. As in Node it never
// throws: an id is a number or a string, anything else (or an unknown id)
// is ignored.
func (x *execution) cancelTimer(v goja.Value) {
	if !goja.IsNumber(v) && !goja.IsString(v) {
		return
	}
	if f := v.ToFloat(); !math.IsNaN(f) {
		x.dropTimer(int64(f))
	}
}

func (x *execution) dropTimer(id int64) {
	t, ok := x.timers.live[id]
	if !ok {
		return
	}
	t.t.Stop()
	delete(x.timers.live, id)
	x.pending--
}

// fireDue runs the callbacks of the timers that are due, earliest first. A
// timer cleared by an earlier callback does not run. An exception in a
// callback ends the run, as an uncaught exception in a timer ends a Node
// process.
func (x *execution) fireDue() error {
	for _, t := range x.timers.dueAt(time.Now()) {
		if x.timers.live[t.id] != t {
			continue
		}
		if t.repeat {
			x.arm(t)
		} else {
			delete(x.timers.live, t.id)
			x.pending--
		}
		if _, err := t.callback(goja.Undefined(), t.args...); err != nil {
			return err
		}
	}
	return nil
}

// dueAt returns the timers due at now in the order they fire: by due time,
// and in the order they were scheduled when due together.
func (ts *timers) dueAt(now time.Time) []*timer {
	var due []*timer
	for _, t := range ts.live {
		if !t.due.After(now) {
			due = append(due, t)
		}
	}
	slices.SortFunc(due, func(a, b *timer) int {
		if c := a.due.Compare(b.due); c != 0 {
			return c
		}
		return cmp.Compare(a.id, b.id)
	})
	return due
}

// stopTimers stops every Go timer of the run.
func (x *execution) stopTimers() {
	for _, t := range x.timers.live {
		t.t.Stop()
	}
}
