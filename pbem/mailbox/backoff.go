package mailbox

import (
	"math/rand/v2"
	"time"
)

// Backoff returns how long to wait before retry number attempt (1 for the
// first retry). Intake uses one for reconnecting and one for retrying a
// message whose handler failed; tests inject a fast one.
type Backoff func(attempt int) time.Duration

// ExponentialBackoff doubles the delay from base at every attempt, caps it
// at max, and spreads each delay at random over its upper half ("equal
// jitter"), so that many clients of one restarted server do not reconnect in
// step. ExponentialBackoff(time.Second, 5*time.Minute) is the default.
func ExponentialBackoff(base, max time.Duration) Backoff {
	if base <= 0 {
		base = time.Second
	}
	if max < base {
		max = base
	}
	return func(attempt int) time.Duration {
		d := base
		for i := 1; i < attempt && d < max; i++ {
			d *= 2
		}
		d = min(d, max)
		half := d / 2
		return half + rand.N(d-half+1)
	}
}

// ConstantBackoff always waits d. It is meant for tests.
func ConstantBackoff(d time.Duration) Backoff {
	return func(int) time.Duration { return d }
}
