package battle

import (
	"fmt"
	"math"

	"herald/engine/strike"
	"herald/engine/strike/table"
)

// ---- shooting

// shots lists the stands of unit i eligible to shoot at unit t (STANDS
// ELIGIBLE TO SHOOT, ARC OF FIRE): the core's Eligible, less stands the
// unit has lost (R548).
func (p *play) shots(i, t int) []strike.Shot {
	sc, tc := p.st.Core(p.b, i), p.st.Core(p.b, t)
	var out []strike.Shot
	for _, s := range strike.Eligible(p.b.Tables, sc, p.fp(i), tc, p.fp(t)) {
		if s.Stand.Rank*p.unit(i).Files+s.Stand.File < p.unit(i).Stands {
			out = append(out, s)
		}
	}
	return out
}

// targets are the SHOOT lines unit i could give now.
func (p *play) targets(i int) []string {
	var out []string
	for t := range p.st.Units {
		if p.shootable(i, t) == "" {
			if n := len(p.shots(i, t)); n > 0 {
				out = append(out, fmt.Sprintf("SHOOT %s AT %s", p.id(i), p.id(t)))
			}
		}
	}
	return out
}

// shootable says why unit i may not shoot at t at all, or "".
func (p *play) shootable(i, t int) string {
	v := p.unit(t)
	switch {
	case v.Side == p.unit(i).Side:
		return fmt.Sprintf("%s is a friend", p.id(t))
	case !v.On():
		return fmt.Sprintf("%s is no longer on the table", p.id(t))
	case len(p.inContact(t)) > 0:
		return fmt.Sprintf("%s is in contact with %s: units in melee are not shot at (R545)", p.id(t), p.id(p.inContact(t)[0]))
	}
	return ""
}

// shoot carries out a SHOOT order (SHOOTING PROCEDURE, SPLITTING FIRE):
// the unit assigns its eligible stands to its targets, each stand once;
// a missile target that can answer shoots back in a Duel (NOTES: "MUST
// shoot back if able"; RATE OF FIRE).
func (p *play) shoot(o Order) (*Refusal, error) {
	i := o.Unit
	if r := p.ready(o, i); r != nil {
		return r, nil
	}
	u, sp, tb := p.unit(i), p.spec(i), p.b.Tables
	switch {
	case tb.WeaponOf(sp.Type) == nil:
		return refuse(o, RuleEligible, "%s (%s) has no missile weapon", sp.ID, sp.Type.Name), nil
	case u.Fired:
		return refuse(o, RuleSequence, "%s has already shot this block", sp.ID), nil
	case u.Charged > 0:
		return refuse(o, RuleSequence, "%s charged this block and does not shoot (R545)", sp.ID), nil
	case len(p.inContact(i)) > 0:
		return refuse(o, RuleSequence, "%s is in contact with %s and does not shoot (R545)", sp.ID, p.id(p.inContact(i)[0])), nil
	}
	type plan struct {
		t     int
		shots []strike.Shot
	}
	var plans []plan
	used := map[table.Stand]bool{}
	for _, f := range o.Fire {
		if why := p.shootable(i, f.Target); why != "" {
			r := refuse(o, RuleEligible, "%s may not shoot at %s", sp.ID, why)
			r.Legal = p.targets(i)
			return r, nil
		}
		var free []strike.Shot
		all := p.shots(i, f.Target)
		if len(all) > 0 && len(used) > 0 && f.Stands > 0 {
			n := 0
			for _, s := range all {
				if !used[s.Stand] {
					n++
				}
			}
			if n < f.Stands {
				r := refuse(o, RuleSplit, "%d stands of %s may shoot at %s, %d of them given to other targets; %d are left for it, not %d", len(all), sp.ID, p.id(f.Target), len(all)-n, n, f.Stands)
				r.Legal = p.targets(i)
				return r, nil
			}
		}
		for _, s := range all {
			if !used[s.Stand] {
				free = append(free, s)
			}
		}
		n := f.Stands
		if n == 0 {
			n = len(free)
		}
		if len(free) == 0 {
			r := refuse(o, RuleEligible, "no stand of %s has %s within its arc and range", sp.ID, p.id(f.Target))
			r.Legal = p.targets(i)
			if len(r.Legal) == 0 {
				r.Reason += "; it has no target now"
			}
			return r, nil
		}
		if n > len(free) {
			r := refuse(o, RuleSplit, "only %d stands of %s may shoot at %s, not %d", len(free), sp.ID, p.id(f.Target), n)
			r.Legal = p.targets(i)
			return r, nil
		}
		for _, s := range free[:n] {
			used[s.Stand] = true
		}
		plans = append(plans, plan{f.Target, free[:n]})
	}
	for _, pl := range plans {
		if !p.unit(i).On() {
			break
		}
		if !p.unit(pl.t).On() {
			continue
		}
		// Stands lost to an earlier target's return fire do not shoot
		// (R548).
		var shots []strike.Shot
		for _, s := range pl.shots {
			if s.Stand.Rank*p.unit(i).Files+s.Stand.File < p.unit(i).Stands {
				shots = append(shots, s)
			}
		}
		if len(shots) == 0 {
			continue
		}
		if err := p.fire(i, pl.t, shots, ""); err != nil {
			return nil, err
		}
	}
	return nil, nil
}

