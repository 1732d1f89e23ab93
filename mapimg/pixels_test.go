package mapimg

import (
	"bytes"
	"crypto/sha256"
	"fmt"
	"os"
	"testing"

	"herald/engine"
)

// TestPixelsAsRecorded holds every shipped battle's maps — at the
// opening and after random legal blocks, as the mail's crop with its
// marks, the army-area crop and the whole map — to the very pixels
// recorded in testdata/pixels.txt (their SHA-256): work on speed must
// not change a pixel, where the golden images allow a few. The
// record was made by the drawing before issue 17's third pass (commit
// 1e9d790), and made again when shapes came to be laid from a coverage
// of bytes (canvas.cover: a blend's channel moved by 2 at most), and
// when the hex numbers came to be drawn with the ground (three maps
// changed, whose numbers under a ring are written twice); a deliberate
// change of the drawing rewrites it with -update.
func TestPixelsAsRecorded(t *testing.T) {
	if raceBuild {
		t.Skip("the same pixels with or without the race detector, twenty times slower with it")
	}
	var got bytes.Buffer
	everyBattle(t, 10, 5, func(name, where string, sc *engine.Scenario, before, after *engine.State, events []engine.Event) {
		for i, opt := range mapOptions(sc, before, after, events) {
			img, err := Render(sc, after, opt)
			if err != nil {
				t.Fatalf("%s %s: %v", name, where, err)
			}
			fmt.Fprintf(&got, "%s %s, options %d: %x\n", name, where, i, sha256.Sum256(img.Pix))
		}
	})
	const file = "testdata/pixels.txt"
	if *update {
		if err := os.WriteFile(file, got.Bytes(), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	want, err := os.ReadFile(file)
	if err != nil {
		t.Fatal(err)
	}
	g, w := bytes.Split(got.Bytes(), []byte("\n")), bytes.Split(want, []byte("\n"))
	if len(g) != len(w) {
		t.Fatalf("%d maps, %d recorded", len(g)-1, len(w)-1)
	}
	for i := range g {
		if !bytes.Equal(g[i], w[i]) {
			t.Errorf("not the recorded pixels: %s\n\twant %s", g[i], w[i])
		}
	}
}
