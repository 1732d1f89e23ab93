package pbem

import (
	"sync"
	"time"
)

// Limiter keeps Herald from working, or answering, without end, and
// counts only what a forged From cannot touch (docs/mail-orders.md, "Rate
// limits"):
//
//   - Allow caps the mails one authenticated sender (a player of a game,
//     named by what authenticated him: game and side) may have read in an
//     hour. Only the holder of the key fills his count, so a stranger can
//     never lock a player out; a runaway client of the player himself is
//     stopped.
//   - Answer caps the answers to mail that did not authenticate (notices,
//     refusals of a wrong or missing key), per address answered. A
//     stranger who forges a player's From can cause that player at most
//     this many such answers an hour, and never stop his keyed orders.
//   - FailGame counts failed authentications per claimed sender, for the
//     log only: it stops nobody, since anyone can fail in anyone's name.
//
// Addresses are counted without plus-tag, over a sliding hour. The counts
// are in memory (a restart forgets them); the limiter takes the time from
// its caller and is safe for concurrent use.
type Limiter struct {
	perHour        int
	answersPerHour int

	mu      sync.Mutex
	senders map[string]*window
	calls   int // since the last sweep
}

type window struct {
	mails    []time.Time
	answers  []time.Time
	failures []failure
	notified bool
}

type failure struct {
	at   time.Time
	game string
}

// sweepEvery is how many calls pass between sweeps of idle senders, so
// that the map does not grow with every address that ever wrote.
const sweepEvery = 1024

// NewLimiter allows perHour mails per authenticated sender and hour, and
// answersPerHour answers per address and hour to mail that did not
// authenticate (each at least one).
func NewLimiter(perHour, answersPerHour int) *Limiter {
	return &Limiter{perHour: max(perHour, 1), answersPerHour: max(answersPerHour, 1), senders: map[string]*window{}}
}

// Allow counts a mail of the authenticated sender who at now. It reports
// whether to read it, and, when not, whether to send the one polite
// notice: notify is true the first time he is stopped, and not again
// until he has been let through once more.
func (l *Limiter) Allow(who string, now time.Time) (ok, notify bool) {
	l.mu.Lock()
	defer l.mu.Unlock()
	w := l.window("sender:"+who, now)
	if len(w.mails) >= l.perHour {
		notify = !w.notified
		w.notified = true
		return false, notify
	}
	w.notified = false
	w.mails = append(w.mails, now)
	return true, false
}

// Answer counts an answer to addr, at now, to a mail that did not
// authenticate, and reports whether it may be sent: false once addr had
// answersPerHour such answers in the last hour.
func (l *Limiter) Answer(addr string, now time.Time) bool {
	l.mu.Lock()
	defer l.mu.Unlock()
	w := l.window(addressKey(addr), now)
	if len(w.answers) >= l.answersPerHour {
		return false
	}
	w.answers = append(w.answers, now)
	return true
}

// FailGame counts a failed authentication of the claimed sender addr in
// game at now and returns how many that address caused in that game in
// the last hour, for the log.
func (l *Limiter) FailGame(addr, game string, now time.Time) int {
	l.mu.Lock()
	defer l.mu.Unlock()
	w := l.window(addressKey(addr), now)
	w.failures = append(w.failures, failure{at: now, game: game})
	return countGame(w.failures, game)
}

// Failures is how many failed authentications addr caused in the last
// hour before now: in game, or in all games when game is "".
func (l *Limiter) Failures(addr, game string, now time.Time) int {
	l.mu.Lock()
	defer l.mu.Unlock()
	w := l.window(addressKey(addr), now)
	if game == "" {
		return len(w.failures)
	}
	return countGame(w.failures, game)
}

func addressKey(addr string) string {
	base, _ := PlusTag(addr)
	return "address:" + base
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

// window returns key's counts with everything older than an hour dropped.
func (l *Limiter) window(key string, now time.Time) *window {
	if l.calls++; l.calls >= sweepEvery {
		l.sweep(now)
	}
	w := l.senders[key]
	if w == nil {
		w = &window{}
		l.senders[key] = w
	}
	cut := now.Add(-time.Hour)
	w.mails = after(w.mails, cut)
	w.answers = after(w.answers, cut)
	for len(w.failures) > 0 && !w.failures[0].at.After(cut) {
		w.failures = w.failures[1:]
	}
	return w
}

// after drops the times not after cut from the front of ts.
func after(ts []time.Time, cut time.Time) []time.Time {
	for len(ts) > 0 && !ts[0].After(cut) {
		ts = ts[1:]
	}
	return ts
}

// sweep forgets keys with nothing in the last hour before now.
func (l *Limiter) sweep(now time.Time) {
	l.calls = 0
	cut := now.Add(-time.Hour)
	for k, w := range l.senders {
		if len(after(w.mails, cut))+len(after(w.answers, cut)) == 0 &&
			(len(w.failures) == 0 || !w.failures[len(w.failures)-1].at.After(cut)) {
			delete(l.senders, k)
		}
	}
}