// fire resolves unit i's shots at t: a Duel if t must shoot back, else
// Shoot; then the volleys' events, removals and morale checks. kind is
// the VolleyEvent's Fire.
func (p *play) fire(i, t int, shots []strike.Shot, kind string) error {
	tb := p.b.Tables
	sc, tc := p.st.Core(p.b, i), p.st.Core(p.b, t)
	ifp, tfp := p.fp(i), p.fp(t)
	fa := strike.Fire{Unit: sc, Shots: shots, FoeHigherOrObstacle: p.b.Table.FoeHigherOrObstacle(ifp.Outline(), tfp.Outline())}
	var vols []strike.Volley
	var err error
	ret := []strike.Shot(nil)
	if kind == "" {
		ret = p.shots(t, i)
	}
	if kind == "" && strike.MustShootBack(tb, tc, ret) {
		fb := strike.Fire{Unit: tc, Shots: ret, FoeHigherOrObstacle: p.b.Table.FoeHigherOrObstacle(tfp.Outline(), ifp.Outline())}
		vols, err = strike.Duel(tb, p.d, fa, fb)
	} else {
		var v strike.Volley
		v, err = strike.Shoot(tb, p.d, fa, tc)
		vols = []strike.Volley{v}
	}
	if err != nil {
		return err
	}
	for _, v := range vols {
		shooter, hit, hc, fk := i, t, tc, kind
		if v.Shooter == tc.Name {
			shooter, hit, hc, fk = t, i, sc, "return fire"
		}
		ev := &VolleyEvent{Shooter: p.id(shooter), Target: p.id(hit), Fire: fk, Strikes: v.Strikes, Result: v.Result.String(),
			StandsLost: v.StandsLost, After: statusOf(hc)}
		for _, r := range v.Rolls {
			ev.Rolls = append(ev.Rolls, RollRec{Who: r.Who, CV: r.CV, Roll: r.Value, Strikes: r.Strikes})
		}
		p.emit(EvVolley, ev)
		for _, c := range v.Checks {
			p.emit(EvCheck, &CheckEvent{Unit: p.id(hit), Name: c.Who, Why: "under fire", Need: c.Need, Roll: c.Roll, Unharmed: c.Unharmed, Killed: c.Killed})
		}
	}
	for _, v := range vols {
		hit := t
		if v.Shooter == tc.Name {
			hit = i
		}
		if err := p.afterHit(hit, v.StandsLost, v.MoraleCheck, "shot at by "+v.Shooter); err != nil {
			return err
		}
	}
	return nil
}

