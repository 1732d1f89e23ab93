// Package mapimg draws a game's battlefield as a PNG for the result mails:
// flat-topped hexes with their XXYY labels, terrain as fills that also
// carry a symbol (so that print and colour-blind readers can tell woods
// from marsh), hexside features, elevation, the counters as the real game
// shows them (a square turned to the vertex it faces, the Command's stripe
// on its front edge), leaders and Standards, an overlay of what the last
// order block did, and a legend that keys every symbol the map shows.
//
// The overlay (Marks) is one arrow per unit and kind: a move, a Charge
// into the defender's hex (its Advance included), a retreat, missile fire,
// a Shock attack; a ring on each counter of the Command that acted; the
// units eliminated crossed out where they fell; and one tag per unit
// naming its results. Everything is laid out before it is drawn (scene):
// arrows start and end at counters' edges and pass under them, hex
// numbers are written over the arrows, and each tag goes to the nearest
// place where it covers no counter, hex number, arrowhead or other tag,
// with a line back to its hex when it had to move away.
//
// # Basics
//
//	img, err := mapimg.Render(sc, st, mapimg.Options{Marks: mapimg.Marks(sc, before, st, events)})
//	png, err := mapimg.PNG(sc, st, opts)
//
// A mail's maps (ForMail, ForArmy) are written with a palette
// (Options.Palette): an 8-bit indexed-colour PNG at about 40% of the RGB
// PNG's bytes, in the battle's palette — the colours the drawing lays
// whole and the most frequent blends of reference pictures of the
// battle, made at its first map — the rarer blends of anti-aliased edges
// moved to the nearest entry; a picture with colours the battle's
// palette lacks gets its 256 most frequent own. Render's pixels are the
// same with or without it.
//
// Drawing uses golang.org/x/image/vector for anti-aliased shapes and the Go
// fonts through golang.org/x/image/font/opentype: both are pure Go and
// maintained with the Go project, so Herald needs no system fonts, no cgo
// and no external program (docs/architecture.md says more).
//
// # Caveats
//
// Text on counters stays upright whatever the facing: the turned square
// and its stripe show the facing, and upright text stays legible at the
// sizes a phone shows; the unit type is left off a turned counter when it
// would cross the square's edge. Markers the state does not hold yet
// (Shield Wall, Continued Attack, Out of Command) join unitMarkers as the
// rule chapters add them to the state. Where hexes are too small for a
// tag to fit between their numbers, the numbers it covers are left out.
package mapimg
