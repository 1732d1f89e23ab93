package battle

import (
	"errors"
	"fmt"
	"math"
	"math/rand"
	"sort"

	"herald/engine/strike"
	"herald/engine/strike/table"
)

// Suggest lists order lines legal for the side whose block it is, a few a
// unit: a charge at each enemy in charge reach, a shot at each target in
// range, a move forward as far as it can go, for the mail's Turn.
func Suggest(b *Battle, st *State) []string {
	if st.Over {
		return nil
	}
	p := &play{b: b, st: st, side: st.Side}
	var out []string
	for i, u := range st.Units {
		if u.Side != st.Side || !u.On() {
			continue
		}
		out = append(out, Charges(b, st, i)...)
		if u.Fired == false && u.Charged == 0 && len(p.inContact(i)) == 0 && b.Tables.WeaponOf(b.Units[i].Type) != nil {
			out = append(out, p.targets(i)...)
		}
		if m := MaxForward(b, st, i); m >= 0.01 {
			out = append(out, fmt.Sprintf("MOVE %s %s", b.Units[i].ID, inch(m)))
		}
	}
	return out
}

// randDice is strike.Dice from a math/rand source, for Auto's trials.
type randDice struct{ r *rand.Rand }

func (d randDice) Roll20(string) (int, error) { return d.r.Intn(20) + 1, nil }
func (d randDice) Card(string) (strike.Card, error) {
	n := d.r.Intn(54)
	if n >= 52 {
		return strike.Card{Joker: true}, nil
	}
	return strike.Card{Suit: [...]string{"S", "H", "D", "C"}[n/13], Rank: n%13 + 1}, nil
}

// Auto writes a legal block for side that plays sensibly (the demo's
// player): a unit charges an enemy it may charge; a missile unit shoots
// at the target most of its stands can reach; the rest advance towards
// the nearest enemy, wheeling to face it first, halting 3½" short of
// it; then END. It tries the block with dice from rng and drops any line
// refused, so that what it returns is a block Apply accepts.
func Auto(b *Battle, st *State, side int, rng *rand.Rand) []string {
	if st.Over || st.Side != side {
		return nil
	}
	p := &play{b: b, st: st, side: side}
	var lines []string
	for i, u := range st.Units {
		if u.Side != side || !u.On() || len(p.inContact(i)) > 0 {
			continue
		}
		sp := b.Units[i]
		melee := b.Tables.WeaponOf(sp.Type) == nil
		if ch := Charges(b, st, i); len(ch) > 0 && (melee || rng.Intn(3) == 0) {
			lines = append(lines, ch[rng.Intn(len(ch))])
			continue
		}
		if !melee {
			best, most := -1, 0
			for t := range st.Units {
				if p.shootable(i, t) == "" {
					if n := len(p.shots(i, t)); n > most {
						best, most = t, n
					}
				}
			}
			if best >= 0 {
				lines = append(lines, fmt.Sprintf("SHOOT %s AT %s", sp.ID, b.Units[best].ID))
				continue
			}
		}
		// Advance on the nearest enemy.
		f := p.fp(i)
		near, dist := -1, math.Inf(1)
		for t := range st.Units {
			if st.Units[t].Side != side && st.Units[t].On() {
				if d := table.UnitDistance(f, p.fp(t)); d < dist {
					near, dist = t, d
				}
			}
		}
		if near < 0 {
			continue
		}
		turn := norm(bearing(f.Pos, table.Centre(p.fp(near).Outline())) - f.Facing)
		if turn > 180 {
			turn -= 360
		}
		if math.Abs(turn) > 15 {
			dir, deg := "RIGHT", math.Min(math.Abs(turn), 45)
			if turn < 0 {
				dir = "LEFT"
			}
			most := math.Floor(sp.Type.Move / f.Frontage() * 180 / math.Pi)
			if deg = math.Floor(math.Min(deg, most)); deg >= 1 {
				lines = append(lines, fmt.Sprintf("WHEEL %s %s %g", sp.ID, dir, deg))
			}
			continue
		}
		if m := math.Min(MaxForward(b, st, i), dist-3.5); m >= 0.5 {
			lines = append(lines, fmt.Sprintf("MOVE %s %s", sp.ID, inch(m)))
		}
	}
	// Try the block; drop what it refuses.
	for len(lines) > 0 {
		ls := make([]Line, len(lines))
		for k, l := range lines {
			ls[k] = Line{No: k + 1, Text: l}
		}
		_, err := Apply(b, st, side, ls, randDice{rng})
		var r *Refusal
		if err == nil || !errors.As(err, &r) || r.Line < 1 {
			break
		}
		lines = append(lines[:r.Line-1], lines[r.Line:]...)
	}
	sort.SliceStable(lines, func(a, c int) bool { return phase(word(lines[a])) < phase(word(lines[c])) })
	return append(lines, "END")
}

func word(l string) string {
	w := fields(l)
	if len(w) == 0 {
		return ""
	}
	return w[0]
}