// afterHit removes a unit with no stands left or makes its automatic
// morale check (RESULTS: "M: Automatic Morale Check required").
func (p *play) afterHit(j, lost int, morale bool, why string) error {
	u := p.unit(j)
	if u.Gone != "" && u.Stands <= 0 {
		p.emit(EvRemoved, &RemovedEvent{Unit: p.id(j), Gone: "destroyed", Why: "its last stand lost, " + why})
		return nil
	}
	if !morale || !u.On() {
		return nil
	}
	_, err := p.morale(j, strike.MoraleFacts{StandsLost: lost}, why)
	return err
}

// morale makes a unit's morale check (house, R526) and carries out its
// result: a broken unit routs off the table (R546); one that falls back
// moves back its fall-back distance, facing as it was.
func (p *play) morale(j int, f strike.MoraleFacts, why string) (strike.Morale, error) {
	c := p.st.Core(p.b, j)
	f.Personality = c.Personality != nil
	m, roll, err := strike.MoraleCheck(p.b.Tables, p.d, c, f)
	if err != nil {
		return "", err
	}
	p.emit(EvMorale, &MoraleEvent{Unit: p.id(j), Why: why, Roll: roll, Outcome: string(m)})
	switch m {
	case strike.Break:
		p.emit(EvRemoved, &RemovedEvent{Unit: p.id(j), Gone: "routed", Why: "it broke (R546)"})
	case strike.FallBack:
		dist := p.b.Tables.Morale.FallBackMoves * p.spec(j).Type.Move
		p.slide(j, p.fp(j).Forward().Scale(-1), dist, MoveFallBack)
	}
	return m, nil
}

// slide moves unit j up to dist along dir, facing kept, stopping short of
// whatever is in the way (a retreat or fall back blocked stops, R547).
func (p *play) slide(j int, dir table.Vec, dist float64, order string) {
	free := p.freeAlong(j, dir, dist, -1)
	if free <= 0 {
		return
	}
	f0 := p.fp(j)
	f := p.straight(j, dir, free)
	p.emit(EvMoved, &MovedEvent{Unit: p.id(j), Order: order, Inches: free, Path: []table.Vec{f0.Pos, f.Pos}, Pos: f.Pos, Facing: f.Facing})
}

// ---- melee

func (p *play) openOrSlope(f table.Unit) bool {
	for _, a := range p.b.Table.Areas {
		if a.Terrain != table.Open && a.Terrain != table.GentleSlope && table.Meets(f.Outline(), a.Shape) {
			return false
		}
	}
	return true
}

