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
	// A game of D20s and cards (RollN), without checkpoints of its own.
	f.Add(genPlays(f, 24, "fuzz-faces", facesPlays[:2]).export)
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

// FuzzFindRecords feeds arbitrary mail text to FindRecords, seeded with
// real records: it must never panic, and every record it reads must print
// back to text that reads as the same record (what herald verify --mail
// checks is what the mail said).
func FuzzFindRecords(f *testing.F) {
	fixedSeeds(f, 23)
	key := testKey(f)
	h, u, err := NewGame(key, "fuzz-1", "crecy", []string{"English", "French"})
	if err != nil {
		f.Fatal(err)
	}
	f.Add(OpeningRecord(h, u).String())
	b, err := Begin(u.Chain, u.Next, "French", 1, "[English]\nSTANDING SEIZE NEVER\n[French]\nNONCE x\nACTIVATE Doria\nEND\n")
	if err != nil {
		f.Fatal(err)
	}
	b.Roll("Continuity DR: Grimaldi (AR 2)")
	b.RollN("To-hit: Ogre (D20)", 20)
	b.RollN("Card", 54)
	up, err := b.Close(key, Hash{}, Hash{})
	if err != nil {
		f.Fatal(err)
	}
	f.Add("Dice verification\n\n" + BatchRecord(h, up, true).String() + "-- \nHerald\n")
	f.Add(BatchRecord(h, up, false).String())
	f.Add(RecordBegin + "\nversion 2\n" + RecordEnd + "\n")
	f.Fuzz(func(t *testing.T, text string) {
		recs, _, err := FindRecords(text)
		if err != nil {
			return
		}
		for _, r := range recs {
			again, _, err := FindRecords(r.String())
			if err != nil || len(again) != 1 || again[0].String() != r.String() {
				t.Fatalf("FindRecords read %q, which prints as\n%s\nand reads back as %v (%v)", text, r.String(), again, err)
			}
			_ = VerifyRecord(r, nil)
		}
	})
}
