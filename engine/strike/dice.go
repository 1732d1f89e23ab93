package strike

import "fmt"

// Dice is every source of chance the strike rules use: one twenty-sided
// die ("roll 1D20 for each") and one card from a deck with Jokers (C.
// CAPTURING A PERSONALITY OR BANNER: "The opposing Warlord draws a card").
//
// why says what the roll or draw is for, in words a player reads in the
// dice log ("Longbowmen stand 2 shoot at Knights"). An error means the
// source failed; the caller abandons the whole resolution with it.
type Dice interface {
	Roll20(why string) (int, error)
	Card(why string) (Card, error)
}

// Card is one playing card: a Joker, or a rank 1 (Ace) to 13 (King) of a
// suit.
type Card struct {
	Joker bool
	Rank  int    // 1 Ace, 2–10, 11 Jack, 12 Queen, 13 King; 0 for a Joker
	Suit  string // "S", "H", "D", "C"; "" for a Joker
}

func (c Card) String() string {
	if c.Joker {
		return "Joker"
	}
	names := map[int]string{1: "A", 11: "J", 12: "Q", 13: "K"}
	r, ok := names[c.Rank]
	if !ok {
		r = fmt.Sprint(c.Rank)
	}
	return r + c.Suit
}

// Valid reports whether c is a card of the deck.
func (c Card) Valid() bool {
	if c.Joker {
		return c.Rank == 0 && c.Suit == ""
	}
	switch c.Suit {
	case "S", "H", "D", "C":
		return c.Rank >= 1 && c.Rank <= 13
	}
	return false
}

// Script is a Dice that gives fixed rolls and cards in order, for tests
// and replays. It records what it gave, with the reasons.
type Script struct {
	D20s   []int
	Cards  []Card
	Log    []string // "d20 7: why", "card QH: why"
	nd, nc int
}

// NewScript returns a Script that rolls d20s in order and draws no card.
func NewScript(d20s ...int) *Script { return &Script{D20s: d20s} }

// Roll20 returns the next scripted roll.
func (s *Script) Roll20(why string) (int, error) {
	if s.nd >= len(s.D20s) {
		return 0, fmt.Errorf("dice script exhausted: d20 %d (%s) has no value; %d given", s.nd+1, why, len(s.D20s))
	}
	v := s.D20s[s.nd]
	if v < 1 || v > 20 {
		return 0, fmt.Errorf("dice script: d20 %d is %d, not a face 1–20", s.nd+1, v)
	}
	s.nd++
	s.Log = append(s.Log, fmt.Sprintf("d20 %d: %s", v, why))
	return v, nil
}

// Card returns the next scripted card.
func (s *Script) Card(why string) (Card, error) {
	if s.nc >= len(s.Cards) {
		return Card{}, fmt.Errorf("card script exhausted: card %d (%s) has no value; %d given", s.nc+1, why, len(s.Cards))
	}
	c := s.Cards[s.nc]
	if !c.Valid() {
		return Card{}, fmt.Errorf("card script: card %d (%+v) is not a card of the deck", s.nc+1, c)
	}
	s.nc++
	s.Log = append(s.Log, fmt.Sprintf("card %s: %s", c, why))
	return c, nil
}

// Remaining is how many scripted rolls and cards are still unused.
func (s *Script) Remaining() (d20s, cards int) { return len(s.D20s) - s.nd, len(s.Cards) - s.nc }
