package ladder

import (
	"math"
	"sort"
)

// Standing is one line of the standings.
type Standing struct {
	Rank int
	Member
	InPlay int // games not over
}

// Standings ranks the active members: by rating (rounded to the point
// shown), then more wins, then fewer games lost, then address; members
// level on all of these share a rank.
func (l *Ladder) Standings() []Standing {
	var out []Standing
	for _, m := range l.Active() {
		s := Standing{Member: m}
		for _, g := range l.Games {
			if g.Status != Over && (g.Seats[0].Address == m.Address || g.Seats[1].Address == m.Address) {
				s.InPlay++
			}
		}
		out = append(out, s)
	}
	sort.SliceStable(out, func(i, j int) bool {
		a, b := out[i], out[j]
		if ra, rb := math.Round(a.Rating), math.Round(b.Rating); ra != rb {
			return ra > rb
		}
		if a.Won != b.Won {
			return a.Won > b.Won
		}
		if a.Lost != b.Lost {
			return a.Lost < b.Lost
		}
		return a.Address < b.Address
	})
	for i := range out {
		out[i].Rank = i + 1
		if i > 0 && level(out[i-1], out[i]) {
			out[i].Rank = out[i-1].Rank
		}
	}
	return out
}

func level(a, b Standing) bool {
	return math.Round(a.Rating) == math.Round(b.Rating) && a.Won == b.Won && a.Lost == b.Lost
}
