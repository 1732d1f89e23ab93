package ladder

import (
	"fmt"
	"slices"
	"time"
)

// Status is where a ladder game stands.
type Status string

const (
	Playing Status = "playing"
	// AwaitingAdjudication: a clock ran out under the "adjudicate" rule;
	// an organizer decides the result.
	AwaitingAdjudication Status = "awaiting-adjudication"
	// AwaitingClaim: a clock ran out under the "opponent" rule; the
	// opponent claims the win or lets the game go on.
	AwaitingClaim Status = "awaiting-claim"
	Over          Status = "over"
)

// Outcome is how a game ended.
type Outcome string

const (
	Won         Outcome = "won"         // the battle's end decided it
	Drawn       Outcome = "drawn"       // the battle's end: a draw
	Forfeited   Outcome = "forfeit"     // a clock ran out
	Adjudicated Outcome = "adjudicated" // an organizer decided
	Abandoned   Outcome = "abandoned"   // an organizer called it off: no result
)

// Seat is one side of a game and its player.
type Seat struct {
	Side    string `json:"side"`
	Address string `json:"address"`
}

// Game is a game of the ladder; pbem/games plays it under the same ID.
type Game struct {
	ID       string    `json:"id"`
	Scenario string    `json:"scenario"`
	Round    int       `json:"round,omitempty"`
	Seats    [2]Seat   `json:"seats"` // Seats[0] plays the scenario's first side
	Started  time.Time `json:"started"`
	Status   Status    `json:"status"`
	Clock    *Clock    `json:"clock,omitempty"`
	Result   *Result   `json:"result,omitempty"`
}

// Result is a finished game's result and what it did to the ratings.
type Result struct {
	Outcome Outcome `json:"outcome"`
	// Winner is the winner's address; "" for a draw or an abandoned game.
	Winner string    `json:"winner,omitempty"`
	At     time.Time `json:"at"`
	By     string    `json:"by,omitempty"` // the organizer who decided
	Rated  bool      `json:"rated"`
	// Change is each seat's rating change.
	Change [2]float64 `json:"change"`
}

// Game finds a game of the ladder.
func (l *Ladder) Game(id string) (*Game, error) {
	for i := range l.Games {
		if l.Games[i].ID == id {
			return &l.Games[i], nil
		}
	}
	return nil, fmt.Errorf("ladder %s: game %q: %w", l.ID, id, ErrUnknownGame)
}

// inPlay is a game addr plays that is not over, or nil.
func (l *Ladder) inPlay(addr string) *Game {
	for i := range l.Games {
		g := &l.Games[i]
		if g.Status != Over && (g.Seats[0].Address == addr || g.Seats[1].Address == addr) {
			return g
		}
	}
	return nil
}

// CheckStart reports whether StartPairing would accept p under id.
func (l *Ladder) CheckStart(p Pairing, id string, sides [2]string) error {
	if id == "" {
		return fmt.Errorf("ladder %s: a game needs an id: %w", l.ID, ErrInvalid)
	}
	if _, err := l.Game(id); err == nil {
		return fmt.Errorf("ladder %s: game %s already exists: %w", l.ID, id, ErrInvalid)
	}
	if _, err := l.allowed(p.Scenario); err != nil || p.Scenario == "" {
		return fmt.Errorf("ladder %s: %q: %w", l.ID, p.Scenario, ErrScenario)
	}
	a, err := l.member(p.First)
	if err != nil {
		return err
	}
	b, err := l.member(p.Second)
	if err != nil {
		return err
	}
	if a.Address == b.Address {
		return fmt.Errorf("ladder %s: %s cannot play himself: %w", l.ID, a.Address, ErrInvalid)
	}
	if sides[0] == "" || sides[1] == "" || sides[0] == sides[1] {
		return fmt.Errorf("ladder %s: sides %q: want the scenario's two sides: %w", l.ID, sides, ErrInvalid)
	}
	return nil
}

// StartPairing records game id playing p (from Accept or PairRound), the
// first member on sides[0]. The clock, if the ladder has one, is set but
// not running: Asked starts it.
func (l *Ladder) StartPairing(p Pairing, id string, sides [2]string, now time.Time) error {
	if err := l.CheckStart(p, id, sides); err != nil {
		return err
	}
	g := Game{ID: id, Scenario: p.Scenario, Round: p.Round, Started: now.UTC(), Status: Playing,
		Seats: [2]Seat{{sides[0], normal(p.First)}, {sides[1], normal(p.Second)}}}
	if l.Clock != nil {
		g.Clock = NewClock(*l.Clock)
	}
	l.Games = append(l.Games, g)
	return nil
}

