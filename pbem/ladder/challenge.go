package ladder

import (
	"fmt"
	"slices"
	"time"
)

// Challenge is a member's offer of a game: to one member, or open to any.
type Challenge struct {
	N    int    `json:"n"`
	From string `json:"from"`
	// To is the member challenged; "" is an open challenge any other
	// member may accept.
	To       string `json:"to,omitempty"`
	Scenario string `json:"scenario"`
	// FromSeat is the challenger's seat: 0 plays the scenario's first
	// side, 1 the second.
	FromSeat int       `json:"from_seat,omitempty"`
	At       time.Time `json:"at"`
}

// Pairing is two members to play a scenario: First plays its first side.
type Pairing struct {
	Scenario      string `json:"scenario"`
	First, Second string
	Round         int `json:"round,omitempty"`
}

// Challenge records from's challenge to to ("" for an open one) and
// returns it. seat is the challenger's: 0 the first side, 1 the second.
func (l *Ladder) Challenge(from, to, scenario string, seat int, now time.Time) (Challenge, error) {
	f, err := l.member(from)
	if err != nil {
		return Challenge{}, err
	}
	c := Challenge{From: f.Address, FromSeat: seat, At: now.UTC()}
	if to != "" {
		t, err := l.member(to)
		if err != nil {
			return Challenge{}, err
		}
		if t.Address == f.Address {
			return Challenge{}, fmt.Errorf("ladder %s: %s cannot challenge himself: %w", l.ID, f.Address, ErrInvalid)
		}
		c.To = t.Address
	}
	if seat != 0 && seat != 1 {
		return Challenge{}, fmt.Errorf("ladder %s: seat %d: want 0 (first side) or 1 (second): %w", l.ID, seat, ErrInvalid)
	}
	if c.Scenario, err = l.allowed(scenario); err != nil {
		return Challenge{}, err
	}
	for _, o := range l.Challenges {
		if o.From == c.From && o.To == c.To && o.Scenario == c.Scenario {
			return Challenge{}, fmt.Errorf("ladder %s: %s already has challenge %d open to %s: %w", l.ID, c.From, o.N, nameOpen(o.To), ErrInvalid)
		}
	}
	l.LastChallenge++
	c.N = l.LastChallenge
	l.Challenges = append(l.Challenges, c)
	return c, nil
}

func nameOpen(to string) string {
	if to == "" {
		return "all"
	}
	return to
}

// Open lists the challenges addr may accept: those to him and the open
// ones of others; addr "" lists them all.
func (l *Ladder) Open(addr string) []Challenge {
	addr = normal(addr)
	var out []Challenge
	for _, c := range l.Challenges {
		if addr == "" || c.To == addr || (c.To == "" && c.From != addr) {
			out = append(out, c)
		}
	}
	return out
}

func (l *Ladder) challenge(n int) (int, error) {
	i := slices.IndexFunc(l.Challenges, func(c Challenge) bool { return c.N == n })
	if i < 0 {
		return 0, fmt.Errorf("ladder %s: challenge %d: %w", l.ID, n, ErrUnknownChallenge)
	}
	return i, nil
}

// Accept takes challenge n up on behalf of by and returns the pairing to
// start; the challenge is gone. Start the game with StartPairing.
func (l *Ladder) Accept(by string, n int) (Pairing, error) {
	m, err := l.member(by)
	if err != nil {
		return Pairing{}, err
	}
	i, err := l.challenge(n)
	if err != nil {
		return Pairing{}, err
	}
	c := l.Challenges[i]
	if c.From == m.Address || (c.To != "" && c.To != m.Address) {
		return Pairing{}, fmt.Errorf("ladder %s: challenge %d from %s to %s, %s: %w", l.ID, n, c.From, nameOpen(c.To), m.Address, ErrNotYours)
	}
	if _, err := l.member(c.From); err != nil {
		return Pairing{}, err
	}
	p := Pairing{Scenario: c.Scenario, First: c.From, Second: m.Address}
	if c.FromSeat == 1 {
		p.First, p.Second = p.Second, p.First
	}
	l.Challenges = slices.Delete(l.Challenges, i, i+1)
	return p, nil
}

// Decline refuses challenge n: by is the member challenged, or the
// challenger withdrawing it, or an organizer. An open challenge can only
// be withdrawn.
func (l *Ladder) Decline(by string, n int) error {
	i, err := l.challenge(n)
	if err != nil {
		return err
	}
	c, by := l.Challenges[i], normal(by)
	if by != c.From && (c.To == "" || by != c.To) && !l.IsOrganizer(by) {
		if _, err := l.member(by); err != nil {
			return err
		}
		return fmt.Errorf("ladder %s: challenge %d from %s to %s, %s: %w", l.ID, n, c.From, nameOpen(c.To), by, ErrNotYours)
	}
	l.Challenges = slices.Delete(l.Challenges, i, i+1)
	return nil
}
