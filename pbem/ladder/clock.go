package ladder

import (
	"fmt"
	"slices"
	"time"
)

// TimeoutRule is what happens when a player's time runs out.
type TimeoutRule string

const (
	// TimeoutForfeit: the player loses the game on time.
	TimeoutForfeit TimeoutRule = "forfeit"
	// TimeoutAdjudicate: the game waits for an organizer's Adjudicate.
	TimeoutAdjudicate TimeoutRule = "adjudicate"
	// TimeoutOpponent: the opponent claims the win or lets the game go
	// on (Claim).
	TimeoutOpponent TimeoutRule = "opponent"
)

// TimeControl is a ladder's clock, the Rally the Troops model: each
// player starts with Initial, gains Increment with each move he sends,
// and never holds more than Cap.
type TimeControl struct {
	Initial   time.Duration `json:"initial"`
	Increment time.Duration `json:"increment"`
	Cap       time.Duration `json:"cap"`
	// Reminders are fractions of the time a player had left when his move
	// was asked, in decreasing order: 0.5 reminds him when half of it is
	// left, 0.25 when a quarter is.
	Reminders []float64 `json:"reminders,omitempty"`
	// Warning, if not 0, warns him when that little time is left.
	Warning   time.Duration `json:"warning,omitempty"`
	OnTimeout TimeoutRule   `json:"on_timeout"`
}

// Validate wants a positive Initial, Cap at least Initial, reminders in
// decreasing order between 0 and 1, and a known timeout rule.
func (tc TimeControl) Validate() error {
	bad := func(format string, a ...any) error {
		return fmt.Errorf("clock: "+format+": %w", append(a, ErrInvalid)...)
	}
	switch {
	case tc.Initial <= 0:
		return bad("starting allowance %v: want more than 0", tc.Initial)
	case tc.Increment < 0:
		return bad("increment %v: want 0 or more", tc.Increment)
	case tc.Cap < tc.Initial:
		return bad("cap %v: want at least the starting allowance %v", tc.Cap, tc.Initial)
	case tc.Warning < 0:
		return bad("warning %v: want 0 or more", tc.Warning)
	}
	for i, f := range tc.Reminders {
		if !(f > 0 && f < 1) || (i > 0 && f >= tc.Reminders[i-1]) {
			return bad("reminders %v: want fractions between 0 and 1 in decreasing order", tc.Reminders)
		}
	}
	switch tc.OnTimeout {
	case TimeoutForfeit, TimeoutAdjudicate, TimeoutOpponent:
		return nil
	}
	return bad("at zero %q: want %s, %s or %s", tc.OnTimeout, TimeoutForfeit, TimeoutAdjudicate, TimeoutOpponent)
}

// Clock is one game's clock.
type Clock struct {
	Control TimeControl      `json:"control"`
	Left    [2]time.Duration `json:"left"` // each seat's time, as of its last move
	// ToMove is the seat whose time runs, -1 none.
	ToMove int `json:"to_move"`
	// AskedAt is when Herald's mail asking ToMove for his move was
	// committed; LeftAtAsk his time then, which the reminders are
	// fractions of.
	AskedAt   time.Time     `json:"asked_at,omitzero"`
	LeftAtAsk time.Duration `json:"left_at_ask,omitempty"`
	// Notified is the notice level already recorded for this move: the
	// reminders are levels 1…len(Reminders), the warning the next, the
	// timeout the last (Notice).
	Notified int `json:"notified,omitempty"`
}

// NewClock is a clock at the starting allowance, not running.
func NewClock(tc TimeControl) *Clock {
	return &Clock{Control: tc, Left: [2]time.Duration{tc.Initial, tc.Initial}, ToMove: -1}
}

func (c *Clock) stop() { c.ToMove, c.Notified = -1, 0 }

// ask starts seat's time at at.
func (c *Clock) ask(seat int, at time.Time) {
	c.ToMove, c.AskedAt, c.LeftAtAsk, c.Notified = seat, at.UTC(), c.Left[seat], 0
}

// LeftAt is the time the player to move has left at now, Herald's
// downtime not charged; for a clock not running, the first seat's.
func (c *Clock) LeftAt(now time.Time, d *Downtime) time.Duration {
	if c.ToMove < 0 {
		return c.Left[0]
	}
	return c.LeftAtAsk - d.Charged(c.AskedAt, now)
}