// Start is an organizer's StartPairing: a game between two members
// outside challenges and rounds.
func (l *Ladder) Start(by string, p Pairing, id string, sides [2]string, now time.Time) error {
	if err := l.organizer(by); err != nil {
		return err
	}
	p.Round = 0
	return l.StartPairing(p, id, sides, now)
}

// seat finds the seat of a side name or an address.
func (g *Game) seat(who string) (int, bool) {
	for i, s := range g.Seats {
		if s.Side == who || s.Address == normal(who) {
			return i, true
		}
	}
	return 0, false
}

// open finds a game that is not over.
func (l *Ladder) open(id string) (*Game, error) {
	g, err := l.Game(id)
	if err != nil {
		return nil, err
	}
	if g.Status == Over {
		return nil, fmt.Errorf("ladder %s: game %s (%s): %w", l.ID, id, g.Result.Outcome, ErrGameOver)
	}
	return g, nil
}

// winnerSeat reads a winner: a side, an address, or "draw" (-1).
func (l *Ladder) winnerSeat(g *Game, winner string) (int, error) {
	if winner == "" || winner == "draw" {
		return -1, nil
	}
	i, ok := g.seat(winner)
	if !ok {
		return 0, fmt.Errorf("ladder %s: game %s: %q is neither side (%s, %s), a player nor \"draw\": %w",
			l.ID, g.ID, winner, g.Seats[0].Side, g.Seats[1].Side, ErrInvalid)
	}
	return i, nil
}

// Finish records the battle's own end: winner is a side, an address, or
// "" / "draw".
func (l *Ladder) Finish(id, winner string, at time.Time) error {
	g, err := l.open(id)
	if err != nil {
		return err
	}
	w, err := l.winnerSeat(g, winner)
	if err != nil {
		return err
	}
	out := Won
	if w < 0 {
		out = Drawn
	}
	l.finish(g, Result{Outcome: out, At: at.UTC()}, w)
	return nil
}

// Adjudicate is an organizer's result for a game not over, also one
// awaiting adjudication after its clock ran out.
func (l *Ladder) Adjudicate(by, id, winner string, at time.Time) error {
	if err := l.organizer(by); err != nil {
		return err
	}
	g, err := l.open(id)
	if err != nil {
		return err
	}
	w, err := l.winnerSeat(g, winner)
	if err != nil {
		return err
	}
	l.finish(g, Result{Outcome: Adjudicated, At: at.UTC(), By: normal(by)}, w)
	return nil
}

// Abandon calls a game off: no result, no rating change.
func (l *Ladder) Abandon(by, id string, at time.Time) error {
	if err := l.organizer(by); err != nil {
		return err
	}
	g, err := l.open(id)
	if err != nil {
		return err
	}
	g.Status = Over
	g.Result = &Result{Outcome: Abandoned, At: at.UTC(), By: normal(by)}
	if g.Clock != nil {
		g.Clock.stop()
	}
	return nil
}

// finish ends g with res, winner seat w (-1 a draw), and rates it.
func (l *Ladder) finish(g *Game, res Result, w int) {
	if w >= 0 {
		res.Winner = g.Seats[w].Address
	}
	score := 0.5
	switch w {
	case 0:
		score = 1
	case 1:
		score = 0
	}
	a, b := l.record(g.Seats[0].Address), l.record(g.Seats[1].Address)
	res.Rated = l.Rating.rates(res.Outcome, w < 0)
	if res.Rated {
		d := l.Rating.Change(a.Rating, b.Rating, score)
		a.Rating += d
		b.Rating -= d
		res.Change = [2]float64{d, -d}
	}
	switch w {
	case -1:
		a.Drawn++
		b.Drawn++
	case 0:
		a.Won++
		b.Lost++
	case 1:
		b.Won++
		a.Lost++
	}
	if res.Outcome == Forfeited && w >= 0 {
		l.record(g.Seats[1-w].Address).Forfeits++
	}
	g.Status = Over
	g.Result = &res
	if g.Clock != nil {
		g.Clock.stop()
	}
}

// record is a member's entry, also one who left.
func (l *Ladder) record(addr string) *Member {
	i := slices.IndexFunc(l.Members, func(m Member) bool { return m.Address == addr })
	return &l.Members[i]
}
