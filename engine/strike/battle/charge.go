package battle

import (
	"fmt"
	"math"

	"herald/engine/strike"
	"herald/engine/strike/table"
)

// chargePlan is a legal charge worked out before any die: the facing the
// charger turns to in its first move, the straight distance to contact,
// and the face of the target it strikes.
type chargePlan struct {
	facing float64
	inches float64 // from the turned position to contact
	aspect table.Aspect
	reach  float64
	dist   float64 // closest points at the declaration
}

// face is the centre of a face of f and its outward normal.
func face(f table.Unit, a table.Aspect) (centre, normal table.Vec, length float64) {
	w, d := f.Frontage(), f.Depth()
	switch a {
	case table.Rear:
		return f.World(table.Vec{Y: -d}), f.Forward().Scale(-1), w
	case table.LeftFlank:
		return f.World(table.Vec{X: -w / 2, Y: -d / 2}), f.Right().Scale(-1), d
	case table.RightFlank:
		return f.World(table.Vec{X: w / 2, Y: -d / 2}), f.Right(), d
	}
	return f.Pos, f.Forward(), w
}

// contactAlong is the least distance, up to most, that footprint f moves
// forward before it touches target; ok false if it does not within most.
func contactAlong(f table.Unit, target table.Polygon, most float64) (float64, bool) {
	at := func(d float64) bool {
		g := f
		g.Pos = g.Pos.Add(g.Forward().Scale(d))
		return table.Intersects(g.Outline(), target)
	}
	if at(0) {
		return 0, true
	}
	prev := 0.0
	for d := 0.25; ; d += 0.25 {
		d = math.Min(d, most)
		if at(d) {
			lo, hi := prev, d
			for k := 0; k < 50; k++ {
				m := (lo + hi) / 2
				if at(m) {
					hi = m
				} else {
					lo = m
				}
			}
			return hi, true
		}
		if d >= most {
			return 0, false
		}
		prev = d
	}
}

// planCharge checks a charge of i at j against the fragment (1. DECLARE
// CHARGES: "be able to see the target, and contact it with a charge move
// (3 normal moves)"; CHARGE RESTRICTIONS; CHARGE MOVEMENT and BONUS's 3"
// rule) and the table (R544).
func (p *play) planCharge(o Order, i, j int) (chargePlan, *Refusal) {
	sp := p.spec(i)
	u, t := p.unit(i), p.unit(j)
	switch {
	case !t.On():
		return chargePlan{}, refuse(o, RuleCharge, "%s is no longer on the table", p.id(j))
	case u.Moved > 0 || u.Charged > 0:
		return chargePlan{}, refuse(o, RuleCharge, "%s has already moved this block; a charge is its maneuver for the block", sp.ID)
	case len(p.inContact(i)) > 0:
		return chargePlan{}, refuse(o, RuleCharge, "%s is already in contact with %s", sp.ID, p.id(p.inContact(i)[0]))
	case len(p.inContact(j)) > 0:
		return chargePlan{}, refuse(o, RuleCharge, "%s is already in contact with %s (R545)", p.id(j), p.id(p.inContact(j)[0]))
	}
	f0, tf := p.fp(i), p.fp(j)
	pl := chargePlan{reach: strike.ChargeDistance(sp.Type), dist: table.UnitDistance(f0, tf)}
	pl.aspect = table.AspectOf(tf, f0.Pos)
	aim, _, _ := face(tf, pl.aspect)
	if table.AspectOf(f0, aim) != table.Front {
		return pl, refuse(o, RuleCharge, "%s cannot see %s: the %s of %s is not ahead of its front (R544)", sp.ID, p.id(j), pl.aspect, p.id(j))
	}
	if pl.dist > pl.reach+table.Eps {
		return pl, refuse(o, RuleCharge, "%s is %s\" away; %s's charge move (3 moves) reaches %s\"", p.id(j), inch(pl.dist), sp.ID, inch(pl.reach))
	}
	err := strike.MayCharge(p.st.Core(p.b, i), strike.ChargeTarget{Unit: p.st.Core(p.b, j), InOpen: p.b.Table.AllOpen(tf.Outline()), Aspect: pl.aspect, Inches: pl.dist})
	if err != nil {
		return pl, refuse(o, RuleRestrictions, "%v", err)
	}
	// Turn to face the aimed face's centre, then run straight at it.
	pl.facing = bearing(f0.Pos, aim)
	turned := f0
	turned.Facing = pl.facing
	if what := p.blocked(i, turned, turned.Outline(), j); what != "" {
		return pl, refuse(o, RuleCharge, "%s cannot turn towards %s: %s is in the way", sp.ID, p.id(j), what)
	}
	d, ok := contactAlong(turned, tf.Outline(), pl.reach)
	if !ok {
		return pl, refuse(o, RuleCharge, "%s cannot reach %s with its charge move of %s\"", sp.ID, p.id(j), inch(pl.reach))
	}
	pl.inches = d
	end := turned
	end.Pos = end.Pos.Add(end.Forward().Scale(d))
	if what := p.blocked(i, end, swept(turned, end), j); what != "" {
		return pl, refuse(o, RuleCharge, "%s's charge at %s runs into %s", sp.ID, p.id(j), what)
	}
	final := p.matchUp(i, j, end, pl.aspect)
	for k := range p.st.Units {
		v := p.unit(k)
		if k == j || !v.On() || v.Side == u.Side {
			continue
		}
		kf := p.fp(k).Outline()
		c := p.b.Tables.Movement.ChargeClearance
		if table.Distance(final.Outline(), kf) < c-table.Eps && table.Distance(kf, tf.Outline()) > c+table.Eps {
			return pl, refuse(o, RuleChargeMove, "%s's charge would end within %g\" of %s, which it is not charging and which is not alongside %s", sp.ID, c, p.id(k), p.id(j))
		}
	}
	return pl, nil
}

