package games

import (
	"regexp"
	"slices"
	"strconv"
	"strings"

	"herald/data"
	"herald/engine/hex"
)

// The Autoplayer's way of closing with the enemy, when it knows its
// battle's map (Autoplayer.Battle). It still plays from its mails alone:
// the Welcome's roster tells where every unit of both armies stands, the
// narration of each later mail ("LB1 moves to 0710, 0711 (2 MP) and
// faces W", "…retreats to…", "…is eliminated…") where they went, and a
// result mail's "Where your units can move (MP spent)" where its own units
// may go; the map's public grid measures the distances between hexes.

// battleView is what a player's mails have told it of one game.
type battleView struct {
	side   string                // the player's side, "Yorkists"
	sideOf map[string]string     // unit → side, every unit of the roster
	ma     map[string]int        // unit → Movement Allowance
	kind   map[string]string     // unit → its type, "LVY"
	at     map[string]hex.Hex    // unit → the hex it was last told of
	facing map[string]hex.Facing // unit → the vertex it was last told of
	seen   int                   // the last move whose narration is read
	// tries counts the blocks sent for each move: a refused block brings
	// the same move back, and the player then plays it more simply.
	tries map[int]int
	// refused gathers, for each move, the reasons of its refusals: an
	// order one of them names is not sent again for that move.
	refused map[int]string
	// moved are the units given a MOVE or FACE in the Activation under way.
	moved map[string]bool
}

// grid is the battle's map grid, or nil when the player does not know its
// battle.
func (a *Autoplayer) grid() *hex.Grid {
	if a.Battle == "" {
		return nil
	}
	if a.mapGrid == nil {
		sc, err := data.Scenario(a.Battle)
		if err != nil {
			return nil
		}
		g := sc.Map.Grid
		a.mapGrid = &g
		a.partnered = map[string]bool{}
		for id, t := range sc.Tables.UnitTypes {
			a.partnered[id] = t.ShockPartner
		}
	}
	return a.mapGrid
}

var (
	apGameID  = regexp.MustCompile(`\[([^\]\s]+)\]`)
	apSide    = regexp.MustCompile(`(?m)^.*: you command the (.+)$`)
	apSideRow = regexp.MustCompile(`^([^\s:][^:]*): `)
	apUnitRow = regexp.MustCompile(`^  (\S+) +(\S+) +(\d{4}|off map) +(?:(E|NE|NW|W|SW|SE) +)?(\d+) +[+-]\d+`)
	apItem    = regexp.MustCompile(`^ *\d+\. (.*)$`)
	apMove    = regexp.MustCompile(`^Move (\d+): orders of`)
	apHexes   = `((?:\d{4}, )*\d{4})`
	apMoved   = []*regexp.Regexp{
		regexp.MustCompile(`^(\S+)(?: with .+?)? moves to ` + apHexes),
		regexp.MustCompile(`^(\S+) charges to ` + apHexes + ` at `),
		regexp.MustCompile(`^(\S+) retreats to ` + apHexes + ` \(`),
		regexp.MustCompile(`^(\S+) retires to (\d{4})`),
		regexp.MustCompile(`^(\S+) advances into (\d{4})`),
		regexp.MustCompile(`^(\S+) Retreats Before Shock to (\d{4})`),
	}
	apGone = []*regexp.Regexp{
		regexp.MustCompile(`^(\S+) is eliminated \(`),
		regexp.MustCompile(`^(\S+) flees the field`),
		regexp.MustCompile(`^Retired (\S+) left by its Standard: .*5 or more: Eliminated`),
	}
	apFacing = regexp.MustCompile(`\b(?:faces|facing|face) (E|NE|NW|W|SW|SE)\b`)
)

// learn reads what a mail tells of the game: the Welcome's roster, or the
// narration of the moves not read yet.
func (a *Autoplayer) learn(subject, text string) *battleView {
	g := a.grid()
	m := apGameID.FindStringSubmatch(subject)
	if g == nil || m == nil {
		return nil
	}
	if a.views == nil {
		a.views = map[string]*battleView{}
	}
	v := a.views[m[1]]
	if c := apSide.FindStringSubmatch(text); c != nil && strings.Contains(text, "\nThe armies\n") && v == nil {
		v = newBattleView(strings.TrimSpace(c[1]))
		v.readRoster(text)
		a.views[m[1]] = v
	}
	if v != nil {
		v.readNarration(text)
	}
	return v
}

// newBattleView is a side's view of a battle, knowing nothing yet.
func newBattleView(side string) *battleView {
	return &battleView{side: side, sideOf: map[string]string{}, ma: map[string]int{}, kind: map[string]string{}, at: map[string]hex.Hex{},
		facing: map[string]hex.Facing{}, tries: map[int]int{}, refused: map[int]string{}, moved: map[string]bool{}}
}

