package games

import (
	"reflect"
	"strings"

	"herald/engine"
	"herald/pbem/dice"
	"herald/templates"
)

// gameView is what every mail says about the game.
func (s *Service) gameView(g *game) templates.Game {
	if g.sc == nil {
		return s.systemView(g)
	}
	v := templates.Game{ID: g.rec.ID, Battle: battleName(g.sc), Move: g.rec.Move}
	for i := range v.Sides {
		side := engine.Side(i)
		v.Sides[i] = templates.SideInfo{
			Name:         g.sc.SideName(side),
			Player:       g.player(side),
			FlightPoints: engine.FlightPoints(g.sc, g.st, side),
			FlightLevel:  g.sc.Sides[i].FlightLevel,

			ByVictoryPoints: g.sc.Rules.VictoryPoints != nil,
			VictoryPoints:   engine.FlightPoints(g.sc, g.st, side.Other()),

			HasCounters: g.sc.Sides[i].SeizureCounters > 0,
			Counters:    len(engine.Unplayed(g.st, side)),
		}
	}
	return v
}

// sideView is gameView for a mail to one side: with his own hand of
// Seizure counters, which no other mail shows.
func (s *Service) sideView(g *game, side engine.Side) templates.Game {
	v := s.gameView(g)
	if g.sc == nil {
		return v
	}
	for _, c := range engine.Unplayed(g.st, side) {
		if c.ID != "" {
			v.Hand = append(v.Hand, c.Label())
		}
	}
	return v
}

// battleName is the battle as players call it: "Crécy" from "Crécy, 26
// August 1346".
func battleName(sc *engine.Scenario) string {
	name, _, _ := strings.Cut(sc.Name, ",")
	if name == "" {
		return sc.ID
	}
	return name
}

// narrate turns events into the lines of viewer's mail, pairing each event
// that rolled a die with the dice log's roll (for its sequence number), in
// order. Bookkeeping events, which describe themselves as "", make no
// line; nor do the other side's private events (engine.PrivateTo: his
// standing orders, his orders kept over a Seizure decision).
func narrate(sc *engine.Scenario, events []engine.Event, rolls []dice.Roll, viewer engine.Side) []templates.Narrative {
	var out []templates.Narrative
	next := 0
	for _, e := range events {
		if owner, private := engine.PrivateTo(e); private && owner != viewer {
			continue
		}
		n := templates.Narrative{Text: engine.Describe(sc, e)}
		if n.Text == "" && rollOf(e) == nil {
			continue
		}
		if r := rollOf(e); r != nil {
			v := rollView(*r)
			if next < len(rolls) {
				v.Seq = int(rolls[next].Seq)
				next++
			}
			n.Roll = &v
		}
		out = append(out, n)
	}
	return out
}

// rollOf finds the die roll an event carries. Events that roll hold it in
// a field named Roll, of type engine.Roll or *engine.Roll; looking for that
// field keeps this working as the rule chapters add events.
func rollOf(e engine.Event) *engine.Roll {
	v := reflect.ValueOf(e)
	if v.Kind() != reflect.Struct {
		return nil
	}
	f := v.FieldByName("Roll")
	if !f.IsValid() {
		return nil
	}
	switch r := f.Interface().(type) {
	case engine.Roll:
		return &r
	case *engine.Roll:
		return r
	}
	return nil
}

func rollView(r engine.Roll) templates.RollView {
	v := templates.RollView{Purpose: r.Purpose, Die: r.Die, Total: r.Total}
	for _, m := range r.Mods {
		v.Mods = append(v.Mods, templates.ModView{DRM: m.DRM, Reason: m.Reason, Rule: m.Rule})
	}
	return v
}

// notApplied lists the orders of a block that were not carried out.
func notApplied(orders []engine.Order, lines map[int]string, reason string, refused *engine.IllegalOrderError) []templates.NotApplied {
	var out []templates.NotApplied
	for _, o := range orders {
		na := templates.NotApplied{LineNo: o.LineNo(), Line: lines[o.LineNo()], Reason: reason}
		if na.Line == "" {
			na.Line = o.String()
		}
		if refused != nil && refused.Line == o.LineNo() {
			na.Reason, na.Rule = refused.Reason, refused.Rule
		}
		out = append(out, na)
	}
	return out
}

// diceView is the verification data of a closed batch.
func diceView(up *dice.Update, rolls []templates.Narrative, game string) templates.DiceView {
	v := templates.DiceView{
		Batch:          int(up.Batch),
		RevealedSeed:   up.Seed.String(),
		NextCommitment: up.Chain.Commit.String(),
		ChainHead:      up.Checkpoint.Head.String(),
		ChainLength:    int(up.Checkpoint.Length),
		VerifyHint:     "Check this mail's rolls now: save it and run `herald verify --mail` on it (with the mail before, to check that nothing came between), or `tools/verify-dice.py --mail`; the whole game with `herald verify` on its export (`herald game export " + game + "`), or with any program that follows docs/dice.md.",
	}
	if up.Checkpoint.Sig != nil {
		v.Signature = up.Checkpoint.Sig.String()
	}
	for _, n := range rolls {
		if n.Roll != nil {
			v.Rolls = append(v.Rolls, *n.Roll)
		}
	}
	return v
}