// matchUp places a charger that touched its target flush against the
// face it struck (4. MATCH UP: "the sides of each of these two stands
// match up evenly"), centred where it struck, within the face; if that
// place is taken it stays where it touched (R544).
func (p *play) matchUp(i, j int, at table.Unit, a table.Aspect) table.Unit {
	tf := p.fp(j)
	centre, normal, length := face(tf, a)
	along := table.Vec{X: normal.Y, Y: -normal.X}
	s := at.Pos.Sub(centre).Dot(along)
	half := length / 2
	s = math.Max(-half, math.Min(half, s))
	f := at
	f.Facing = bearing(table.Vec{}, normal.Scale(-1))
	for _, off := range []float64{s, 0} {
		f.Pos = centre.Add(along.Scale(off))
		if p.blocked(i, f, f.Outline(), j) == "" {
			return f
		}
	}
	return at
}

// Charges lists the CHARGE lines legal for unit i now.
func Charges(b *Battle, st *State, i int) []string {
	p := &play{b: b, st: st, side: st.Units[i].Side}
	var out []string
	for j := range st.Units {
		if st.Units[j].Side == st.Units[i].Side || !st.Units[j].On() {
			continue
		}
		if _, r := p.planCharge(Order{}, i, j); r == nil {
			out = append(out, fmt.Sprintf("CHARGE %s AT %s", b.Units[i].ID, b.Units[j].ID))
		}
	}
	return out
}

