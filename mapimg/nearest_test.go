package mapimg

import (
	"math/rand/v2"
	"testing"
)

// bruteNearest is the nearest entry found by trying them all: the
// least squared distance, the earliest on a tie.
func bruteNearest(pal []uint32, c uint32) int {
	p := channels(c)
	best, bi := int32(1<<30), 0
	for i, e := range pal {
		q := channels(e)
		dr, dg, db := q.r-p.r, q.g-p.g, q.b-p.b
		if d := dr*dr + dg*dg + db*db; d < best {
			best, bi = d, i
		}
	}
	return bi
}

// The cells' candidates give the entry that trying all of them gives,
// on palettes of every size: spread over the cube, crowded in a corner
// or along a cell's edges, with entries repeated (ties), asked for
// colours anywhere and colours near the entries.
func TestNearest(t *testing.T) {
	r := rand.New(rand.NewPCG(17, 4))
	level := func(kind int) uint32 {
		switch kind {
		case 0: // anywhere
			return r.Uint32N(256)
		case 1: // crowded
			return 96 + r.Uint32N(40)
		case 2: // on and about the cells' edges
			return min(r.Uint32N(8)*32+r.Uint32N(3), 255) - r.Uint32N(2)
		default: // few levels: many ties
			return r.Uint32N(4) * 85
		}
	}
	for round := range 400 {
		kind := round % 4
		pal := make([]uint32, 1+r.IntN(256))
		for i := range pal {
			pal[i] = level(kind) | level(kind)<<8 | level(kind)<<16 | 0xff000000
			if i > 0 && r.IntN(10) == 0 {
				pal[i] = pal[r.IntN(i)]
			}
		}
		nf := newNearest(pal)
		for range 500 {
			c := r.Uint32() | 0xff000000
			switch r.IntN(3) {
			case 0: // a corner of a cell, where a candidate wrongly left out shows
				corner := func() uint32 { return r.Uint32N(8)*32 + r.Uint32N(2)*31 }
				c = corner() | corner()<<8 | corner()<<16 | 0xff000000
			case 1: // near an entry
				e := channels(pal[r.IntN(len(pal))])
				near := func(v int32) uint32 { return uint32(min(max(v+r.Int32N(21)-10, 0), 255)) }
				c = near(e.r) | near(e.g)<<8 | near(e.b)<<16 | 0xff000000
			}
			if got, want := nf.find(c), bruteNearest(pal, c); got != want {
				t.Fatalf("round %d (%d entries), colour %08x: entry %d (%08x), want %d (%08x)", round, len(pal), c, got, pal[got], want, pal[want])
			}
		}
	}
}
