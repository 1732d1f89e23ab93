// Package hex is the geometry of the series' maps: hex ids, neighbours,
// distance, the six vertex facings with their Front, Flank and Rear
// hexsides (6.1), how a line reaches a hex (across a hexside or down a hex
// spine, 9.1, 9.3) and what a line of sight between two hex centres meets
// (9.4). It knows no terrain, units or rules beyond geometry, and imports
// only the standard library. All arithmetic is exact integer arithmetic;
// nothing depends on floating point, so results are the same everywhere.
//
// # Coordinates
//
// A map is columns of flat-topped hexes, north up. A hex id is XXYY,
// column then row, rows growing southwards: Hex{Col: 34, Row: 20} is
// "3420". Every other column is half a hex lower; which ones is a property
// of the map (Grid.OddShifted). An odd-shifted map ("odd-q"):
//
//	         _____         _____
//	        /     \       /     \
//	  _____/ 0201  \_____/ 0401  \
//	 /     \       /     \       /
//	/ 0101  \_____/ 0301  \_____/
//	\       /     \       /     \
//	 \_____/ 0202  \_____/ 0402  \
//	 /     \       /     \       /
//	/ 0102  \_____/ 0302  \_____/
//	\       /     \       /
//	 \_____/       \_____/
//
// There a hex in an even column touches rows YY-1 and YY of the
// neighbouring columns (0202 touches 0101, 0102, 0301, 0302) and a hex in
// an odd column rows YY and YY+1 (0301 touches 0201, 0202, 0401, 0402).
// infidel.md 11.2 confirms it: 3220, 3319, 3420, 3320, 3220 are steps
// between adjacent hexes. On an even-shifted map the roles swap.
//
// Internally a hex becomes cube coordinates x, y, z with x+y+z = 0 (Red
// Blob Games, "Hexagonal Grids", https://www.redblobgames.com/grids/hexagons/
// sections "Cube coordinates" and "Offset coordinates", the "odd-q" and
// "even-q" layouts), so that neighbours are fixed steps and Distance is
// max(|dx|, |dy|, |dz|).
//
// # Hexsides and vertices
//
// The six hexsides, and the neighbours across them, are the directions
// Dir: N, NE, SE, S, SW, NW, clockwise from north. A unit faces one of the
// six vertices (6.1), Facing: E, NE, NW, W, SW, SE, counter-clockwise from
// east, vertex k at 60k degrees. Vertex NE lies between hexsides N and NE:
//
//	  NW ________ NE          <- vertices (Facing)
//	    /   N    \
//	   / NW    NE \           <- hexsides (Dir), inside
//	W <            > E
//	   \ SW    SE /
//	    \___S____/
//	  SW          SE
//
// The two hexsides beside the faced vertex are Frontal, the two at the other
// end Rear, the other two Flank (6.1). A unit facing E:
//
//	          Flank (N)
//	          ________
//	Rear (NW)/        \Front (NE)
//	        /          \
//	        \   ==>    /
//	Rear (SW)\________/Front (SE)
//	          Flank (S)
//
// Frontal, Flank and Rear return their two hexsides as [left, right], as
// the unit sees them. A hex spine is the line from the centre through a
// vertex, the boundary between two hexsides. ApproachFrom says whether the
// line from another hex centre reaches a hex across a hexside or down a
// spine, and Facing.ApproachAspect names that for a facing (Angle: the
// three hexside aspects and the four kinds of spine); Angle.FireAspect
// applies 9.1 and 9.3 (a spine is never Flank).
//
// # Lines
//
// Line of sight (9.4) runs from centre to centre. Line lists what the
// segment meets between its ends, in order: hexes it crosses (Through),
// pairs of hexes along whose common hexside it runs (Along) and hexes it
// touches only at a corner (Corner). It works in a lattice frame where
// every hex centre and corner has integer coordinates, so every test is
// the sign of an integer cross product (see point in line.go).
package hex