// melee resolves a charge's melee (5. MELEE RESOLUTION to C. CAPTURING A
// PERSONALITY OR BANNER).
func (p *play) melee(m pendingMelee) error {
	a, d, tb := m.att, m.def, p.b.Tables
	if !p.unit(a).On() || !p.unit(d).On() {
		return nil
	}
	afp, dfp := p.fp(a), p.fp(d)
	fa, fd, ok := strike.Engagement(afp, dfp)
	if !ok {
		p.emit(EvFailed, &FailedEvent{Unit: p.id(a), Target: p.id(d), Why: "no longer in contact: no melee"})
		return nil
	}
	ac, dc := p.st.Core(p.b, a), p.st.Core(p.b, d)
	aOpen, dOpen := p.b.Table.AllOpen(afp.Outline()), p.b.Table.AllOpen(dfp.Outline())
	woc := strike.WeaponOfChoice(ac, dc, p.openOrSlope(afp) && p.openOrSlope(dfp))
	du := p.unit(d)
	att := strike.MeleeSide{Unit: ac, Fighters: strike.Fighters(tb, ac, fa, false, aOpen), Charged: p.unit(a).Charged,
		Ranks: afp.Ranks, InOpen: aOpen, FoeHigherOrObstacle: p.b.Table.FoeHigherOrObstacle(afp.Outline(), dfp.Outline()), WeaponOfChoice: woc == 1,
		CounterCharger: m.attCounter}
	def := strike.MeleeSide{Unit: dc, Fighters: strike.Fighters(tb, dc, fd, du.Moved == 0 && du.Charged == 0, dOpen), Charged: du.Charged,
		Ranks: dfp.Ranks, InOpen: dOpen, FoeHigherOrObstacle: p.b.Table.FoeHigherOrObstacle(dfp.Outline(), afp.Outline()),
		WeaponOfChoice: woc == 2, CounterCharger: m.counter}
	res, err := strike.Melee(tb, p.d, att, def)
	if err != nil {
		return err
	}
	rec := func(k int, s strike.SideResult, c *strike.Unit, fighters int) MeleeSideRec {
		r := MeleeSideRec{Unit: p.id(k), CV: s.CV.String(), Fighters: fighters, Strikes: s.Strikes, Taken: s.Taken.String(), StandsLost: s.StandsLost, After: statusOf(c)}
		for _, x := range s.Rolls {
			r.Rolls = append(r.Rolls, RollRec{Who: x.Who, CV: x.CV, Roll: x.Value, Strikes: x.Strikes})
		}
		return r
	}
	p.emit(EvMelee, &MeleeEvent{Attacker: rec(a, res.Attacker, ac, att.Fighters), Defender: rec(d, res.Defender, dc, def.Fighters),
		Aspect: fd.Aspect.String(), AttackerLost: res.AttackerLost, Difference: res.Difference})
	wounded := map[int]bool{}
	for _, side := range []struct {
		k int
		s strike.SideResult
	}{{a, res.Attacker}, {d, res.Defender}} {
		for _, c := range side.s.Checks {
			p.emit(EvCheck, &CheckEvent{Unit: p.id(side.k), Name: c.Who, Why: "after the melee", Need: c.Need, Roll: c.Roll, Unharmed: c.Unharmed, Killed: c.Killed})
			wounded[side.k] = !c.Unharmed
		}
	}
	// 6. MELEE MORALE CHECKS, starting with the original loser.
	origLoser := d
	if res.AttackerLost {
		origLoser = a
	}
	order := []int{a, d}
	if origLoser == d {
		order = []int{d, a}
	}
	outcome := map[int]strike.Morale{a: strike.Pass, d: strike.Pass}
	sideRes := map[int]strike.SideResult{a: res.Attacker, d: res.Defender}
	for _, k := range order {
		u := p.unit(k)
		if u.Stands <= 0 {
			p.emit(EvRemoved, &RemovedEvent{Unit: p.id(k), Gone: "destroyed", Why: "its last stand lost in the melee"})
			outcome[k] = strike.Break
			continue
		}
		if !sideRes[k].MoraleCheck {
			continue
		}
		f := strike.MoraleFacts{StandsLost: sideRes[k].StandsLost}
		if k == origLoser {
			f.LostMelee, f.StrikeDiff = true, res.Difference
		}
		mo, err := p.morale(k, f, "the melee")
		if err != nil {
			return err
		}
		outcome[k] = mo
	}
	attLoses, retreat := strike.FinalMelee(res.AttackerLost, outcome[a], outcome[d])
	loser, winner := d, a
	if attLoses {
		loser, winner = a, d
	}
	if retreat && p.unit(loser).On() {
		// B. RETREAT AFTER MELEE: ½ move + 1" a strike, facing the enemy.
		dist := strike.RetreatInches(tb, p.st.Core(p.b, loser), res.Difference)
		dir := table.Centre(p.fp(loser).Outline()).Sub(table.Centre(p.fp(winner).Outline()))
		if l := dir.Len(); l > 0 {
			p.slide(loser, dir.Scale(1/l), dist, MoveRetreat)
		}
	}
	// C. CAPTURING A PERSONALITY: the opposing Warlord draws a card.
	for _, k := range []int{a, d} {
		ps := p.unit(k).Personality
		if ps == nil || ps.Lost() {
			continue
		}
		cp := &strike.Personality{Name: ps.Name, SR: ps.SR, Wounded: ps.Wounded}
		if !strike.MustDraw(cp, wounded[k], k == loser) {
			continue
		}
		why := "his unit lost the melee"
		if wounded[k] {
			why = "wounded in the melee"
		}
		card, fate, err := strike.Capture(p.d, cp, why)
		if err != nil {
			return err
		}
		p.emit(EvCapture, &CaptureEvent{Unit: p.id(k), Name: ps.Name, Card: card.String(), Fate: string(fate)})
	}
	return nil
}

