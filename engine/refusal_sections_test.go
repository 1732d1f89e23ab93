package engine_test

import (
	"testing"

	"herald/engine"
	"herald/engine/hex"
)

// TestRefusalSections: refusals no other test makes, each with the rule
// section it must cite. With the refusals the other tests assert (g.refuse,
// wantFire), they cover every refusal site of the engine (TestMain checks
// that, refusal_sites_test.go). In the melee fixture Anna's Command holds
// AN1, AN2, BE1 and BE2, so Bert's has no units; in shooters' Bert keeps
// BE1 and BE2.
func TestRefusalSections(t *testing.T) {
	type send struct {
		side engine.Side
		text string
	}
	for _, c := range []struct {
		name  string
		base  func(*testing.T, ...int) *game // melee unless set
		setup func(g *game)
		pre   []send
		mid   func(g *game) // after pre
		side  engine.Side
		order string
		raw   engine.Order // instead of order, for what the parser never builds
		rule  string
	}{
		// 4.0 Activation and Continuity, 15.0
		{name: "activate a Command with no units", order: "ACTIVATE Bert", rule: "15.0"},
		{name: "continue with a Command with no units", pre: []send{{red, "ACTIVATE Anna\nEND"}}, order: "CONTINUE Bert", rule: "15.0"},
		{name: "seize with a Command with no units", setup: func(g *game) { g.kill("DO1", "DO2") },
			pre: []send{{red, "ACTIVATE Anna\nEND\nCONTINUE Anna"}}, side: blue, order: "SEIZE Dora", rule: "15.0"},
		{name: "pass in the middle of an Activation", pre: []send{{red, "ACTIVATE Anna"}}, order: "PASS", rule: "4.1"},
		{name: "end with no Command activated", order: "END", rule: "ExtSoP"},
		{name: "activate after an Activation, not in a Free one", pre: []send{{red, "ACTIVATE Anna\nEND"}}, order: "ACTIVATE Anna", rule: "4.1"},
		{name: "continue in a Free Activation", order: "CONTINUE Anna", rule: "4.2"},
		{name: "decline with no Continuation to answer", order: "DECLINE", rule: "4.3"},
		{name: "a Command of no one", order: "ACTIVATE Zed", rule: "15.1"},
		{name: "a standing order for a Command of no one", order: "STANDING SEIZE Zed", side: blue, rule: "15.1"},
		{name: "orders with no decision pending", side: blue, order: "ACTIVATE Carl", rule: "4.1"},
		{name: "seize during the opponent's Activation", pre: []send{{red, "ACTIVATE Anna"}}, side: blue, order: "SEIZE Carl", rule: "4.3"},
		{name: "an empty block", raw: nil, rule: "docs/orders.md"},

		// 13.2 Standards
		{name: "a Standard of no one", order: "ACTIVATE STANDARD Zed", rule: "13.2"},
		{name: "a captured Standard", setup: func(g *game) { g.st.Standards[0].Captured = true }, order: "ACTIVATE STANDARD Red", rule: "13.2"},
		{name: "a Standard moved off the map", order: "ACTIVATE STANDARD Red MOVE 9999", rule: "13.2"},

		// 5.0 Movement
		{name: "move outside the Move/Fire Phase", setup: func(g *game) { g.troop("AN1", "0505", hex.FaceE, "LB") }, order: "MOVE AN1 0605", rule: "5.1"},
		{name: "move a unit of another Command", base: shootersDice, setup: func(g *game) { g.at("BE1", "0505", hex.FaceE, "LB") },
			pre: []send{{red, "ACTIVATE Anna"}}, order: "MOVE BE1 0605", rule: "5.1"},
		{name: "a path with a bad hex id", setup: func(g *game) { g.troop("AN1", "0505", hex.FaceE, "LB") },
			pre: []send{{red, "ACTIVATE Anna"}}, raw: engine.Move{Unit: "AN1", Path: []string{"05x5"}}, rule: "docs/orders.md"},
		{name: "a unit's move with no hex", setup: func(g *game) { g.troop("AN1", "0505", hex.FaceE, "LB") },
			pre: []send{{red, "ACTIVATE Anna"}}, raw: engine.Move{Unit: "AN1"}, rule: "5.1"},
		{name: "a leader's move with no hex", pre: []send{{red, "ACTIVATE Anna"}}, raw: engine.Move{Unit: "anna"}, rule: "5.1"},
		{name: "a leader beyond his Movement Allowance", pre: []send{{red, "ACTIVATE Anna"}},
			order: "MOVE anna 0102 0103 0104 0105 0106 0107 0108 0109 0110", rule: "5.1"},
		{name: "a leader into a hex no unit may enter", setup: func(g *game) { g.impassable("0102") },
			pre: []send{{red, "ACTIVATE Anna"}}, order: "MOVE anna 0102", rule: "5.1"},
		{name: "a killed leader moving alone", mid: func(g *game) { g.st.Leader("anna").Killed = true },
			pre: []send{{red, "ACTIVATE Anna"}}, order: "MOVE anna 0102", rule: "15.4"},
		{name: "a unit moving with a killed leader", setup: func(g *game) {
			g.troop("AN1", "0505", hex.FaceE, "LB")
			g.lead("anna", "0505")
		}, pre: []send{{red, "ACTIVATE Anna"}}, mid: func(g *game) { g.st.Leader("anna").Killed = true },
			order: "MOVE AN1 WITH anna 0605", rule: "15.4"},
		{name: "beyond the Allowance by passing through", setup: func(g *game) {
			g.troop("AN1", "0505", hex.FaceE, "LB")
			g.troop("BE1", "0405", hex.FaceE, "MMAA")
			g.sc.Units[g.index("BE1")].Ratings.MA = 1
		}, pre: []send{{red, "ACTIVATE Anna"}}, order: "MOVE BE1 0505", rule: "5.1"},
		{name: "a Retired unit into an occupied hex", setup: func(g *game) {
			g.troop("AN1", "0303", hex.FaceE, "LB")
			g.troop("AN2", "0302", hex.FaceE, "LB")
			g.st.Unit("AN1").Status = engine.Retired
		}, pre: []send{{red, "ACTIVATE Anna"}}, order: "MOVE AN1 0302", rule: "8.0"},

		{name: "move an eliminated unit", setup: func(g *game) { g.kill("AN1") }, pre: []send{{red, "ACTIVATE Anna"}}, order: "MOVE AN1 0505", rule: "12.6"},

		// 14.2 Hobilars
		{name: "a Hobilar firing after its move", setup: func(g *game) {
			g.troop("AN1", "0506", hex.FaceNE, "DHOB")
			g.troop("CA1", "0503", hex.FaceSW, "PK")
		}, pre: []send{{red, "ACTIVATE Anna\nMOVE AN1 0505"}}, order: "FIRE AN1 AT CA1", rule: "14.2"},
		{name: "a Retired Hobilar dismounting", setup: func(g *game) {
			g.troop("AN1", "0505", hex.FaceE, "MHOB")
			g.st.Unit("AN1").Status = engine.Retired
		}, pre: []send{{red, "ACTIVATE Anna"}}, order: "MOVE AN1 DISMOUNT", rule: "12.4"},
		{name: "a Hobilar dismounting before it enters", setup: func(g *game) {
			g.troop("AN1", "0505", hex.FaceE, "MHOB")
			g.st.Unit("AN1").OffMap = true
		}, pre: []send{{red, "ACTIVATE Anna"}}, order: "MOVE AN1 DISMOUNT 0101", rule: "14.2"},
		{name: "a Hobilar's dismount beyond its Allowance", setup: func(g *game) { g.troop("AN1", "0103", hex.FaceE, "MHOB") },
			pre: []send{{red, "ACTIVATE Anna"}}, order: "MOVE AN1 0203 0303 0403 0503 0603 0703 DISMOUNT", rule: "14.2"},
		{name: "a Longbow dismounting", setup: func(g *game) { g.troop("AN1", "0505", hex.FaceE, "LB") },
			pre: []send{{red, "ACTIVATE Anna"}}, order: "MOVE AN1 0605 DISMOUNT", rule: "14.2"},
		{name: "a dismounted Hobilar dismounting", setup: func(g *game) { g.troop("AN1", "0505", hex.FaceE, "DHOB") },
			pre: []send{{red, "ACTIVATE Anna"}}, order: "MOVE AN1 0605 DISMOUNT", rule: "14.2"},
		{name: "a mounted Hobilar Shocking", setup: func(g *game) {
			g.troop("AN1", "0505", hex.FaceE, "MHOB")
			g.troop("CA1", "0605", hex.FaceW, "PK")
		}, pre: []send{{red, "ACTIVATE Anna"}}, order: "SHOCK AN1 AT CA1", rule: "14.2"},

		// 6.2 Facing
		{name: "face a unit of no one", pre: []send{{red, "ACTIVATE Anna"}}, order: "FACE ZZ9 E", rule: "6.2"},

		// 9.0 Missile Fire
		{name: "fire by a unit of no one", pre: []send{{red, "ACTIVATE Anna"}}, order: "FIRE ZZ9 AT CA1", rule: "9.1"},
		{name: "fire by a unit of another Command", base: shootersDice, setup: func(g *game) {
			g.at("BE1", "0505", hex.FaceNE, "LB")
			g.at("CA1", "0503", hex.FaceSW, "PK")
		}, pre: []send{{red, "ACTIVATE Anna"}}, order: "FIRE BE1 AT CA1", rule: "9.2"},
		{name: "fire by a unit not yet on the map", setup: func(g *game) {
			g.troop("AN1", "0505", hex.FaceNE, "LB")
			g.st.Unit("AN1").OffMap = true
			g.troop("CA1", "0503", hex.FaceSW, "PK")
		}, pre: []send{{red, "ACTIVATE Anna"}}, order: "FIRE AN1 AT CA1", rule: "5.3"},
		{name: "a mounted archer's fire beyond its Allowance", setup: func(g *game) {
			tb := *g.sc.Tables
			tb.Rules.MountedFireZOCMP = 1
			g.sc.Tables = &tb
			g.troop("AN1", "0303", hex.FaceE, "GEN")
			g.sc.Units[g.index("AN1")].Ratings.MA = 1
			g.troop("CA1", "0405", hex.FaceNW, "LB")
		}, pre: []send{{red, "ACTIVATE Anna"}}, order: "MOVE AN1 0404 FIRE CA1", rule: "Infidel 11.2"},
		{name: "answer a Return Fire no one asked", pre: []send{{red, "ACTIVATE Anna"}}, order: "RETURN FIRE AN1", rule: "9.2"},
		{name: "answer a Reaction Fire no one asked", pre: []send{{red, "ACTIVATE Anna"}}, order: "REACT AN1", rule: "9.2"},
		{name: "answer a Counter-Charge for another unit", setup: func(g *game) {
			g.troop("CA1", "0505", hex.FaceW, "MMAA")
			g.troop("AN1", "0305", hex.FaceE, "LB")
		}, pre: []send{{blue, "STANDING COUNTER-CHARGE ASK"}, {red, "ACTIVATE Anna\nFIRE AN1 AT CA1"}}, side: blue, order: "COUNTER-CHARGE CA2", rule: "11.5"},

		// 12.3 Retreat, 10.5 Advance
		{name: "a retreat no one asked", pre: []send{{red, "ACTIVATE Anna"}}, order: "RETREAT AN1 0505", rule: "12.3"},
		{name: "the retreat of another unit", base: shootersDice, setup: func(g *game) {
			g.at("AN1", "0505", hex.FaceNE, "LB")
			g.at("CA1", "0503", hex.FaceSW, "CB")
			g.st.Unit("CA1").Status = engine.Disordered
			g.dice = engine.NewScript(3)
		}, pre: []send{{blue, "STANDING RETREAT ASK"}, {red, "ACTIVATE Anna\nFIRE AN1 AT CA1"}}, side: blue, order: "RETREAT CA2 0502", rule: "12.3"},
		{name: "an advance no one asked", pre: []send{{red, "ACTIVATE Anna"}}, order: "ADVANCE AN1 0505", rule: "10.5"},

		// 10.0 Shock, 11.0 Charge
		{name: "declare outside the Shock Phase", order: "SHOCK AN1 AT CA1", rule: "10.3"},
		{name: "a Shock by a unit of no one", pre: []send{{red, "ACTIVATE Anna"}}, order: "SHOCK ZZ9 AT CA1", rule: "10.1"},
		{name: "a Shock by a unit of another Command", base: shootersDice, setup: func(g *game) {
			g.at("BE1", "0505", hex.FaceE, "MMAA")
			g.at("CA1", "0605", hex.FaceW, "PK")
		}, pre: []send{{red, "ACTIVATE Anna"}}, order: "SHOCK BE1 AT CA1", rule: "10.1"},
		{name: "a Shock by a unit off the field", setup: func(g *game) { g.troop("CA1", "0605", hex.FaceW, "PK") },
			pre: []send{{red, "ACTIVATE Anna"}}, order: "SHOCK AN1 AT CA1", rule: "10.1"},
		{name: "an attacker named twice", setup: func(g *game) {
			g.troop("AN1", "0505", hex.FaceE, "MMAA")
			g.troop("CA1", "0605", hex.FaceW, "PK")
		}, pre: []send{{red, "ACTIVATE Anna"}}, order: "SHOCK AN1 AN1 AT CA1", rule: "10.1"},
		{name: "a defender named twice", setup: func(g *game) {
			g.troop("AN1", "0505", hex.FaceE, "MMAA")
			g.troop("CA1", "0605", hex.FaceW, "PK")
		}, pre: []send{{red, "ACTIVATE Anna"}}, order: "SHOCK AN1 AT CA1 CA1", rule: "10.1"},
		{name: "a Charge at a unit of no one", setup: func(g *game) { g.troop("AN1", "0305", hex.FaceE, "MMAA") },
			pre: []send{{red, "ACTIVATE Anna"}}, order: "CHARGE AN1 AT ZZ9 0405", rule: "11.3"},
		{name: "a Charge along no legal path", setup: func(g *game) {
			g.troop("AN1", "0305", hex.FaceE, "MMAA")
			g.troop("CA1", "0505", hex.FaceW, "PK")
		}, pre: []send{{red, "ACTIVATE Anna"}}, order: "CHARGE AN1 AT CA1 0304", rule: "11.3"},
		{name: "two Charges sharing a hex", setup: func(g *game) {
			g.troop("AN1", "0305", hex.FaceE, "MMAA")
			g.troop("AN2", "0304", hex.FaceE, "MMAA")
			g.troop("CA1", "0505", hex.FaceW, "PK")
			g.troop("CA2", "0504", hex.FaceW, "PK")
		}, pre: []send{{red, "ACTIVATE Anna\nCHARGE AN1 AT CA1 0405\nCHARGE AN2 AT CA2 0405"}}, order: "END", rule: "11.3"},
		{name: "counter-charge a Shock that is a Charge", setup: func(g *game) {
			g.troop("CA1", "0505", hex.FaceW, "MMAA")
			g.troop("AN2", "0304", hex.FaceE, "MMAA")
		}, pre: []send{{blue, "STANDING COUNTER-CHARGE ASK CA1"}, {red, "ACTIVATE Anna\nCHARGE AN2 AT CA1\nEND"}},
			side: blue, order: "COUNTER-CHARGE CA1 SHOCK", rule: "11.5"},
		{name: "counter-charge a Charge that is a Shock", setup: func(g *game) {
			g.troop("CA1", "0505", hex.FaceW, "MMAA")
			g.troop("AN2", "0405", hex.FaceE, "MMAA")
		}, pre: []send{{blue, "STANDING COUNTER-CHARGE ASK CA1"}, {red, "ACTIVATE Anna\nSHOCK AN2 AT CA1\nEND"}},
			side: blue, order: "COUNTER-CHARGE CA1 CHARGE", rule: "11.5"},
		{name: "counter-charge by a unit that may only retreat", setup: func(g *game) {
			g.troop("CA1", "0505", hex.FaceW, "GEN")
			g.troop("AN1", "0405", hex.FaceE, "DMAA")
		}, pre: []send{{blue, "STANDING RETREAT BEFORE SHOCK ASK"}, {red, "ACTIVATE Anna\nSHOCK AN1 AT CA1\nEND"}},
			side: blue, order: "COUNTER-CHARGE CA1", rule: "11.5"},
		{name: "stand with no Shock Phase waiting", pre: []send{{red, "ACTIVATE Anna"}}, order: "STAND", rule: "10.3"},
	} {
		t.Run(c.name, func(t *testing.T) {
			base := c.base
			if base == nil {
				base = melee
			}
			g := base(t)
			if c.setup != nil {
				c.setup(g)
			}
			for _, p := range c.pre {
				g.send(p.side, p.text)
			}
			if c.mid != nil {
				c.mid(g)
			}
			if c.order != "" {
				g.refuse(c.side, c.order, c.rule)
				return
			}
			var orders []engine.Order
			if c.raw != nil {
				orders = append(orders, c.raw)
			}
			g.refuseOrders(c.side, c.rule, c.name, orders...)
		})
	}
}

func shootersDice(t *testing.T, dice ...int) *game {
	g := shooters(t)
	g.dice = engine.NewScript(dice...)
	return g
}

// kill eliminates units, as Pikes (the fixture's types are not Men of
// Iron's).
func (g *game) kill(ids ...string) {
	for _, id := range ids {
		g.sc.Units[g.index(id)].Type = "PK"
		g.st.Unit(id).Status = engine.Eliminated
	}
}

// impassable makes hex x a terrain no unit type may enter.
func (g *game) impassable(x string) {
	tb := *g.sc.Tables
	tb.Terrain = map[string]*engine.TerrainType{}
	for k, v := range g.sc.Tables.Terrain {
		tb.Terrain[k] = v
	}
	tb.Terrain["lake"] = &engine.TerrainType{Key: "lake", Name: "Lake", Cost: map[engine.Class]engine.Cost{engine.Foot: engine.NA, engine.Mounted: engine.NA}}
	g.sc.Tables = &tb
	g.sc.Map.Terrain[h(g.t, x)] = "lake"
}