func (v *battleView) readRoster(text string) {
	_, rest, _ := strings.Cut(text, "\nThe armies\n")
	side := ""
	for _, l := range strings.Split(rest, "\n") {
		if strings.HasPrefix(l, "Unit types:") || strings.HasPrefix(l, "This battle's own rules") || strings.HasPrefix(l, "Orders") {
			return
		}
		if s := apSideRow.FindStringSubmatch(l); s != nil {
			side = s[1]
			continue
		}
		u := apUnitRow.FindStringSubmatch(l)
		if u == nil || side == "" {
			continue
		}
		v.sideOf[u[1]] = side
		v.ma[u[1]], _ = strconv.Atoi(u[5])
		v.kind[u[1]] = u[2]
		if h, err := hex.Parse(u[3]); err == nil {
			v.at[u[1]] = h
		}
		if f, err := hex.ParseFacing(u[4]); err == nil && u[4] != "" {
			v.facing[u[1]] = f
		}
	}
}

// readNarration follows the units through the "What happened" list of a
// mail, move by move, each move once.
func (v *battleView) readNarration(text string) {
	_, rest, ok := strings.Cut(text, "What happened\n-------------\n")
	if !ok {
		return
	}
	var items []string
	for _, l := range strings.Split(rest, "\n") {
		if strings.TrimSpace(l) == "" {
			break
		}
		if m := apItem.FindStringSubmatch(l); m != nil {
			items = append(items, m[1])
		} else if len(items) > 0 {
			items[len(items)-1] += " " + strings.TrimSpace(l)
		}
	}
	move, last := 0, v.seen
	for _, it := range items {
		if m := apMove.FindStringSubmatch(it); m != nil {
			move, _ = strconv.Atoi(m[1])
			last = max(last, move)
			continue
		}
		if move > v.seen {
			v.readItem(it)
		}
	}
	v.seen = last
}

func (v *battleView) readItem(it string) {
	for _, re := range apGone {
		if m := re.FindStringSubmatch(it); m != nil {
			delete(v.at, m[1])
			return
		}
	}
	for _, re := range apMoved {
		if m := re.FindStringSubmatch(it); m != nil {
			hexes := strings.Split(m[2], ", ")
			if h, err := hex.Parse(hexes[len(hexes)-1]); err == nil {
				v.at[m[1]] = h
			}
			break
		}
	}
	unit, _, _ := strings.Cut(it, " ")
	if _, ok := v.sideOf[unit]; ok {
		if f := apFacing.FindStringSubmatch(it); f != nil {
			v.facing[unit], _ = hex.ParseFacing(f[1])
		}
	}
}

// enemies are the hexes of the enemy units the player knows on the field.
func (v *battleView) enemies() []hex.Hex {
	var out []hex.Hex
	for u, h := range v.at {
		if v.sideOf[u] != v.side {
			out = append(out, h)
		}
	}
	slices.SortFunc(out, func(a, b hex.Hex) int { return strings.Compare(a.String(), b.String()) })
	return out
}

// nearest is the distance from h to the nearest enemy unit, and its hex.
func nearest(g *hex.Grid, h hex.Hex, enemies []hex.Hex) (int, hex.Hex) {
	best, at := 1<<30, hex.Hex{}
	for _, e := range enemies {
		if d := g.Distance(h, e); d < best {
			best, at = d, e
		}
	}
	return best, at
}

// reachable is one unit's line of a result mail's reach list.
type reachable struct {
	unit string
	cost map[hex.Hex]int
	// order keeps the hexes as the mail lists them, cheapest first.
	order []hex.Hex
}

func parseReach(line string) (reachable, bool) {
	unit, hexes, ok := strings.Cut(line, ": ")
	if !ok {
		return reachable{}, false
	}
	r := reachable{unit: unit, cost: map[hex.Hex]int{}}
	for _, part := range strings.Split(hexes, ", ") {
		id, c, ok := strings.Cut(part, " (")
		if !ok {
			continue
		}
		h, err := hex.Parse(id)
		n, err2 := strconv.Atoi(strings.TrimSuffix(c, ")"))
		if err != nil || err2 != nil {
			continue
		}
		r.cost[h] = n
		r.order = append(r.order, h)
	}
	return r, true
}

