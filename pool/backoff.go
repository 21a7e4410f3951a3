package pool

import "time"

// Backoff is the wait before reconnect attempt n (0-based) after a failure:
// base doubled per attempt, capped at max. No jitter: each server has its own
// schedule and a daemon holds few servers, so there is no herd to spread.
func Backoff(attempt int, base, max time.Duration) time.Duration {
	if base <= 0 {
		return 0
	}
	d := base
	for i := 0; i < attempt; i++ {
		if d >= max/2 {
			return max
		}
		d *= 2
	}
	if d > max {
		return max
	}
	return d
}