// charge carries out a CHARGE: declare and advance one move, the
// reactions (supporting fire first, then the target's), the advance to
// contact or a failed charge, the match up; the melee follows after the
// block's shooting (R542).
func (p *play) charge(o Order) (*Refusal, error) {
	i, j := o.Unit, o.Target
	if r := p.ready(o, i); r != nil {
		return r, nil
	}
	pl, r := p.planCharge(o, i, j)
	if r != nil {
		r.Legal = Charges(p.b, p.st, i)
		return r, nil
	}
	sp, tsp, tb := p.spec(i), p.spec(j), p.b.Tables
	p.emit(EvCharge, &ChargeEvent{Unit: sp.ID, Target: tsp.ID, Aspect: pl.aspect.String(), Inches: pl.dist, Reach: pl.reach})
	// 1. ADVANCE 1 MOVE
	f0 := p.fp(i)
	first := math.Min(sp.Type.Move, pl.inches)
	turned := f0
	turned.Facing = pl.facing
	f1 := turned
	f1.Pos = f1.Pos.Add(f1.Forward().Scale(first))
	contactFirst := first >= pl.inches-table.Eps
	if contactFirst {
		f1 = p.matchUp(i, j, f1, pl.aspect)
	}
	p.emit(EvMoved, &MovedEvent{Unit: sp.ID, Order: MoveCharge, Inches: first, Path: []table.Vec{f0.Pos, f1.Pos}, Pos: f1.Pos, Facing: f1.Facing, Target: tsp.ID})
	halted := func() bool { return !p.unit(i).On() || p.unit(i).Disordered && p.lastMoraleFailed(i) }
	// SUPPORTING UNIT REACTIONS, Knights: "Those who find a charger (who
	// has not contacted a target) in their forward move zone and within 2
	// moves MUST counter-charge in support. In this situation a new
	// charge would result and halt the one that triggered it" (R557).
	if !contactFirst {
		if k, ok := p.supportingKnights(i, j); ok {
			if err := p.counterInSupport(k, i, j); err != nil {
				return nil, err
			}
			return nil, nil
		}
	}
	// 2. REACTION TO A CHARGE: supporting units first ("Those not being
	// charged and able to shoot a charger ... MUST do so ... as if at
	// distant range").
	for k := range p.st.Units {
		v := p.unit(k)
		if k == j || !v.On() || v.Side == p.unit(i).Side || len(p.inContact(k)) > 0 {
			continue
		}
		re, _, err := strike.ReactTo(tb, p.st.Core(p.b, k), strike.ChargeSituation{Role: strike.Supporting})
		if err != nil {
			return nil, err
		}
		if re != strike.ShootAtCharger {
			continue
		}
		w := tb.WeaponOf(p.spec(k).Type)
		longest := math.Max(w.Effective, w.Distant)
		var shots []strike.Shot
		for _, s := range strike.ChargeFire(tb, p.st.Core(p.b, k), p.fp(k), p.st.Core(p.b, i), p.fp(i), strike.Distant) {
			if s.Distance <= longest+table.Eps && s.Stand.Rank*v.Files+s.Stand.File < v.Stands {
				shots = append(shots, s)
			}
		}
		if len(shots) == 0 {
			continue
		}
		p.emit(EvReaction, &ReactionEvent{Unit: p.id(k), Charger: sp.ID, Reaction: string(strike.ShootAtCharger), Why: "a supporting unit able to shoot the charger must"})
		if err := p.fire(k, i, shots, "supporting fire"); err != nil {
			return nil, err
		}
		if halted() {
			p.emit(EvFailed, &FailedEvent{Unit: sp.ID, Target: tsp.ID, Why: "the charger halted under fire (3. ADVANCE CHARGING UNIT TO CONTACT)"})
			return nil, nil
		}
	}
	// The target's reaction.
	tf := p.fp(j)
	ct := sp.Type
	sit := strike.ChargeSituation{Role: strike.Target, ContactedFirstMove: contactFirst, ChargerFormedOrLight: !ct.Skirmisher,
		ChargerIsFormedCavalry: ct.Mounted && ct.Formed, InOpen: p.b.Table.AllOpen(tf.Outline())}
	re, destroyed, err := strike.ReactTo(tb, p.st.Core(p.b, j), sit)
	if err != nil {
		return nil, err
	}
	why := ""
	if pl.aspect.IsFlankOrRear() && !destroyed && re != strike.Stand {
		re, why = strike.Stand, fmt.Sprintf("charged in its %s it may make no reaction but to face (REAR and FLANK ATTACKS)", pl.aspect)
	}
	if destroyed {
		p.emit(EvReaction, &ReactionEvent{Unit: tsp.ID, Charger: sp.ID, Reaction: "destroyed", Why: "contacted in the charger's first move (2. REACTION TO A CHARGE)"})
		p.emit(EvRemoved, &RemovedEvent{Unit: tsp.ID, Gone: "destroyed", Why: "contacted at the reaction point by " + sp.ID})
		return nil, nil
	}
	p.emit(EvReaction, &ReactionEvent{Unit: tsp.ID, Charger: sp.ID, Reaction: string(re), Why: why})
	counter := false
	switch re {
	case strike.StandAndFire, strike.FireAndRetire:
		band := strike.Effective
		if re == strike.StandAndFire && (contactFirst || p.b.Table.TerrainAt(table.Centre(tf.Outline())) == table.Obstacle) {
			band = strike.Distant
		}
		var shots []strike.Shot
		for _, s := range strike.ChargeFire(tb, p.st.Core(p.b, j), tf, p.st.Core(p.b, i), p.fp(i), band) {
			if s.Stand.Rank*p.unit(j).Files+s.Stand.File < p.unit(j).Stands {
				shots = append(shots, s)
			}
		}
		if len(shots) > 0 {
			kind := "stand and fire"
			if re == strike.FireAndRetire {
				kind = "fire and retire"
			}
			if err := p.fire(j, i, shots, kind); err != nil {
				return nil, err
			}
		}
		if halted() {
			p.emit(EvFailed, &FailedEvent{Unit: sp.ID, Target: tsp.ID, Why: "the charger halted under fire (3. ADVANCE CHARGING UNIT TO CONTACT)"})
			return nil, nil
		}
		if re == strike.FireAndRetire && !contactFirst {
			dir := table.Centre(tf.Outline()).Sub(table.Centre(p.fp(i).Outline()))
			if l := dir.Len(); l > 0 {
				p.slide(j, dir.Scale(1/l), tsp.Type.Move, MoveRetire)
			}
		}
	case strike.CounterCharge, strike.CounterChargeHalf:
		if !contactFirst {
			gap := table.UnitDistance(p.fp(i), tf)
			free := p.freeAlong(j, tf.Forward(), gap/2, -1)
			if free > 0 {
				f := p.straight(j, tf.Forward(), free)
				p.emit(EvMoved, &MovedEvent{Unit: tsp.ID, Order: MoveCounter, Inches: free, Path: []table.Vec{tf.Pos, f.Pos}, Pos: f.Pos, Facing: f.Facing, Target: sp.ID})
			}
			counter = true
		}
	}
	// 3. ADVANCE CHARGING UNIT TO CONTACT
	if !contactFirst {
		cur := p.fp(i)
		tf = p.fp(j)
		aspect := table.AspectOf(tf, cur.Pos)
		d, ok := contactAlong(cur, tf.Outline(), pl.reach-first)
		var end table.Unit
		if ok {
			end = cur
			end.Pos = end.Pos.Add(end.Forward().Scale(d))
			if what := p.blocked(i, end, swept(cur, end), j); what != "" {
				ok, why = false, fmt.Sprintf("its way to %s is blocked by %s", tsp.ID, what)
			}
		} else {
			why = fmt.Sprintf("%s is out of its reach (FAILED CHARGES)", tsp.ID)
		}
		if !ok {
			p.emit(EvFailed, &FailedEvent{Unit: sp.ID, Target: tsp.ID, Why: why})
			return nil, nil
		}
		end = p.matchUp(i, j, end, aspect)
		p.emit(EvMoved, &MovedEvent{Unit: sp.ID, Order: MoveCharge, Inches: d, Path: []table.Vec{cur.Pos, end.Pos}, Pos: end.Pos, Facing: end.Facing, Target: tsp.ID})
		pl.aspect = aspect
	}
	// Contact.
	tc, cc := p.st.Core(p.b, j), p.st.Core(p.b, i)
	inOpen := p.b.Table.AllOpen(p.fp(j).Outline())
	if strike.SkirmishersContacted(tc, cc, inOpen) {
		p.emit(EvRemoved, &RemovedEvent{Unit: tsp.ID, Gone: "destroyed", Why: "skirmishers contacted by formed troops in the open (SKIRMISHERS)"})
		return nil, nil
	}
	if w := tb.WeaponOf(tsp.Type); w != nil && w.DestroyedContact {
		p.emit(EvRemoved, &RemovedEvent{Unit: tsp.ID, Gone: "destroyed", Why: "artillery contacted (MISSILES)"})
		return nil, nil
	}
	if pl.aspect.IsFlankOrRear() {
		strike.FlankOrRearContact(tc)
		p.emit(EvStatus, &StatusEvent{Unit: tsp.ID, Why: fmt.Sprintf("attacked in its %s: disordered at the moment of contact (REAR and FLANK ATTACKS)", pl.aspect), After: statusOf(tc)})
	}
	p.melees = append(p.melees, pendingMelee{att: i, def: j, counter: counter})
	return nil, nil
}

