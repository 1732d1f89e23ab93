package games

import (
	"fmt"
	"strings"

	"herald/engine"
	"herald/templates"
)

// What-if: judging orders that come after a die roll without the roll.
//
// A die roll is Herald's secret until the block is carried out for real,
// so a CHECK, and the orders a player keeps over his opponent's Seizure
// decision, are judged by trying them with every face the die can show,
// on dice of Herald's own that never touch the game's dice log: each try
// rolls that face every time. An order carried out in every try is legal
// whatever the roll; one refused wherever it is reached (a unit that does
// not exist, a hex out of range, a declaration that does not hold) is
// wrong now; the rest depend on the roll. The opponent's standing orders
// play no part in the tries: they are his secret until they act (his
// decisions are taken as if he had none: a Seizure he declines, Return
// and Reaction Fire whenever he may, Herald's choice of retreats).

// faceDice rolls one face every time.
type faceDice int

func (d faceDice) Roll(string) (int, error) { return int(d), nil }

// fate is what one try did with one line.
type fate struct {
	done         bool // carried out
	refused      bool
	reason, rule string
}

// masked is the position as the sender may know it: the opponent's
// standing orders and unplayed Seizure counters left out (B&R 6.3: only
// how many he holds is known).
func masked(st *engine.State, side engine.Side) *engine.State {
	m := st.Redacted(side)
	m.Standing[side.Other()] = engine.StandingOrders{}
	return m
}

// tryBlock carries out orders with every die showing face, and, when the
// block ends by keeping orders over the opponent's Seizure decision, the
// opponent declining it; it returns each line's fate. A line refused in a
// try is left out of the next, so that the lines after it are judged too.
func tryBlock(sc *engine.Scenario, st *engine.State, side engine.Side, orders []engine.Order, face int) map[int]fate {
	return untilClean(func(skip map[int]bool) (map[int]fate, int) {
		var left []engine.Order
		for _, o := range orders {
			if !skip[o.LineNo()] {
				left = append(left, o)
			}
		}
		res, err := engine.Apply(sc, st, side, left, faceDice(face))
		if err != nil {
			return nil, 0
		}
		out := map[int]fate{}
		for _, o := range res.Applied {
			out[o.LineNo()] = fate{done: true}
		}
		bad := settled(out, res.NotApplied, res.Stopped, res.Refused)
		if len(res.Held) > 0 {
			// The held lines are known by their place in the block tried.
			line := func(place int) int {
				if place >= 1 && place <= len(left) {
					return left[place-1].LineNo()
				}
				return 0
			}
			held, heldBad := tryHeldOnce(sc, res.State, side, face, nil)
			for k, v := range held {
				out[line(k)] = v
			}
			if bad == 0 && heldBad != 0 {
				bad = line(heldBad)
			}
		}
		return out, bad
	})
}

// tryHeld: the opponent declines the Seizure; the Continuation DR and the
// held orders roll face.
func tryHeld(sc *engine.Scenario, st *engine.State, side engine.Side, face int) map[int]fate {
	return untilClean(func(skip map[int]bool) (map[int]fate, int) {
		return tryHeldOnce(sc, st, side, face, skip)
	})
}

func tryHeldOnce(sc *engine.Scenario, st *engine.State, side engine.Side, face int, skip map[int]bool) (map[int]fate, int) {
	if len(skip) > 0 && st.Held != nil {
		st = st.Clone()
		var lines []engine.HeldLine
		for _, l := range st.Held.Lines {
			if !skip[l.No] {
				lines = append(lines, l)
			}
		}
		st.Held.Lines = lines
	}
	res, err := engine.Apply(sc, st, side.Other(), []engine.Order{engine.Decline{}}, faceDice(face))
	if err != nil {
		return nil, 0
	}
	out, bad := map[int]fate{}, 0
	for _, rel := range res.Released {
		if rel.Side != side {
			continue
		}
		for _, o := range rel.Applied {
			out[o.LineNo()] = fate{done: true}
		}
		if b := settled(out, rel.NotApplied, rel.Stopped, rel.Refused); bad == 0 {
			bad = b
		}
		for _, o := range rel.Held {
			out[o.LineNo()] = fate{reason: "kept again over a new Seizure decision"}
		}
	}
	return out, bad
}

