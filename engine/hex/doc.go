// Package hex is the geometry of the series' maps: columns of flat-topped
// hexes numbered XXYY (column, row), rows growing southwards, with every
// other column shifted half a hex down. Which columns are shifted is a
// property of each map (Grid.OddShifted). Everything here is exact integer
// arithmetic; nothing depends on floating point.
//
// # Coordinates
//
// An odd-shifted map (odd columns half a hex lower), north up:
//
//	  ____        ____
//	 /    \      /    \
//	/ 0201 \____/ 0401 \
//	\      /    \      /
//	 \____/ 0301 \____/
//	 /    \      /    \
//	/ 0202 \____/ 0402 \
//	\      /    \      /
//	 \____/ 0302 \____/
//
// A hex in an even column touches rows YY-1 and YY of the neighbouring
// columns; a hex in an odd column touches rows YY and YY+1 (infidel.md 11.2:
// 3220→3319→3420→3320→3220 are steps between adjacent hexes).
//
// Internally a hex becomes cube coordinates (x, y, z) with x+y+z = 0
// (Red Blob Games, "Hexagonal Grids", cube coordinates for flat-topped
// "q" layouts): distance is max(|dx|, |dy|, |dz|).
//
// # Hexsides and facings
//
// The six hexsides, and the neighbours across them, are the directions
// N, NE, SE, S, SW, NW (clockwise from north). A unit faces one of the six
// vertices (6.1): E, NE, NW, W, SW, SE (counter-clockwise from east; NE is
// the vertex between the N and NE hexsides):
//
//	       N
//	   NW _____ NE      vertices:      NW ____ NE
//	     /     \                         /    \
//	NW  /       \  NE               W  <      >  E
//	    \       /                        \____/
//	SW   \_____/   SE                  SW      SE
//	       S
//
// The two hexsides beside the faced vertex are Frontal, the two at the other
// end Rear, the other two Flank (6.1). A hex spine is the line from the
// centre through a vertex, the boundary between two hexsides.
//
// # Lines
//
// Line of sight (9.4) is traced from centre to centre. Line walks the
// segment and reports, in order, each hex whose interior it crosses, each
// pair of hexes along whose common hexside it runs, and each hex it touches
// only at a corner. The walk uses a linear frame in which every hex centre
// and corner has integer coordinates, so every test is an exact integer
// cross product (see frame in line.go).
package hex
