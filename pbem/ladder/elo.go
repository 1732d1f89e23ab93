package ladder

import (
	"fmt"
	"math"
)

// Rating is a ladder's rating system: Elo (docs/ladders.md says why not
// Glicko-2).
type Rating struct {
	// K is the most a game moves a rating: a win against an equal gains K/2.
	K float64 `json:"k"`
	// Initial is a new member's rating.
	Initial float64 `json:"initial"`
	// RateForfeits: a game lost on time counts as a loss for the ratings;
	// otherwise it is recorded (won/lost, a forfeit) but unrated.
	RateForfeits bool `json:"rate_forfeits"`
	// RateDraws: a draw moves the ratings (score ½); otherwise unrated.
	RateDraws bool `json:"rate_draws"`
}

// DefaultRating is K 32 and 1500 for a newcomer, forfeits and draws
// rated: the FIDE-style scale clubs know, with the larger K suited to
// the few games a club ladder plays (docs/ladders.md).
var DefaultRating = Rating{K: 32, Initial: 1500, RateForfeits: true, RateDraws: true}

// Validate wants K in (0, 100] and an initial rating in [100, 4000].
func (r Rating) Validate() error {
	if !(r.K > 0 && r.K <= 100) {
		return fmt.Errorf("Elo K %v: want more than 0 and at most 100: %w", r.K, ErrInvalid)
	}
	if !(r.Initial >= 100 && r.Initial <= 4000) {
		return fmt.Errorf("initial rating %v: want 100 to 4000: %w", r.Initial, ErrInvalid)
	}
	return nil
}

// Expected is a's expected score against b: 1 / (1 + 10^((b-a)/400)).
func Expected(a, b float64) float64 { return 1 / (1 + math.Pow(10, (b-a)/400)) }

// Change is a's rating change for scoring score (1, ½ or 0) against b;
// b's is its opposite, so the ladder's total rating stays the same.
func (r Rating) Change(a, b, score float64) float64 { return r.K * (score - Expected(a, b)) }

// rates reports whether a result of that outcome moves the ratings.
func (r Rating) rates(o Outcome, draw bool) bool {
	switch {
	case o == Abandoned:
		return false
	case o == Forfeited:
		return r.RateForfeits
	case draw:
		return r.RateDraws
	}
	return true
}
