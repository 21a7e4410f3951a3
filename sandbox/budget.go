package sandbox

import (
	"sync"
	"time"
)

// budgetClock is a run's wall-clock budget. It stops while the run waits
// for a person and does nothing else: a nested call is waiting for a
// permission prompt or a server's question (a person wait, see package
// pause) and the script is idle, waiting for host answers. A script that
// spins meanwhile is not idle, so its clock runs and the budget still ends
// it.
//
// Both halves of a worker run keep one: the worker's knows when the runtime
// is idle and reports when its clock stops and starts; the host's stops
// only while the host itself has a person wait open and the worker says its
// clock has stopped, so a worker cannot stretch the host's budget on its
// own word.
type budgetClock struct {
	expired  chan struct{} // closed when the budget is spent
	onChange func(stopped bool)

	mu      sync.Mutex
	left    time.Duration // budget left when the current running span began
	since   time.Time     // start of the current running span
	stopped bool
	timer   *time.Timer
	waits   int  // person waits open
	idle    bool // the script waits for host answers (worker side)
	done    bool // expired or finished
}

// newBudgetClock starts a clock of budget. onChange, if set, hears each
// time the clock stops or starts again, in order (it runs under the
// clock's lock: keep it short).
func newBudgetClock(budget time.Duration, onChange func(stopped bool)) *budgetClock {
	c := &budgetClock{expired: make(chan struct{}), onChange: onChange, left: budget, since: time.Now()}
	c.timer = time.AfterFunc(budget, c.expire)
	return c
}

func (c *budgetClock) expire() {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.done || c.stopped {
		return
	}
	c.done = true
	close(c.expired)
}

// finish stops the clock for good.
func (c *budgetClock) finish() {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.done = true
	c.timer.Stop()
}

// Pause opens a person wait (pause.Clock).
func (c *budgetClock) Pause() (resume func()) {
	c.update(func() { c.waits++ })
	var once sync.Once
	return func() { once.Do(func() { c.update(func() { c.waits-- }) }) }
}

// setIdle records whether the script waits for host answers.
func (c *budgetClock) setIdle(idle bool) { c.update(func() { c.idle = idle }) }

// update changes the inputs and stops or starts the clock accordingly.
func (c *budgetClock) update(change func()) {
	c.mu.Lock()
	defer c.mu.Unlock()
	change()
	stop := c.waits > 0 && c.idle
	if c.done || stop == c.stopped {
		return
	}
	c.stopped = stop
	if stop {
		c.timer.Stop()
		c.left -= time.Since(c.since)
	} else {
		c.since = time.Now()
		c.timer.Reset(max(c.left, 0))
	}
	if c.onChange != nil {
		c.onChange(stop)
	}
}