// closeIn chooses an Activation's orders that bring the armies together:
// Active Fire by every unit that may fire, then MOVEs of every other unit
// that can come nearer the enemy (the block without END, so that the next
// mail offers what the moves made legal); then every Charge and Shock
// that can be declared together, and END. A unit that can Charge or Shock
// waits for it. It answers nil when the mail is no Activation's orders.
func (a *Autoplayer) closeIn(v *battleView, rawLegal, legal, reach []string) []string {
	if !slices.Contains(legal, "END") || !hasPrefix(rawLegal, "MOVE ", "FIRE ", "SHOCK ", "CHARGE ", "FACE ") {
		if slices.ContainsFunc(legal, func(l string) bool {
			return strings.HasPrefix(l, "ACTIVATE ") || strings.HasPrefix(l, "CONTINUE ") || l == "PASS"
		}) {
			clear(v.moved) // a new Activation
		}
		return nil
	}
	g := a.grid()
	enemies := v.enemies()
	attackers := map[string]bool{}
	for _, l := range legal {
		if f := strings.Fields(l); len(f) > 1 && (f[0] == "SHOCK" || f[0] == "CHARGE") {
			for _, u := range f[1:] {
				if u == "AT" {
					break
				}
				attackers[u] = true
			}
		}
	}
	var fires []string
	for _, l := range legal {
		f := strings.Fields(l)
		if len(f) != 4 || f[0] != "FIRE" || f[2] != "AT" || attackers[f[1]] || v.moved[f[1]] {
			continue
		}
		best := l
		for _, m := range legal {
			g2 := strings.Fields(m)
			if len(g2) == 4 && g2[0] == "FIRE" && g2[1] == f[1] && closer(g, v, f[1], g2[3], strings.Fields(best)[3]) {
				best = m
			}
		}
		fires = append(fires, best)
		v.moved[f[1]] = true
	}
	var moves []string
	taken := map[hex.Hex]bool{}
	for _, line := range reach {
		r, ok := parseReach(line)
		if !ok || attackers[r.unit] || v.moved[r.unit] {
			continue
		}
		if mv := v.advance(g, r, enemies, taken); mv != "" {
			moves = append(moves, mv)
			v.moved[r.unit] = true
		}
	}
	if len(moves) > 0 {
		return append(fires, moves...)
	}
	return append(append(fires, attacks(legal, func(u string) bool { return a.partnered[v.kind[u]] })...), "END")
}

// closer reports whether target a is nearer unit u than target b, as far
// as the player knows.
func closer(g *hex.Grid, v *battleView, u, a, b string) bool {
	from, ok := v.at[u]
	ha, okA := v.at[a]
	hb, okB := v.at[b]
	return ok && okA && okB && g.Distance(from, ha) < g.Distance(from, hb)
}

// attacks are the Charges and Shocks of a mail's legal orders that can be
// declared together: no unit attacking twice (a later declaration of a
// unit replaces its earlier one), no defender attacked twice, save by several units
// that each attack it alone (they make one attack, 10.1), no two Charges
// on one hex, and a unit that Shocks only with a partner (Blood & Roses
// 16.3 Levy, partnered tells which) only where another unit attacks.
// Declarations that END would refuse stay declared, so none is risked.
func attacks(legal []string, partnered func(string) bool) []string {
	var out []string
	single := map[string]bool{} // defenders of one-defender Shocks
	used := map[string]bool{}   // defenders no other declaration may name
	path := map[string]bool{}
	attacker := map[string]bool{}
	for _, pass := range []string{"CHARGE ", "SHOCK ", "partnered"} {
		for _, l := range legal {
			prefix := pass
			if pass == "partnered" {
				prefix = "SHOCK "
			}
			if !strings.HasPrefix(l, prefix) {
				continue
			}
			head, after, _ := strings.Cut(l, " AT ")
			units := strings.Fields(head)[1:]
			alone := prefix == "SHOCK " && !slices.ContainsFunc(units, func(u string) bool { return !partnered(u) })
			if alone != (pass == "partnered") {
				continue
			}
			f := strings.Fields(after)
			defenders := f
			if prefix == "CHARGE " {
				defenders = f[:1]
			}
			ok := !alone || len(defenders) == 1 && single[defenders[0]]
			for _, u := range units {
				ok = ok && !attacker[u]
			}
			for _, d := range defenders {
				ok = ok && !used[d] && !(single[d] && (prefix == "CHARGE " || len(defenders) > 1))
			}
			if prefix == "CHARGE " {
				for _, h := range f[1:] {
					ok = ok && !path[h]
				}
			}
			if !ok {
				continue
			}
			out = append(out, l)
			for _, u := range units {
				attacker[u] = true
			}
			if prefix == "CHARGE " {
				for _, h := range f[1:] {
					path[h] = true
				}
			}
			for _, d := range defenders {
				if prefix == "SHOCK " && len(defenders) == 1 {
					single[d] = true
				} else {
					used[d] = true
				}
			}
		}
	}
	return out
}

