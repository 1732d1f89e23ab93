package engine

import (
	"fmt"
	"slices"
	"strings"
)

// A name typed wrong gets the nearest few names of the right kind as a
// suggestion ("did you mean DM3?"): a typo is answered with what was
// probably meant, not with every name of the army.

// maxSuggestions bounds how many names one suggestion offers.
const maxSuggestions = 3

// nearest returns the candidates (each a list of names for one thing,
// shown by its first) nearest to typed by edit distance, ignoring case and
// accents: those at the least distance found, if it is small for the
// length of what was typed, at most maxSuggestions of them.
func nearest(typed string, cands [][]string) []string {
	t := fold(typed)
	if t == "" {
		return nil
	}
	limit := max(2, len([]rune(t))/3)
	best := limit + 1
	var out []string
	for _, names := range cands {
		d := best + 1
		for _, n := range names {
			d = min(d, editDistance(t, fold(n)))
		}
		switch {
		case d < best:
			best, out = d, []string{names[0]}
		case d == best && len(out) < maxSuggestions:
			out = append(out, names[0])
		}
	}
	if best > limit {
		return nil
	}
	return out
}

// didYouMean is "; did you mean A, B or C?", or "" for no names.
func didYouMean(names []string) string {
	switch len(names) {
	case 0:
		return ""
	case 1:
		return fmt.Sprintf("; did you mean %s?", names[0])
	}
	return fmt.Sprintf("; did you mean %s or %s?", strings.Join(names[:len(names)-1], ", "), names[len(names)-1])
}

// unitHint suggests the units of side nearest to typed (only those on the
// field when field is set), or names the side a unit of that name belongs
// to when it is the other's.
func (g *game) unitHint(side Side, typed string, field bool) string {
	if i, ok := g.sideUnit(side.Other(), typed); ok {
		return fmt.Sprintf("; %s is a unit of the %s", g.sc.Units[i].ID, g.sc.SideName(side.Other()))
	}
	var cands [][]string
	for i, u := range g.sc.Units {
		if u.Side == side && (!field || onField(g.st, i)) {
			cands = append(cands, []string{u.ID})
		}
	}
	return didYouMean(nearest(typed, cands))
}

// nearestCommands are the Commands of side nearest to typed, named as
// messages name them (commandName).
func nearestCommands(sc *Scenario, side Side, typed string) []string {
	var ids []string
	var cands [][]string
	for _, c := range sc.Commands {
		if c.Side != side {
			continue
		}
		ns := []string{c.ID, c.Name}
		if l := sc.Leader(c.Leader); l != nil {
			ns = append(ns, l.Name, l.ID)
		}
		ids = append(ids, c.ID)
		cands = append(cands, append([]string{c.ID}, ns...))
	}
	var out []string
	for _, id := range nearest(typed, cands) {
		if name := commandName(sc, id); !slices.Contains(out, name) {
			out = append(out, name)
		}
	}
	return out
}

// editDistance is the Levenshtein distance between a and b, in runes.
func editDistance(a, b string) int {
	ra, rb := []rune(a), []rune(b)
	prev := make([]int, len(rb)+1)
	cur := make([]int, len(rb)+1)
	for j := range prev {
		prev[j] = j
	}
	for i := 1; i <= len(ra); i++ {
		cur[0] = i
		for j := 1; j <= len(rb); j++ {
			cost := 1
			if ra[i-1] == rb[j-1] {
				cost = 0
			}
			cur[j] = min(prev[j]+1, cur[j-1]+1, prev[j-1]+cost)
		}
		prev, cur = cur, prev
	}
	return prev[len(rb)]
}
