// Package strike is the rules core of Herald's second game system: the D20
// "strike" miniatures combat of ../shared/rules/d20-strike-combat.md, a
// fragment of a medieval miniatures rules set (units of stands of figures,
// a roll-under D20 per stand, a Strike Results Table, Personalities, card
// draws for capture).
//
// The fragment has no section numbers; comments cite its headings in
// capitals ("DOUBLE STRIKES", "RATE OF FIRE (ROF)"). Where it is silent,
// ambiguous or inconsistent, docs/rulings.md records Herald's
// ruling (R500–R539) and the test that holds it.
//
// Everything here is a pure function of its arguments: numbers come from
// Tables (data/strike/tables.yaml, Herald's house tables where the fragment
// lacks them), randomness from Dice, geometry from package table. Nothing
// imports this package yet; the seam that plays it by mail comes later
// (docs/strike.md).
package strike
