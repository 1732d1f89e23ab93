package mapimg

// nearest finds a colour's nearest palette entry: the least squared RGB
// distance, the earliest entry on a tie. The colour cube is cut into
// cells of 32 levels a channel; a cell's candidates, found the first
// time a colour of the cell is asked for, are the entries that can be
// the nearest for some colour in it: those whose least distance to the
// cell is at most the least, over all entries, of the greatest distance
// to it. (The nearest entry e of a colour c in the cell, and the entry
// f whose greatest distance to the cell is that least, have
// least(e) ≤ d(c, e) ≤ d(c, f) ≤ greatest(f); an entry as near as e is
// kept for the same reason.) A map's colours out of its palette are
// near its entries, in a few cells with a few candidates each, where
// trying all 256 entries, or searching by the channels' sum, costs
// several times more.
type nearest struct {
	pal   []rgb32
	cells [cellsPerSide * cellsPerSide * cellsPerSide][]uint8 // by cell: its candidates, in the palette's order
	built [cellsPerSide * cellsPerSide * cellsPerSide]bool
}

// rgb32 is a colour's channels, apart.
type rgb32 struct{ r, g, b int32 }

const (
	cellShift    = 5 // a cell is 32 levels of each channel
	cellsPerSide = 256 >> cellShift
)

func newNearest(pal []uint32) *nearest {
	nf := &nearest{pal: make([]rgb32, len(pal))}
	for i, c := range pal {
		nf.pal[i] = channels(c)
	}
	return nf
}

func channels(c uint32) rgb32 {
	return rgb32{int32(c & 0xff), int32(c >> 8 & 0xff), int32(c >> 16 & 0xff)}
}

// find is the index of the entry nearest colour c, the earliest of
// those as near.
func (nf *nearest) find(c uint32) int {
	p := channels(c)
	cell := (p.r>>cellShift*cellsPerSide+p.g>>cellShift)*cellsPerSide + p.b>>cellShift
	if !nf.built[cell] {
		nf.cells[cell] = nf.candidates(p)
		nf.built[cell] = true
	}
	best, bi := int32(1<<20), 0 // above any distance, 3·255²
	for _, i := range nf.cells[cell] {
		e := nf.pal[i]
		dr, dg, db := e.r-p.r, e.g-p.g, e.b-p.b
		if d := dr*dr + dg*dg + db*db; d < best {
			best, bi = d, int(i)
		}
	}
	return bi
}

// candidates is the entries that can be the nearest for a colour of
// p's cell, in the palette's order.
func (nf *nearest) candidates(p rgb32) []uint8 {
	const side = 1 << cellShift
	lo := rgb32{p.r &^ (side - 1), p.g &^ (side - 1), p.b &^ (side - 1)}
	least := int32(1 << 20)
	for _, e := range nf.pal {
		least = min(least, greatest(e.r, lo.r)+greatest(e.g, lo.g)+greatest(e.b, lo.b))
	}
	var keep []uint8
	for i, e := range nf.pal {
		if fewest(e.r, lo.r)+fewest(e.g, lo.g)+fewest(e.b, lo.b) <= least {
			keep = append(keep, uint8(i))
		}
	}
	return keep
}

// greatest is the greatest squared difference between v and a level
// of the cell's channel from lo.
func greatest(v, lo int32) int32 {
	d := max(v-lo, lo+(1<<cellShift)-1-v)
	return d * d
}

// fewest is the least squared difference between v and a level of the
// cell's channel from lo.
func fewest(v, lo int32) int32 {
	d := max(lo-v, v-(lo+(1<<cellShift)-1), 0)
	return d * d
}
