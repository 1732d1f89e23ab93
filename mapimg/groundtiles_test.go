package mapimg

import (
	"bytes"
	"encoding/binary"
	"image"
	"testing"
)

// paintedIndexed is a mail map drawn as PNG draws it, for palette
// indices: its ground copied a tile at a time.
func paintedIndexed(t *testing.T) *canvas {
	t.Helper()
	sc, before, after, events := busy(t)
	c := paintedFor(t, sc, after, ForMail(Marks(sc, before, after, events)), true)
	if c.tiles == nil {
		t.Fatal("the ground was copied whole")
	}
	return c
}

// poison paints every tile of the ground never copied magenta, as a
// reused buffer's stale pixels could be.
func poison(c *canvas) (tiles int) {
	t := c.tiles
	for i, done := range t.copied {
		if done {
			continue
		}
		tiles++
		tx, ty := i%t.cols, i/t.cols
		for y := ty * tileRows; y < min((ty+1)*tileRows, t.g.Rect.Dy()); y++ {
			for x := tx * groundBlock; x < min((tx+1)*groundBlock, t.g.Rect.Dx()); x++ {
				binary.LittleEndian.PutUint32(c.img.Pix[c.img.PixOffset(x, y):], 0xffff00ff)
			}
		}
	}
	return tiles
}

// TestUncopiedGroundNeverRead: the pixels of tiles never copied are not
// read; the map's indices are the same whatever they hold, and the same
// as the whole ground copied gives.
func TestUncopiedGroundNeverRead(t *testing.T) {
	sc, _, _, _ := busy(t)
	bp := paletteFor(sc)
	c := paintedIndexed(t)
	clean, _, ok := quantizeFixed(c, bp, nil)
	if !ok {
		t.Fatal("the map is not in its battle's palette")
	}
	n := poison(c)
	t.Logf("%d tiles of %d never copied", n, len(c.tiles.copied))
	if all := len(c.tiles.copied); n < all/2 {
		t.Errorf("%d tiles of %d left uncopied: most of a mail map is bare ground", n, all)
	}
	got, _, ok := quantizeFixed(c, bp, nil)
	if !ok || !bytes.Equal(got.Pix, clean.Pix) {
		t.Fatalf("the stale pixels of uncopied tiles changed the map's indices (in the palette: %v)", ok)
	}
	whole := paintedIndexed(t)
	whole.groundAll()
	if whole.tiles != nil {
		t.Fatal("groundAll left tiles to copy")
	}
	want, _, _ := quantizeFixed(whole, bp, nil)
	if !bytes.Equal(want.Pix, clean.Pix) {
		t.Error("the indices differ from those of the ground copied whole")
	}
}

// TestSolidBelowIsTheGround: whether a pixel on a tile's last row is
// solid is judged on the ground's row below when the tile below was not
// copied, not on the canvas's stale pixels there: ten magenta pixels on
// each of the two rows, over stale magenta below, are nine solid ones,
// not eighteen, which would be farPixels or more and leave the palette.
func TestSolidBelowIsTheGround(t *testing.T) {
	sc, _, _, _ := busy(t)
	bp := paletteFor(sc)
	c := paintedIndexed(t)
	tx, ty := bareColumn(t, c)
	x0, y0 := float64(tx*groundBlock+4), float64((ty+1)*tileRows-2)
	c.rect(x0, y0, x0+10, y0+2, rgb(0xff00ff))
	if below := c.tiles.copied[(ty+1)*c.tiles.cols+tx]; below {
		t.Fatal("drawing on a tile's last two rows copied the tile below")
	}
	poison(c)
	if _, _, ok := quantizeFixed(c, bp, nil); !ok {
		t.Error("the map left its palette: the stale pixels below were taken for the ground")
	}
}

// bareColumn finds a tile with the tile below it both never copied.
func bareColumn(t *testing.T, c *canvas) (tx, ty int) {
	tl := c.tiles
	rows := len(tl.copied) / tl.cols
	for ty := 0; ty+1 < rows; ty++ {
		for tx := 0; tx < tl.cols; tx++ {
			if !tl.copied[ty*tl.cols+tx] && !tl.copied[(ty+1)*tl.cols+tx] && (ty+2)*tileRows <= tl.g.Rect.Dy() {
				return tx, ty
			}
		}
	}
	t.Fatal("no two bare tiles one above the other")
	return 0, 0
}

// TestTouchCopiesWhatItMeets: touch copies the tiles a rectangle meets
// and no other, clipped to the ground.
func TestTouchCopiesWhatItMeets(t *testing.T) {
	g := image.NewRGBA(image.Rect(0, 0, 3*groundBlock-5, 2*tileRows))
	for i := range g.Pix {
		g.Pix[i] = byte(i)
	}
	c := &canvas{img: image.NewRGBA(image.Rect(0, 0, g.Rect.Dx(), 3*tileRows)), tiles: newGroundTiles(g)}
	c.touch(image.Rect(groundBlock-1, tileRows, groundBlock+1, 5*tileRows))
	want := []bool{false, false, false, true, true, false}
	for i, w := range want {
		if c.tiles.copied[i] != w {
			t.Fatalf("tiles copied %v, want %v", c.tiles.copied, want)
		}
	}
	for y := 0; y < g.Rect.Dy(); y++ {
		for x := 0; x < g.Rect.Dx(); x++ {
			copied := y >= tileRows && x < 2*groundBlock
			same := c.img.RGBAAt(x, y) == g.RGBAAt(x, y)
			if copied != same {
				t.Fatalf("pixel %d,%d: copied %v, same as the ground %v", x, y, copied, same)
			}
		}
	}
	c.groundAll()
	if !bytes.Equal(c.img.Pix[:len(g.Pix)], g.Pix) {
		t.Error("groundAll did not copy the whole ground")
	}
}
