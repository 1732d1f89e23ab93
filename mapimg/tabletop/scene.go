// Package tabletop draws the table of a miniatures battle of the D20
// strike system (docs/strike.md) as a PNG: the table and its terrain
// areas, every unit's stands with its facing, and what the last block of
// orders did (moves, arcs and ranges of shooting, charges). It knows
// nothing of the rules: the strike system's adapter fills a Scene.
package tabletop

// Vec is a point on the table in inches: X to the right, Y up the table
// (the far edge is Y = Height), as engine/strike/table measures.
type Vec struct{ X, Y float64 }

// Scene is everything one picture shows.
type Scene struct {
	Title         string // "Bouvines Bridge, move 7"
	Width, Height float64
	Areas         []Area
	Sides         [2]string // side names, for the legend; side 0 blue, side 1 red
	Units         []Unit
	Marks         []Mark // what happened, drawn over the units
}

// Area is a terrain area: a polygon of the table.
type Area struct {
	Kind  string // "open", "obstacle", "higher ground", "gentle slope"
	Name  string // "Abbey wall", "" for none
	Shape []Vec
}

// Unit is one unit as it stands after the block.
type Unit struct {
	ID     string // short label drawn on it: "Kn1"
	Name   string // for the legend
	Side   int
	Front  Vec     // centre of the front edge
	Facing float64 // compass degrees: 0 up the table, 90 to the right
	// Stands are the stands still on the table, each a polygon of four
	// corners (front-left, front-right, back-right, back-left).
	Stands [][4]Vec
	// State words drawn under the label: "disordered", "broken".
	Status      []string
	Personality string // the attached Personality's name, or ""
	Highlight   bool   // the unit acted or was hit in the last block
}

// Mark is one thing the last block did.
type Mark struct {
	Kind string // "move" (a path), "shot" (from shooter to target), "charge", "arc", "range", "retreat"
	Side int
	// Path: for move, charge and retreat the points passed through; for
	// shot the shooter's and target's nearest points; for arc the apex
	// then the two ends of the arc's edges (a triangle or fan of 3+
	// points); for range a centre and one point on the circle.
	Path  []Vec
	Label string // "2 hits", "12\""
}
