package pbem

import (
	"sync"
	"time"
)

// Limiter caps the mails a sender may send in an hour and the failed
// authentications he may cause, so that a runaway client or a key-guesser
// cannot make Herald work, or answer, without end. It keeps its counts in
// memory and takes the time from its caller.
type Limiter struct {
	perHour     int
	maxFailures int

	mu      sync.Mutex
	senders map[string]*window
}

type window struct {
	mails, failures []time.Time
	notified        bool
}

// MaxFailures is how many failed authentications in an hour stop a sender.
const MaxFailures = 10

// NewLimiter allows perHour mails per sender and hour.
func NewLimiter(perHour int) *Limiter {
	return &Limiter{perHour: perHour, maxFailures: MaxFailures, senders: map[string]*window{}}
}

// Allow counts a mail from addr at now. It reports whether to read it,
// and, when not, whether to send the one polite notice: notify is true the
// first time a sender is stopped in a window, never again until he is let
// through once more.
func (l *Limiter) Allow(addr string, now time.Time) (ok, notify bool) {
	l.mu.Lock()
	defer l.mu.Unlock()
	w := l.window(addr, now)
	if len(w.mails) >= l.perHour || len(w.failures) >= l.maxFailures {
		notify = !w.notified
		w.notified = true
		return false, notify
	}
	w.notified = false
	w.mails = append(w.mails, now)
	return true, false
}

// Fail counts a failed authentication of addr at now.
func (l *Limiter) Fail(addr string, now time.Time) {
	l.mu.Lock()
	defer l.mu.Unlock()
	w := l.window(addr, now)
	w.failures = append(w.failures, now)
}

// window returns addr's counts with everything older than an hour dropped.
func (l *Limiter) window(addr string, now time.Time) *window {
	base, _ := PlusTag(addr)
	w := l.senders[base]
	if w == nil {
		w = &window{}
		l.senders[base] = w
	}
	w.mails = recent(w.mails, now)
	w.failures = recent(w.failures, now)
	return w
}

func recent(ts []time.Time, now time.Time) []time.Time {
	cut := now.Add(-time.Hour)
	i := 0
	for i < len(ts) && !ts[i].After(cut) {
		i++
	}
	return ts[i:]
}