// lastMoraleFailed reports whether the last morale check of unit i in
// this block failed: a charger shot at that fails halts (3. ADVANCE
// CHARGING UNIT TO CONTACT: "If shot at there is a chance the charger
// will halt (see Morale)").
func (p *play) lastMoraleFailed(i int) bool {
	for k := len(p.events) - 1; k >= 0; k-- {
		if m, ok := p.events[k].Data.(*MoraleEvent); ok && m.Unit == p.id(i) {
			return m.Outcome != string(strike.Pass)
		}
		if _, ok := p.events[k].Data.(*ChargeEvent); ok {
			return false
		}
	}
	return false
}

// supportingKnights finds the first enemy unit of the charger i (in the
// battle's order, R557) that must counter-charge it in support: not its
// target, not in contact, its table row a counter-charge, the charger
// ahead of its front and within 2 of its moves, and a charge at the
// charger legal for it.
func (p *play) supportingKnights(i, j int) (int, bool) {
	cf := p.fp(i)
	for k := range p.st.Units {
		v := p.unit(k)
		if k == j || !v.On() || v.Side == p.unit(i).Side || len(p.inContact(k)) > 0 {
			continue
		}
		kf := p.fp(k)
		reach := table.AspectOf(kf, table.Centre(cf.Outline())) == table.Front &&
			table.UnitDistance(kf, cf) <= 2*p.spec(k).Type.Move+table.Eps
		re, _, err := strike.ReactTo(p.b.Tables, p.st.Core(p.b, k), strike.ChargeSituation{Role: strike.Supporting, ChargerInReach: reach})
		if err != nil || re != strike.CounterCharge {
			continue
		}
		if _, r := p.planCharge(Order{}, k, i); r == nil {
			return k, true
		}
	}
	return -1, false
}

