package pool

import (
	"math"
	"testing"
	"time"
)

// A server's interval and time to live are milliseconds that may be as
// large as an int64 holds: multiplied into a Duration as they are, they
// wrap to a negative one, which would poll without pause and read every
// task as expired at once.
func TestHugeTaskIntervalsAndTimesToLiveDoNotOverflow(t *testing.T) {
	for _, ms := range []int64{math.MaxInt64, math.MaxInt64 / int64(time.Millisecond) * 2, 9_300_000_000_000} {
		if every := (taskState{PollInterval: &ms}).pollEvery(); every < 24*time.Hour {
			t.Errorf("a pollInterval of %d ms polls every %v", ms, every)
		}
		w := &taskWatch{task: taskState{TTL: &ms}, started: time.Now()}
		if w.expired() {
			t.Errorf("a task with a ttl of %d ms reads as expired at once", ms)
		}
	}
}
