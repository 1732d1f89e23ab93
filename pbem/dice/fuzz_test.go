package dice

import (
	"bytes"
	"testing"
)

// FuzzVerify feeds arbitrary exports to Verify, seeded with a real game
// and damaged versions of it: Verify must never panic, and must report
// either success or a failure naming an entry no further than one past the
// last line.
func FuzzVerify(f *testing.F) {
	g := genGame(f, 21, 6)
	f.Add(g.export)
	f.Add(g.export[:len(g.export)/2])
	f.Add([]byte{})
	f.Add([]byte("\n"))
	f.Add([]byte("{}\n{}\n"))
	// No 1 MiB line (MaxLine): the fuzzer would spend its time mutating
	// and minimizing it; verify_test.go holds that case.
	flipped := append([]byte(nil), g.export...)
	flipped[len(flipped)/3] ^= 1
	f.Add(flipped)
	cps := g.checkpoints()
	f.Fuzz(func(t *testing.T, data []byte) {
		rep, err := Verify(bytes.NewReader(data), Options{Checkpoints: cps[:2], Replayer: fakeReplayer{}})
		if rep == nil {
			t.Fatal("Verify returned a nil report")
		}
		lines := uint64(bytes.Count(data, []byte{'\n'}))
		if err == nil {
			if rep.Failure != nil || rep.Entries+1 != lines {
				t.Fatalf("Verify = OK with %d entries over %d lines, failure %v", rep.Entries, lines, rep.Failure)
			}
			return
		}
		if rep.Failure == nil || rep.Failure.Entry > lines+1 {
			t.Fatalf("Verify = %v, report failure %v over %d lines", err, rep.Failure, lines)
		}
	})
}

// FuzzParseEntry checks that whatever ParseEntry accepts encodes back to
// the same bytes.
func FuzzParseEntry(f *testing.F) {
	g := genGame(f, 22, 4)
	for _, e := range g.entries {
		l, _ := e.Line()
		f.Add(l)
	}
	f.Fuzz(func(t *testing.T, line []byte) {
		e, err := ParseEntry(line)
		if err != nil {
			return
		}
		back, err := e.Line()
		if err != nil || !bytes.Equal(back, line) {
			t.Fatalf("ParseEntry(%q) accepted it, but it encodes to %q (%v)", line, back, err)
		}
	})
}
