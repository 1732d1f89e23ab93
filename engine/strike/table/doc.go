// Package table is the geometry of a miniatures table for the D20 "strike"
// game system (../shared/rules/d20-strike-combat.md): units made of
// rectangular stands in files and ranks, placed in inches with a facing in
// degrees on a table of declared size with terrain areas.
//
// Conventions. The table's origin is its lower-left corner; x grows to the
// right, y up the table, both in inches. A facing is a compass bearing in
// degrees: 0 faces up the table (+y), 90 faces right (+x), clockwise. A
// unit's position is the centre of its front edge. Files are numbered from
// the unit's left (as its own men see it), ranks from the front.
//
// The rules measure "from the closest point of the firing stand to the
// closest point of the target" (ARC OF FIRE): every distance here is between
// closed shapes, zero when they touch or overlap.
//
// Nothing here knows troop types or dice; package strike holds the rules.
package table