// counterInSupport carries out a supporting counter-charge of k at the
// charger i: k turns to face and goes straight to contact and matches up;
// the charge of i at j halts; the melee of k (the new charger and a
// counter-charger, ties going to it) and i follows after the block's
// shooting (R557).
func (p *play) counterInSupport(k, i, j int) error {
	pl, r := p.planCharge(Order{}, k, i)
	if r != nil {
		return fmt.Errorf("strike: a supporting counter-charge found legal is not: %s", r.Reason)
	}
	p.emit(EvReaction, &ReactionEvent{Unit: p.id(k), Charger: p.id(i), Reaction: string(strike.CounterCharge),
		Why: "knights finding a charger ahead of them within 2 moves must counter-charge in support"})
	f0 := p.fp(k)
	end := f0
	end.Facing = pl.facing
	end.Pos = end.Pos.Add(end.Forward().Scale(pl.inches))
	end = p.matchUp(k, i, end, pl.aspect)
	p.emit(EvMoved, &MovedEvent{Unit: p.id(k), Order: MoveCounter, Inches: pl.inches, Path: []table.Vec{f0.Pos, end.Pos}, Pos: end.Pos, Facing: end.Facing, Target: p.id(i)})
	p.emit(EvFailed, &FailedEvent{Unit: p.id(i), Target: p.id(j), Why: fmt.Sprintf("halted by %s's counter-charge in support", p.id(k))})
	if pl.aspect.IsFlankOrRear() {
		ic := p.st.Core(p.b, i)
		strike.FlankOrRearContact(ic)
		p.emit(EvStatus, &StatusEvent{Unit: p.id(i), Why: fmt.Sprintf("attacked in its %s: disordered at the moment of contact (REAR and FLANK ATTACKS)", pl.aspect), After: statusOf(ic)})
	}
	p.melees = append(p.melees, pendingMelee{att: k, def: i, attCounter: true})
	return nil
}
