package mapimg

import (
	"testing"
)

// The benchmarks of issue 17's goals for maps: what a mail carries,
// rendered and encoded, exactly as cmd/herald's Config.Map draws it
// (mapimg.PNG of ForMail(Marks(…))). docs/performance.md records them.

// BenchmarkMailMapPNG is a result mail's map: the crop of the busy
// block of the golden tests (goal: ≤ 15 ms).
func BenchmarkMailMapPNG(b *testing.B) {
	sc, before, after, events := busy(b)
	paletteFor(sc) // made once a battle, at its first map (BenchmarkBattlePalette)
	b.ReportAllocs()
	var n int
	c0 := processCPU()
	for b.Loop() {
		png, err := PNG(sc, after, ForMail(Marks(sc, before, after, events)))
		if err != nil {
			b.Fatal(err)
		}
		n = len(png)
	}
	reportCPU(b, c0)
	b.ReportMetric(float64(n), "png-bytes")
}

// BenchmarkWholeMapPNG is the welcome's whole-field map of Crécy at the
// opening (Config.Map with no events: both armies' area, which on Crécy
// is the whole field), also drawn for a block with nothing to show
// (goal: ≤ 40 ms).
func BenchmarkWholeMapPNG(b *testing.B) {
	sc, st := crecy(b)
	paletteFor(sc)
	b.ReportAllocs()
	var n int
	c0 := processCPU()
	for b.Loop() {
		png, err := PNG(sc, st, ForMail(Marks(sc, st, st, nil)))
		if err != nil {
			b.Fatal(err)
		}
		n = len(png)
	}
	reportCPU(b, c0)
	b.ReportMetric(float64(n), "png-bytes")
}

// BenchmarkBattlePalette is the making of a battle's palette from its
// reference pictures, once a battle at its first map.
func BenchmarkBattlePalette(b *testing.B) {
	sc, _ := crecy(b)
	c0 := processCPU()
	for b.Loop() {
		if newBattlePalette(sc) == nil {
			b.Fatal("no palette")
		}
	}
	reportCPU(b, c0)
}