// ---- the end of a block

// endBlock ends the side's block and applies the house victory condition
// (R540): a side loses when it has lost the battle's fraction of its
// stands or its Warlord is killed, captured or off the table with his
// unit; after the last turn, the side that lost the smaller share of its
// stands wins, equal shares draw.
func (p *play) endBlock() {
	next, turn := 1-p.side, p.st.Turn
	if p.side == 1 {
		turn++
	}
	p.emit(EvEnd, &EndEvent{Side: p.side, Turn: p.st.Turn, NextSide: next, NextTurn: turn})
	if w, why, over := Judge(p.b, p.st); over {
		p.emit(EvOver, &OverEvent{Winner: w, Result: why})
	}
}

// Judge applies the victory condition to a state at the end of a block.
func Judge(b *Battle, st *State) (winner int, result string, over bool) {
	var lose [2]string
	var share [2]float64
	for s := 0; s < 2; s++ {
		start := b.StartStands(s)
		share[s] = float64(start-st.Stands(s)) / float64(start)
		if st.Stands(s) <= b.BreaksAt(s) {
			lose[s] = fmt.Sprintf("the %s have lost %d of their %d stands", b.Sides[s], start-st.Stands(s), start)
		}
		if b.Victory.Warlord {
			for _, u := range st.Units {
				if u.Side == s && u.Personality != nil && u.Personality.Warlord {
					switch {
					case u.Personality.Killed:
						lose[s] = fmt.Sprintf("the Warlord of the %s, %s, is killed", b.Sides[s], u.Personality.Name)
					case u.Personality.Captured:
						lose[s] = fmt.Sprintf("the Warlord of the %s, %s, is captured", b.Sides[s], u.Personality.Name)
					case !u.On():
						lose[s] = fmt.Sprintf("the Warlord of the %s, %s, has left the field with his %s", b.Sides[s], u.Personality.Name, u.ID)
					}
				}
			}
		}
	}
	switch {
	case lose[0] != "" && lose[1] != "":
		return -1, "a draw: " + lose[0] + " and " + lose[1], true
	case lose[0] != "":
		return 1, fmt.Sprintf("the %s win: %s", b.Sides[1], lose[0]), true
	case lose[1] != "":
		return 0, fmt.Sprintf("the %s win: %s", b.Sides[0], lose[1]), true
	case st.Turn > b.Turns:
		pct := func(s int) string { return fmt.Sprintf("%.0f%%", math.Round(share[s]*100)) }
		switch {
		case share[0] < share[1]-1e-9:
			return 0, fmt.Sprintf("the %s win at the end of turn %d: they lost %s of their stands, the %s %s", b.Sides[0], b.Turns, pct(0), b.Sides[1], pct(1)), true
		case share[1] < share[0]-1e-9:
			return 1, fmt.Sprintf("the %s win at the end of turn %d: they lost %s of their stands, the %s %s", b.Sides[1], b.Turns, pct(1), b.Sides[0], pct(0)), true
		}
		return -1, fmt.Sprintf("a draw at the end of turn %d: each side lost %s of its stands", b.Turns, pct(0)), true
	}
	return -1, "", false
}