// NoticeKind names a notice.
type NoticeKind string

const (
	Reminder NoticeKind = "reminder"
	Warning  NoticeKind = "warning"
	Timeout  NoticeKind = "timeout"
)

// Notice is something due about a running clock.
type Notice struct {
	Game  string        `json:"game"`
	Kind  NoticeKind    `json:"kind"`
	Level int           `json:"level"`
	Seat  int           `json:"seat"`
	Left  time.Duration `json:"left"` // at the time asked; ≤ 0 for a timeout
}

func (c *Clock) warningLevel() int { return len(c.Control.Reminders) + 1 }
func (c *Clock) timeoutLevel() int { return len(c.Control.Reminders) + 2 }

// due is the highest notice level due at now and not yet recorded: a
// daemon that was down past several thresholds sends only the latest,
// the timeout above all.
func (c *Clock) due(now time.Time, d *Downtime) (Notice, bool) {
	if c.ToMove < 0 {
		return Notice{}, false
	}
	left := c.LeftAt(now, d)
	n := Notice{Seat: c.ToMove, Left: left}
	switch {
	case left <= 0:
		n.Kind, n.Level = Timeout, c.timeoutLevel()
	case c.Control.Warning > 0 && left <= c.Control.Warning:
		n.Kind, n.Level = Warning, c.warningLevel()
	default:
		for i := len(c.Control.Reminders) - 1; i >= 0; i-- {
			if float64(left) <= c.Control.Reminders[i]*float64(c.LeftAtAsk) {
				n.Kind, n.Level = Reminder, i+1
				break
			}
		}
	}
	if n.Level <= c.Notified {
		return Notice{}, false
	}
	return n, true
}

// clocked finds a game in play with a clock.
func (l *Ladder) clocked(id string) (*Game, error) {
	g, err := l.open(id)
	if err != nil {
		return nil, err
	}
	if g.Clock == nil {
		return nil, fmt.Errorf("ladder %s: game %s: %w", l.ID, id, ErrNoClock)
	}
	return g, nil
}

// Asked starts who's time (a side or an address) at at: when Herald's
// mail asking for his move was committed.
func (l *Ladder) Asked(id, who string, at time.Time) error {
	g, err := l.clocked(id)
	if err != nil {
		return err
	}
	s, ok := g.seat(who)
	if !ok {
		return fmt.Errorf("ladder %s: game %s: %q plays neither side: %w", l.ID, id, who, ErrInvalid)
	}
	if g.Status != Playing {
		return fmt.Errorf("ladder %s: game %s is %s: %w", l.ID, id, g.Status, ErrState)
	}
	g.Clock.ask(s, at)
	return nil
}

// Moved stops the running time at at, when the player's mail was applied:
// he is charged the time since Asked that Herald was up, and gains the
// increment up to the cap. A move when his time is already out is refused
// (ErrState): the daemon flags due clocks before it applies mail.
func (l *Ladder) Moved(id string, at time.Time, d *Downtime) error {
	g, err := l.clocked(id)
	if err != nil {
		return err
	}
	c := g.Clock
	if c.ToMove < 0 || g.Status != Playing {
		return fmt.Errorf("ladder %s: game %s: no move asked: %w", l.ID, id, ErrState)
	}
	left := c.LeftAt(at, d)
	if left <= 0 {
		return fmt.Errorf("ladder %s: game %s: %s's time ran out: %w", l.ID, id, g.Seats[c.ToMove].Address, ErrState)
	}
	c.Left[c.ToMove] = min(left+c.Control.Increment, c.Control.Cap)
	c.stop()
	return nil
}

// Due lists what is due at now about every running clock, one notice per
// game at most: reminders and warnings to send, timeouts to Flag. Ask it
// at any time, also after a restart: the answer depends only on the
// ladder, now and the downtime.
func (l *Ladder) Due(now time.Time, d *Downtime) []Notice {
	var out []Notice
	for _, g := range l.Games {
		if g.Status != Playing || g.Clock == nil {
			continue
		}
		if n, ok := g.Clock.due(now, d); ok {
			n.Game = g.ID
			out = append(out, n)
		}
	}
	return out
}

