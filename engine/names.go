package engine

import (
	"fmt"
	"strings"
	"unicode"

	"golang.org/x/text/unicode/norm"
)

// Names in orders are spelled as the scenario spells them, in any case,
// with or without accents ("Alencon" finds "Alençon"), and may be shortened
// to any unambiguous prefix (docs/orders.md).

// fold lowercases a name and strips its accents, for comparisons.
func fold(s string) string {
	var b strings.Builder
	for _, r := range norm.NFD.String(strings.TrimSpace(s)) {
		if unicode.Is(unicode.Mn, r) {
			continue
		}
		b.WriteRune(unicode.ToLower(r))
	}
	return strings.Join(strings.Fields(b.String()), " ")
}

// match finds the one candidate whose names equal typed, or else the one
// whose names start with it. It returns the candidate's index, or -1 and the
// ambiguous candidates.
func match(typed string, names [][]string) (int, []int) {
	t := fold(typed)
	if t == "" {
		return -1, nil
	}
	var exact, prefix []int
	for i, ns := range names {
		e, p := false, false
		for _, n := range ns {
			n = fold(n)
			e = e || n == t
			p = p || strings.HasPrefix(n, t)
		}
		if e {
			exact = append(exact, i)
		}
		if p {
			prefix = append(prefix, i)
		}
	}
	switch {
	case len(exact) == 1:
		return exact[0], nil
	case len(exact) > 1:
		return -1, exact
	case len(prefix) == 1:
		return prefix[0], nil
	}
	return -1, prefix
}

// resolveCommand finds one of side's Commands by its id, its name or its
// leader's name. On failure it returns the candidates to suggest.
func resolveCommand(sc *Scenario, side Side, typed string) (string, []string) {
	var ids []string
	var names [][]string
	for _, c := range sc.Commands {
		if c.Side != side {
			continue
		}
		ns := []string{c.ID, c.Name}
		if l := sc.Leader(c.Leader); l != nil {
			ns = append(ns, l.Name, l.ID)
		}
		ids = append(ids, c.ID)
		names = append(names, ns)
	}
	i, amb := match(typed, names)
	if i >= 0 {
		return ids[i], nil
	}
	var cands []string
	if len(amb) == 0 {
		for _, id := range ids {
			cands = append(cands, commandName(sc, id))
		}
	}
	for _, j := range amb {
		cands = append(cands, commandName(sc, ids[j]))
	}
	return "", cands
}

// ownCommand resolves a Command of the side whose decision is pending.
func (g *game) ownCommand(o Order, typed string) (string, error) {
	side := g.st.Pending.Side
	id, cands := resolveCommand(g.sc, side, typed)
	if id != "" {
		return id, nil
	}
	e := g.illegal(o, "15.1", fmt.Sprintf("no Command of the %s is called %q", g.sc.SideName(side), typed))
	if other, _ := resolveCommand(g.sc, side.Other(), typed); other != "" {
		e.Reason = fmt.Sprintf("%s is a Command of the %s, not of the %s", commandName(g.sc, other), g.sc.SideName(side.Other()), g.sc.SideName(side))
	} else if len(cands) > 0 && len(cands) < len(commandsOf(g.sc, side)) {
		e.Reason += "; did you mean " + strings.Join(cands, " or ") + "?" // an ambiguous prefix
	} else {
		e.Reason += didYouMean(nearestCommands(g.sc, side, typed))
	}
	return "", e
}

// commandsOf are the ids of side's Commands.
func commandsOf(sc *Scenario, side Side) []string {
	var ids []string
	for _, c := range sc.Commands {
		if c.Side == side {
			ids = append(ids, c.ID)
		}
	}
	return ids
}

// findStandard resolves one of side's Standards by id or name.
func (g *game) findStandard(side Side, typed string) (string, bool) {
	var ids []string
	var names [][]string
	for _, s := range g.sc.Standards {
		if s.Side == side {
			ids = append(ids, s.ID)
			names = append(names, []string{s.ID, s.Name})
		}
	}
	if i, _ := match(typed, names); i >= 0 {
		return ids[i], true
	}
	return "", false
}

// commandName is how messages name a Command: by its leader, as the books
// do ("Godfrey's Longbow" is the Command of Godfrey).
func commandName(sc *Scenario, id string) string {
	c := sc.Command(id)
	if c == nil {
		return id
	}
	if l := sc.Leader(c.Leader); l != nil {
		return l.Name
	}
	return c.Name
}

func leaderName(sc *Scenario, id string) string {
	if l := sc.Leader(id); l != nil {
		return l.Name
	}
	return id
}

// leaderWord is the one word that names a leader in an order a player
// may copy (MOVE <leader> …, where the mover is one word): the last word
// of his name when it is his id ("King Edward" → "Edward", "Alençon"),
// else his id with a capital, never the lower-case id the data uses.
func leaderWord(l LeaderSpec) string {
	if f := strings.Fields(l.Name); len(f) > 0 && fold(f[len(f)-1]) == fold(l.ID) {
		return f[len(f)-1]
	}
	if l.ID == "" {
		return ""
	}
	r := []rune(l.ID)
	return strings.ToUpper(string(r[0])) + string(r[1:])
}

func standardName(sc *Scenario, id string) string {
	for _, s := range sc.Standards {
		if s.ID == id {
			return s.Name
		}
	}
	return id
}

// commandLabel names what is activated: a Command, or a Standard.
func commandLabel(sc *Scenario, cmd, std string) string {
	if std != "" {
		return "the " + standardName(sc, std) + " Standard"
	}
	c := sc.Command(cmd)
	if c == nil {
		return cmd
	}
	return fmt.Sprintf("%s's Command (%s)", commandName(sc, cmd), c.Name)
}

// describeRoll narrates a roll as the books do: "a roll of 6" or "a roll of
// 6, +1 (reason), modified to 7".
func describeRoll(r Roll) string {
	if len(r.Mods) == 0 {
		return fmt.Sprintf("a roll of %d", r.Die)
	}
	var parts []string
	for _, m := range r.Mods {
		parts = append(parts, fmt.Sprintf("%+d %s (%s)", m.DRM, m.Reason, m.Rule))
	}
	return fmt.Sprintf("a roll of %d, %s, modified to %d", r.Die, strings.Join(parts, ", "), r.Total)
}

// CommandWord is the one word that names a Command in an order a player
// may copy (ACTIVATE, CONTINUE, SEIZE): its leader's word.
func CommandWord(sc *Scenario, id string) string {
	c := sc.Command(id)
	if c == nil {
		return id
	}
	if l := sc.Leader(c.Leader); l != nil {
		return leaderWord(*l)
	}
	return c.ID
}
