package mapimg

import (
	"bytes"
	"image/png"
	"testing"
)

// A mail map's bytes are the same whether its legend lines' segments
// were compressed for it or kept from an earlier map, and the map
// decodes (its Adler-32 joined over the segments checks out).
func TestSegmentsSameBytes(t *testing.T) {
	sc, before, after, events := busy(t)
	opt := ForMail(Marks(sc, before, after, events))
	forgetCaches()
	cold, err := PNG(sc, after, opt)
	if err != nil {
		t.Fatal(err)
	}
	kept := 0
	bands.RLock()
	for _, b := range bands.m {
		kept += len(b.segments.l)
	}
	bands.RUnlock()
	if kept < 10 {
		t.Fatalf("%d segments kept, want the legend's lines'", kept)
	}
	if _, err := PNG(sc, before, ForMail(nil)); err != nil { // other lines, another width
		t.Fatal(err)
	}
	warm, err := PNG(sc, after, opt)
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(cold, warm) {
		t.Fatal("the map's bytes differ with its segments kept")
	}
	if _, err := png.Decode(bytes.NewReader(warm)); err != nil {
		t.Fatal(err)
	}
}