// Notified records a reminder or warning due at now as sent, in the
// transaction that queues its mail, so that it goes out exactly once.
func (l *Ladder) Notified(n Notice, now time.Time, d *Downtime) error {
	g, err := l.clocked(n.Game)
	if err != nil {
		return err
	}
	c := g.Clock
	due, ok := c.due(now, d)
	if !ok || n.Kind == Timeout || n.Seat != c.ToMove || n.Level != due.Level || g.Status != Playing {
		return fmt.Errorf("ladder %s: game %s: %s %d: %w", l.ID, n.Game, n.Kind, n.Level, ErrNotDue)
	}
	c.Notified = n.Level
	return nil
}

// Flag applies the ladder's timeout rule to a game whose player to move
// has no time left at now: a forfeit, or the game waits for an
// organizer's adjudication or for the opponent's claim.
func (l *Ladder) Flag(id string, now time.Time, d *Downtime) (Status, error) {
	g, err := l.clocked(id)
	if err != nil {
		return "", err
	}
	n, ok := g.Clock.due(now, d)
	if g.Status != Playing || !ok || n.Kind != Timeout {
		return "", fmt.Errorf("ladder %s: game %s: no clock has run out: %w", l.ID, id, ErrNotDue)
	}
	g.Clock.Left[n.Seat] = 0
	g.Clock.Notified = n.Level
	switch g.Clock.Control.OnTimeout {
	case TimeoutForfeit:
		l.finish(g, Result{Outcome: Forfeited, At: now.UTC()}, 1-n.Seat)
	case TimeoutAdjudicate:
		g.Status = AwaitingAdjudication
	case TimeoutOpponent:
		g.Status = AwaitingClaim
	}
	return g.Status, nil
}

// Claim is the opponent's choice after a timeout under the "opponent"
// rule: win the game on time, or let it go on, the late player's time
// starting again at one increment (or a tenth of the starting allowance
// when there is no increment) from at.
func (l *Ladder) Claim(by, id string, win bool, at time.Time) error {
	g, err := l.clocked(id)
	if err != nil {
		return err
	}
	if g.Status != AwaitingClaim {
		return fmt.Errorf("ladder %s: game %s is %s: %w", l.ID, id, g.Status, ErrState)
	}
	late := g.Clock.ToMove
	if s, ok := g.seat(by); !ok || s == late || normal(by) != g.Seats[s].Address {
		return fmt.Errorf("ladder %s: game %s: the choice is %s's, not %s's: %w", l.ID, id, g.Seats[1-late].Address, normal(by), ErrNotYours)
	}
	if win {
		l.finish(g, Result{Outcome: Forfeited, At: at.UTC()}, 1-late)
		return nil
	}
	g.Status = Playing
	g.Clock.Left[late] = grace(g.Clock.Control)
	g.Clock.ask(late, at)
	return nil
}

func grace(tc TimeControl) time.Duration {
	if tc.Increment > 0 {
		return tc.Increment
	}
	return tc.Initial / 10
}

// SetClock is an organizer's setting of who's time left (a side or an
// address) to left, at most the cap. If his time runs, his move counts
// again from at with that time; a game awaiting a decision after his
// timeout goes on.
func (l *Ladder) SetClock(by, id, who string, left time.Duration, at time.Time) error {
	if err := l.organizer(by); err != nil {
		return err
	}
	g, err := l.clocked(id)
	if err != nil {
		return err
	}
	s, ok := g.seat(who)
	if !ok {
		return fmt.Errorf("ladder %s: game %s: %q plays neither side: %w", l.ID, id, who, ErrInvalid)
	}
	if left <= 0 || left > g.Clock.Control.Cap {
		return fmt.Errorf("ladder %s: game %s: time %v: want more than 0 and at most the cap %v: %w", l.ID, id, left, g.Clock.Control.Cap, ErrInvalid)
	}
	g.Clock.Left[s] = left
	if g.Clock.ToMove == s {
		g.Clock.ask(s, at)
		g.Status = Playing // also after a timeout awaiting a decision
	}
	return nil
}

// Running lists the games whose clock runs, by id.
func (l *Ladder) Running() []string {
	var out []string
	for _, g := range l.Games {
		if g.Clock != nil && g.Clock.ToMove >= 0 && g.Status == Playing {
			out = append(out, g.ID)
		}
	}
	slices.Sort(out)
	return out
}
