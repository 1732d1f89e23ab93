package mapimg

import (
	"container/list"
	"encoding/binary"
	"hash/fnv"
	"image"
	"sync"

	"herald/engine"

	"golang.org/x/image/font"
)

// The ground of a map — paper, terrain fills and symbols, hex outlines,
// hexside features, roads, hex numbers — depends on the battle's map and
// the layout only, and is a third of a map's drawing. ground draws it
// once for each map, hex size and window and copies it after: the same
// pixels as drawing it afresh (TestGroundCacheSamePixels), since every
// shape is rasterised in its own box from the same coordinates. The
// cache is keyed by the map's content, not its address, so that a
// scenario changed or parsed again is drawn anew; it is safe for
// concurrent use and holds at most groundCacheBytes, the least recently
// used going first.
const groundCacheBytes = 64 << 20

type groundKey struct {
	mapSum                         [16]byte
	size, ox, oy                   float64
	minCol, maxCol, minRow, maxRow int
	w, h                           int
}

type groundLayer struct {
	key     groundKey
	img     *image.RGBA
	drawn   []string  // the legend symbols it draws
	indexed indexings // its pixels' indices in the battles' palettes
}

var grounds = struct {
	sync.Mutex
	byKey map[groundKey]*list.Element
	lru   list.List // of *groundLayer, most recent first
	bytes int
}{byKey: map[groundKey]*list.Element{}}

// ground paints the ground of the map, top pixels high, on c: from the
// cache, or drawn and cached.
func ground(c *canvas, m *engine.Map, l *layout, label font.Face, top int) {
	w := c.img.Bounds().Dx()
	top = min(top, c.img.Bounds().Dy())
	k := groundKey{mapSum: mapSums.get(m, mapSum), size: l.size, ox: l.origin.X, oy: l.origin.Y,
		minCol: l.minCol, maxCol: l.maxCol, minRow: l.minRow, maxRow: l.maxRow, w: w, h: top}
	var g *groundLayer
	if c.laid != nil { // a reference picture: drawn, its colours recorded
		g = drawGround(k, m, l, label, c.laid)
	} else {
		grounds.Lock()
		e, ok := grounds.byKey[k]
		if ok {
			grounds.lru.MoveToFront(e)
		}
		grounds.Unlock()
		if ok {
			g = e.Value.(*groundLayer)
		} else {
			g = drawGround(k, m, l, label, nil)
			keepGround(g)
		}
	}
	if c.indexed && c.laid == nil {
		c.tiles = newGroundTiles(g.img) // copied where drawn over (groundtiles.go)
	} else {
		copy(c.img.Pix, g.img.Pix[:top*c.img.Stride])
	}
	c.ground = g
	for _, s := range g.drawn {
		c.used(s)
	}
}

// drawGround draws a ground; label is the hex numbers' face, the same
// for every map of a hex size (newFaces).
func drawGround(k groundKey, m *engine.Map, l *layout, label font.Face, laid map[uint32]bool) *groundLayer {
	c := newCanvas(k.w, k.h)
	c.laid = laid
	c.rect(0, 0, float64(k.w), float64(k.h), paper)
	drawTerrain(c, l, m)
	drawHexsides(c, l, m)
	drawNumbers(c, l, m, label)
	c.done()
	g := &groundLayer{key: k, img: c.img}
	for s := range c.drawn {
		g.drawn = append(g.drawn, s)
	}
	return g
}

// size is the bytes a ground is counted for: its pixels, and their
// indices in one battle's palette (fixedpalette.go), a quarter more.
func (g *groundLayer) size() int { return len(g.img.Pix) * 5 / 4 }

func keepGround(g *groundLayer) {
	n := g.size()
	if n > groundCacheBytes {
		return
	}
	grounds.Lock()
	defer grounds.Unlock()
	if _, ok := grounds.byKey[g.key]; ok {
		return // drawn meanwhile by another rendering
	}
	grounds.byKey[g.key] = grounds.lru.PushFront(g)
	grounds.bytes += n
	for grounds.bytes > groundCacheBytes {
		old := grounds.lru.Back()
		og := old.Value.(*groundLayer)
		grounds.lru.Remove(old)
		delete(grounds.byKey, og.key)
		grounds.bytes -= og.size()
	}
}

// mapSum is a digest of everything of a map the ground shows.
func mapSum(m *engine.Map) [16]byte {
	h := fnv.New128a()
	var b []byte
	num := func(v int) { b = binary.AppendVarint(b, int64(v)) }
	str := func(s string) { num(len(s)); b = append(b, s...) }
	g := m.Grid
	num(g.MinCol)
	num(g.MaxCol)
	num(g.MinRow)
	num(g.MaxRow)
	if g.OddShifted {
		num(1)
	} else {
		num(0)
	}
	str(m.DefaultTerrain)
	for _, x := range g.Hexes() {
		str(m.TerrainAt(x))
		num(m.Elevation[x])
	}
	num(len(m.Hexsides))
	for _, s := range m.Hexsides {
		num(s.A.Col)
		num(s.A.Row)
		num(s.B.Col)
		num(s.B.Row)
		str(s.Feature)
	}
	h.Write(b)
	var out [16]byte
	h.Sum(out[:0])
	return out
}
