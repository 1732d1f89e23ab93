package ladder

import (
	"fmt"
	"slices"
)

// PairRound pairs the next round with scenario ("" the ladder's first)
// and returns the pairings to start with StartPairing. A round-robin
// takes its round from the circle method over the members in the order
// they joined (RoundRobin); a ladder pairs neighbours in the standings
// among the members with no game in play, the odd one out sitting out.
// The previous round's games must all be over.
func (l *Ladder) PairRound(by, scenario string) ([]Pairing, error) {
	if err := l.organizer(by); err != nil {
		return nil, err
	}
	sc, err := l.allowed(scenario)
	if err != nil {
		return nil, err
	}
	for _, g := range l.Games {
		if g.Round == l.Round && g.Round > 0 && g.Status != Over {
			return nil, fmt.Errorf("ladder %s: round %d, game %s: %w", l.ID, l.Round, g.ID, ErrRoundInPlay)
		}
	}
	var pairs [][2]string
	if l.Kind == KindRoundRobin {
		var members []string
		for _, m := range l.Active() {
			members = append(members, m.Address)
		}
		rounds := RoundRobin(members)
		if l.Round >= len(rounds) {
			return nil, fmt.Errorf("ladder %s: %d rounds: %w", l.ID, len(rounds), ErrComplete)
		}
		pairs = rounds[l.Round]
	} else {
		pairs = l.neighbours()
	}
	if len(pairs) == 0 {
		return nil, fmt.Errorf("ladder %s: fewer than two members free to play: %w", l.ID, ErrInvalid)
	}
	l.Round++
	out := make([]Pairing, len(pairs))
	for i, p := range pairs {
		out[i] = Pairing{Scenario: sc, First: p[0], Second: p[1], Round: l.Round}
	}
	return out, nil
}

// neighbours pairs 1st with 2nd, 3rd with 4th… of the standings among the
// members with no game in play; the higher placed plays the first side in
// odd rounds, the second in even ones.
func (l *Ladder) neighbours() [][2]string {
	var free []string
	for _, s := range l.Standings() {
		if s.InPlay == 0 {
			free = append(free, s.Address)
		}
	}
	var out [][2]string
	for i := 0; i+1 < len(free); i += 2 {
		p := [2]string{free[i], free[i+1]}
		if l.Round%2 == 1 {
			p[0], p[1] = p[1], p[0]
		}
		out = append(out, p)
	}
	return out
}

// RoundRobin is the schedule of a round-robin by the circle method: n-1
// rounds for n members (n rounds if n is odd, each member sitting out
// once). The first member (or the bye) stays put while the others turn;
// in each pair
// the first plays the scenario's first side, alternated so that nobody
// plays the same side more than one game more than the other.
func RoundRobin(members []string) [][][2]string {
	ring := slices.Clone(members)
	if len(ring)%2 == 1 {
		// the bye stays put, so that the sides alternate for everyone
		ring = append([]string{""}, ring...)
	}
	n := len(ring)
	var rounds [][][2]string
	for r := 0; r < n-1; r++ {
		var round [][2]string
		for i := 0; i < n/2; i++ {
			a, b := ring[i], ring[n-1-i]
			if a == "" || b == "" {
				continue
			}
			if (i == 0 && r%2 == 1) || (i > 0 && i%2 == 1) {
				a, b = b, a
			}
			round = append(round, [2]string{a, b})
		}
		rounds = append(rounds, round)
		// turn every member but the first one place
		last := ring[n-1]
		copy(ring[2:], ring[1:n-1])
		ring[1] = last
	}
	return rounds
}