// untilClean repeats a try, leaving out each line refused, until a try
// refuses none: a refused line keeps the fate of the try that refused it,
// the others take the last try's.
func untilClean(try func(skip map[int]bool) (map[int]fate, int)) map[int]fate {
	skip := map[int]bool{}
	out := map[int]fate{}
	for range 100 {
		f, bad := try(skip)
		for k, v := range f {
			out[k] = v
		}
		if bad == 0 || skip[bad] {
			break
		}
		skip[bad] = true
	}
	return out
}

// settled records the fates of the lines a try did not carry out, and
// returns the line it refused (0: none).
func settled(out map[int]fate, notApplied []engine.Order, stopped string, refused *engine.IllegalOrderError) int {
	bad := 0
	for _, o := range notApplied {
		f := fate{reason: stopped}
		if refused != nil && refused.Line == o.LineNo() {
			f, bad = fate{refused: true, reason: refused.Reason, rule: refused.Rule}, o.LineNo()
		}
		out[o.LineNo()] = f
	}
	return bad
}

// verdicts judges orders from the tries of every face, one line each, in
// the words of a reply; lines share a reason when they share a verdict.
func verdicts(orders []engine.Order, typed map[int]string, tries []map[int]fate) []templates.NotApplied {
	var out []templates.NotApplied
	for _, o := range orders {
		n := o.LineNo()
		na := templates.NotApplied{LineNo: n, Line: typed[n]}
		if na.Line == "" {
			na.Line = o.String()
		}
		na.Reason, na.Rule = verdict(n, tries)
		out = append(out, na)
	}
	return templates.GroupReasons(out)
}

func verdict(line int, tries []map[int]fate) (reason, rule string) {
	var done, refused, other []int
	var refusal, notDone fate
	for face, t := range tries {
		f, ok := t[line]
		switch {
		case !ok:
			continue
		case f.done:
			done = append(done, face)
		case f.refused:
			refused = append(refused, face)
			if refusal.reason == "" {
				refusal = f
			}
		default:
			other = append(other, face)
			if notDone.reason == "" {
				notDone = f
			}
		}
	}
	tried := len(done) + len(refused) + len(other)
	switch {
	case tried == 0:
		return "not judged: Herald could not try it", ""
	case len(done) == tried:
		return "legal whatever the die shows: carried out with every result", ""
	case len(done) == 0 && len(refused) > 0:
		return "refused wherever the dice let it be reached, so it is wrong now: " + refusal.reason, refusal.rule
	case len(done) == 0:
		return "not carried out with any result of the die: " + notDone.reason, ""
	}
	why := notDone
	if len(refused) > 0 {
		why = refusal
		why.reason = "refused: " + why.reason
	}
	return fmt.Sprintf("depends on the roll: carried out when the dice show %s; when they show %s, %s",
		faces(done), faces(append(refused, other...)), why.reason), why.rule
}

// faces writes die faces as runs: "0–3, 7".
func faces(fs []int) string {
	seen := [10]bool{}
	for _, f := range fs {
		if f >= 0 && f < 10 {
			seen[f] = true
		}
	}
	var parts []string
	for i := 0; i < 10; i++ {
		if !seen[i] {
			continue
		}
		j := i
		for j+1 < 10 && seen[j+1] {
			j++
		}
		if j == i {
			parts = append(parts, fmt.Sprint(i))
		} else {
			parts = append(parts, fmt.Sprintf("%d–%d", i, j))
		}
		i = j
	}
	return strings.Join(parts, ", ")
}

// tryEveryFace runs try for each face of the d10.
func tryEveryFace(try func(face int) map[int]fate) []map[int]fate {
	tries := make([]map[int]fate, 10)
	for face := range tries {
		tries[face] = try(face)
	}
	return tries
}

// keptVerdicts judges the orders a block kept over the opponent's Seizure
// decision, from the position after the block; block is the block's
// orders, whose places the held lines give.
func keptVerdicts(sc *engine.Scenario, after *engine.State, side engine.Side, block, held []engine.Order, typed map[int]string) []templates.NotApplied {
	m := masked(after, side)
	tries := tryEveryFace(func(face int) map[int]fate {
		out := map[int]fate{}
		for place, f := range tryHeld(sc, m, side, face) {
			if place >= 1 && place <= len(block) {
				out[block[place-1].LineNo()] = f
			}
		}
		return out
	})
	return verdicts(held, typed, tries)
}
