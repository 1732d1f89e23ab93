package command

import (
	"fmt"
	"io"
	"strings"

	"herald/engine"
	"herald/engine/hex"
)

// The words herald play answers at its prompt besides orders: a player at
// the terminal has no map mail, so he asks for the board.

const playHelp = `Type the orders of the side the prompt names, one per line, then an empty
line to send them (docs/orders.md has the whole language). "Legal:" above
the prompt lists what may be given now. Alone on a line:
  help    this text
  map     the part of the map where the units stand, as text
  units   every unit by Command: hex, facing, state; and the leaders
  [Side]  send the next block as another side (normally not needed)
The game ends at the end of the input (Ctrl-D).
`

// playWord answers help, map or units typed alone, and reports whether
// the line was one of them.
func (p *player) playWord(line string) bool {
	switch strings.ToLower(strings.TrimSpace(line)) {
	case "help", "?":
		fmt.Fprint(p.env.Stdout, playHelp)
	case "map", "board":
		writeBoard(p.env.Stdout, p.sc, p.st)
	case "units", "roster":
		writeUnits(p.env.Stdout, p.sc, p.st)
	default:
		return false
	}
	return true
}

// writeBoard draws the hexes around the units on the map as text: each
// map row takes two lines, one for the columns that sit higher and one
// for those half a hex lower, so that neighbours are drawn next to each
// other. A hex shows the first unit in it ("+" when more share it), a
// leader alone by his initial in lower case, "." when empty.
func writeBoard(w io.Writer, sc *engine.Scenario, st *engine.State) {
	at := map[hex.Hex][]string{}
	g := sc.Map.Grid
	lo, hi := hex.Hex{Col: g.MaxCol, Row: g.MaxRow}, hex.Hex{Col: g.MinCol, Row: g.MinRow}
	mark := func(h hex.Hex, s string) {
		at[h] = append(at[h], s)
		lo.Col, lo.Row = min(lo.Col, h.Col), min(lo.Row, h.Row)
		hi.Col, hi.Row = max(hi.Col, h.Col), max(hi.Row, h.Row)
	}
	for i, u := range sc.Units {
		if us := st.Units[i]; !us.OffMap && us.Status != engine.Eliminated {
			mark(us.Hex, u.ID)
		}
	}
	for i, l := range sc.Leaders {
		if ls := st.Leaders[i]; !ls.OffMap && !ls.Killed {
			if _, ok := at[ls.Hex]; !ok {
				mark(ls.Hex, strings.ToLower(l.Name[:1]))
			}
		}
	}
	if len(at) == 0 {
		fmt.Fprintln(w, "(no unit on the map)")
		return
	}
	lo.Col, lo.Row = max(lo.Col-1, g.MinCol), max(lo.Row-1, g.MinRow)
	hi.Col, hi.Row = min(hi.Col+1, g.MaxCol), min(hi.Row+1, g.MaxRow)
	cell := func(h hex.Hex) string {
		occ := at[h]
		switch {
		case len(occ) == 0:
			return "."
		case len(occ) > 1:
			return occ[0] + "+"
		}
		return occ[0]
	}
	// lower reports whether a column sits half a hex lower (hex.Grid).
	lower := func(col int) bool { return (col%2 != 0) == g.OddShifted }
	var head strings.Builder
	head.WriteString("row ")
	for c := lo.Col; c <= hi.Col; c++ {
		fmt.Fprintf(&head, "%-6s", fmt.Sprintf("%02d", c))
	}
	fmt.Fprintln(w, strings.TrimRight(head.String(), " "))
	for r := lo.Row; r <= hi.Row; r++ {
		for _, low := range []bool{false, true} {
			var b strings.Builder
			if !low {
				fmt.Fprintf(&b, "%02d  ", r)
			} else {
				b.WriteString("    ")
			}
			for c := lo.Col; c <= hi.Col; c++ {
				if lower(c) == low {
					fmt.Fprintf(&b, "%-6s", cell(hex.Hex{Col: c, Row: r}))
				} else {
					b.WriteString("      ")
				}
			}
			fmt.Fprintln(w, strings.TrimRight(b.String(), " "))
		}
	}
	fmt.Fprintln(w, `Columns across, rows down (hex XXYY = column XX, row YY); a column's second line is its hexes half a row lower. "+" more in the hex; a lower-case letter a leader alone.`)
}

// writeUnits lists each Command's units and leader.
func writeUnits(w io.Writer, sc *engine.Scenario, st *engine.State) {
	for _, c := range sc.Commands {
		ld := sc.Leader(c.Leader)
		where := "off the map"
		for i := range sc.Leaders {
			if ls := st.Leaders[i]; sc.Leaders[i].ID == c.Leader && !ls.OffMap && !ls.Killed {
				where = "at " + ls.Hex.String()
			}
		}
		fmt.Fprintf(w, "%s, %s (leader %s %s, Activation Rating %d, Command Range %d)\n", sc.SideName(c.Side), c.Name, ld.Name, where, ld.AR, ld.Range)
		for i, u := range sc.Units {
			if u.Command != c.ID {
				continue
			}
			us := st.Units[i]
			typ := u.Type
			if t := sc.Tables.UnitTypes[u.Type]; t != nil && t.Name != "" {
				typ = t.Name
			}
			switch {
			case us.Status == engine.Eliminated:
				fmt.Fprintf(w, "  %-6s %-26s eliminated\n", u.ID, typ)
			case us.OffMap:
				fmt.Fprintf(w, "  %-6s %-26s off the map (reinforcement)\n", u.ID, typ)
			default:
				fmt.Fprintf(w, "  %-6s %-26s %s facing %-2s %s\n", u.ID, typ, us.Hex, us.Facing, us.Status)
			}
		}
	}
}