// advance is a MOVE of a unit to the hex of its reach list nearest the
// enemy, whatever it costs, when that is nearer than where it stands; the
// path is rebuilt from the list (each hex entered from a listed one that
// costs less, or from the unit's own hex) and the unit faces the nearest
// enemy at its end. Hexes taken by the block's other moves are avoided.
func (v *battleView) advance(g *hex.Grid, r reachable, enemies []hex.Hex, taken map[hex.Hex]bool) string {
	if len(enemies) == 0 {
		return ""
	}
	start, ok := v.at[r.unit]
	if !ok {
		return v.enter(g, r, enemies, taken)
	}
	for h, c := range r.cost {
		if c == 1 && g.Distance(start, h) != 1 {
			return "" // the player has lost track of this unit
		}
	}
	now, _ := nearest(g, start, enemies)
	type option struct {
		to   hex.Hex
		dist int
	}
	var options []option
	for _, h := range r.order {
		if d, _ := nearest(g, h, enemies); d < now && !taken[h] {
			options = append(options, option{h, d})
		}
	}
	slices.SortStableFunc(options, func(a, b option) int { return a.dist - b.dist })
	for _, o := range options {
		p := v.path(g, r, start, o.to, enemies, taken)
		if p == nil {
			continue
		}
		taken[o.to] = true
		ids := make([]string, len(p))
		for i, h := range p {
			ids[i] = h.String()
		}
		_, foe := nearest(g, o.to, enemies)
		return "MOVE " + r.unit + " " + strings.Join(ids, " ") + " FACE " + g.FacingToward(o.to, foe).String()
	}
	return ""
}

// enter brings a reinforcement on (5.3): a unit the player does not see
// on the map enters at the cheapest hex of its reach list, the one
// nearest the enemy among those, and faces the enemy; it moves on in a
// later Activation.
func (v *battleView) enter(g *hex.Grid, r reachable, enemies []hex.Hex, taken map[hex.Hex]bool) string {
	best, bestCost, bestDist := hex.Hex{}, -1, 0
	for _, h := range r.order {
		c, d := r.cost[h], 0
		d, _ = nearest(g, h, enemies)
		if taken[h] || bestCost >= 0 && (c > bestCost || c == bestCost && d >= bestDist) {
			continue
		}
		best, bestCost, bestDist = h, c, d
	}
	if bestCost < 0 {
		return ""
	}
	taken[best] = true
	_, foe := nearest(g, best, enemies)
	return "MOVE " + r.unit + " " + best.String() + " FACE " + g.FacingToward(best, foe).String()
}

// path rebuilds a path from start to to out of the reach list: backwards,
// each hex entered from the neighbour that costs most of those that cost
// less (one step of 1 MP when the ground allows), never through a hex
// next to the enemy (a move stops there) nor one another unit takes.
func (v *battleView) path(g *hex.Grid, r reachable, start, to hex.Hex, enemies []hex.Hex, taken map[hex.Hex]bool) []hex.Hex {
	p := []hex.Hex{to}
	cur := to
	for {
		if g.Distance(start, cur) == 1 && r.cost[cur] <= 2 {
			break
		}
		best, bestCost := hex.Hex{}, -1
		for _, n := range g.Neighbors(cur) {
			c, ok := r.cost[n]
			if !ok || c >= r.cost[cur] || c <= bestCost || taken[n] {
				continue
			}
			if d, _ := nearest(g, n, enemies); d <= 1 {
				continue
			}
			best, bestCost = n, c
		}
		if bestCost < 0 {
			if g.Distance(start, cur) == 1 {
				break
			}
			return nil
		}
		p = append(p, best)
		cur = best
	}
	slices.Reverse(p)
	return p
}

func hasPrefix(lines []string, prefixes ...string) bool {
	for _, l := range lines {
		for _, p := range prefixes {
			if strings.HasPrefix(l, p) {
				return true
			}
		}
	}
	return false
}

// refusalReason is the reason a refusal mail gives ("SHOCK DV2 AT YL4:
// DV2 (Levy Infantry) may Shock attack only in conjunction with another
// unit"), on one line with a space after it; "" for any other mail.
func refusalReason(text string) string {
	_, why, ok := strings.Cut(text, "Herald did not carry out your orders")
	if !ok {
		return ""
	}
	why, _, _ = strings.Cut(why, "You may send:")
	return strings.Join(strings.Fields(why), " ") + " "
}

// withoutRefused leaves out of orders those that refusals' reasons name;
// END stays. Nothing but END left is nil, the simple way instead.
func withoutRefused(orders []string, why string) []string {
	if why == "" || orders == nil {
		return orders
	}
	out := notNamed(orders, why)
	if len(out) == 1 && out[0] == "END" && len(orders) > 1 {
		return nil // nothing left but END: the simple way
	}
	return out
}

// notNamed are the orders the reasons why do not name, and END.
func notNamed(orders []string, why string) []string {
	var out []string
	for _, o := range orders {
		if o == "END" || !strings.Contains(why, o+" ") && !strings.Contains(why, o+":") {
			out = append(out, o)
		}
	}
	return out
}
