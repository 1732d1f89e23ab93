package pbem

import (
	"sync"
	"time"
)

// Limiter caps the mails a sender may send in an hour and the failed
// authentications he may cause, so that a runaway client or a key-guesser
// cannot make Herald work, or answer, without end. Senders are counted by
// address without plus-tag, over a sliding hour. It keeps its counts in
// memory (a restart forgets them), takes the time from its caller and is
// safe for concurrent use.
type Limiter struct {
	perHour     int
	maxFailures int

	mu      sync.Mutex
	senders map[string]*window
	calls   int // since the last sweep
}

type window struct {
	mails    []time.Time
	failures []failure
	notified bool
}

type failure struct {
	at   time.Time
	game string
}

// MaxFailures is how many failed authentications in an hour stop a sender.
const MaxFailures = 10

// sweepEvery is how many calls pass between sweeps of idle senders, so
// that the map does not grow with every address that ever wrote.
const sweepEvery = 1024

// NewLimiter allows perHour mails per sender and hour (at least one).
func NewLimiter(perHour int) *Limiter {
	return &Limiter{perHour: max(perHour, 1), maxFailures: MaxFailures, senders: map[string]*window{}}
}

// Allow counts a mail from addr at now. It reports whether to read it,
// and, when not, whether to send the one polite notice: notify is true the
// first time a sender is stopped, and not again until he has been let
// through once more. A sender is stopped when he sent perHour mails in
// the last hour, or caused MaxFailures failed authentications.
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

// Fail counts a failed authentication of addr at now, in no particular
// game.
func (l *Limiter) Fail(addr string, now time.Time) { l.FailGame(addr, "", now) }

// FailGame counts a failed authentication of addr in game at now and
// returns how many the sender caused in that game in the last hour, for
// the log.
func (l *Limiter) FailGame(addr, game string, now time.Time) int {
	l.mu.Lock()
	defer l.mu.Unlock()
	w := l.window(addr, now)
	w.failures = append(w.failures, failure{at: now, game: game})
	return countGame(w.failures, game)
}

// Failures is how many failed authentications addr caused in the last
// hour before now: in game, or in all games when game is "".
func (l *Limiter) Failures(addr, game string, now time.Time) int {
	l.mu.Lock()
	defer l.mu.Unlock()
	w := l.window(addr, now)
	if game == "" {
		return len(w.failures)
	}
	return countGame(w.failures, game)
}

func countGame(fs []failure, game string) int {
	n := 0
	for _, f := range fs {
		if f.game == game {
			n++
		}
	}
	return n
}

// window returns addr's counts with everything older than an hour dropped.
func (l *Limiter) window(addr string, now time.Time) *window {
	if l.calls++; l.calls >= sweepEvery {
		l.sweep(now)
	}
	base, _ := PlusTag(addr)
	w := l.senders[base]
	if w == nil {
		w = &window{}
		l.senders[base] = w
	}
	cut := now.Add(-time.Hour)
	for len(w.mails) > 0 && !w.mails[0].After(cut) {
		w.mails = w.mails[1:]
	}
	for len(w.failures) > 0 && !w.failures[0].at.After(cut) {
		w.failures = w.failures[1:]
	}
	return w
}

// sweep forgets senders with nothing in the last hour before now.
func (l *Limiter) sweep(now time.Time) {
	l.calls = 0
	cut := now.Add(-time.Hour)
	for k, w := range l.senders {
		idle := (len(w.mails) == 0 || !w.mails[len(w.mails)-1].After(cut)) &&
			(len(w.failures) == 0 || !w.failures[len(w.failures)-1].at.After(cut))
		if idle {
			delete(l.senders, k)
		}
	}
}
