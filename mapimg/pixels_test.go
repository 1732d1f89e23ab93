package mapimg

import (
	"bytes"
	"crypto/sha256"
	"fmt"
	"math/rand/v2"
	"os"
	"testing"

	"herald/data"
	"herald/engine"
)

// TestPixelsAsRecorded holds every shipped battle's maps — at the
// opening and after random legal blocks, as the mail's crop with its
// marks, the army-area crop and the whole map — to the very pixels
// recorded in testdata/pixels.txt (their SHA-256): work on speed must
// not change a pixel, where the golden images allow a few. The
// record was made by the drawing before issue 17's third pass (commit
// 1e9d790); a deliberate change of the drawing rewrites it with -update.
func TestPixelsAsRecorded(t *testing.T) {
	if raceBuild {
		t.Skip("the same pixels with or without the race detector, twenty times slower with it")
	}
	var got bytes.Buffer
	for _, name := range data.Scenarios() {
		sc, err := data.Scenario(name)
		if err != nil {
			t.Fatal(err)
		}
		r := rand.New(rand.NewPCG(17, uint64(len(name))))
		st := engine.NewState(sc)
		add := func(where string, before, after *engine.State, events []engine.Event) {
			for i, opt := range []Options{ForMail(Marks(sc, before, after, events)), ForMail(nil), {}} {
				img, err := Render(sc, after, opt)
				if err != nil {
					t.Fatalf("%s %s: %v", name, where, err)
				}
				fmt.Fprintf(&got, "%s %s, options %d: %x\n", name, where, i, sha256.Sum256(img.Pix))
			}
		}
		add("opening", st, st, nil)
		for step := 1; step <= 10 && st.Outcome == nil; step++ {
			res, ok := randomBlock(r, sc, st)
			if !ok {
				continue
			}
			if step%5 == 0 {
				add(fmt.Sprintf("block %d", step), st, res.State, res.Events)
			}
			st = res.State
		}
	}
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
