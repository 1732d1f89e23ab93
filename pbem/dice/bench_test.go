package dice

import (
	"bytes"
	"testing"
)

// BenchmarkRoll measures deriving and recording one roll.
func BenchmarkRoll(b *testing.B) {
	fixedSeeds(b, 31)
	_, u, err := NewGame(testKey(b), "ladder-7", "crecy", []string{"English", "French"})
	if err != nil {
		b.Fatal(err)
	}
	bt, err := Begin(u.Chain, u.Next, "French", 1, "ACTIVATE Doria\nEND\nCONTINUE Grimaldi\n")
	if err != nil {
		b.Fatal(err)
	}
	b.ReportAllocs()
	for i := 0; b.Loop(); i++ {
		if _, err := bt.Roll("Continuity DR: Grimaldi (AR 2)"); err != nil {
			b.Fatal(err)
		}
		if i%1024 == 1023 {
			bt.rolls = bt.rolls[:0]
		}
	}
}

// BenchmarkAppend measures appending one roll entry to the hash chain
// (canonical encoding and SHA-256).
func BenchmarkAppend(b *testing.B) {
	c := Chain{Game: "ladder-7"}
	e := Entry{Kind: KindRoll, Seq: 1, Batch: 1, Purpose: "Continuity DR: Grimaldi (AR 2)", Value: 7}
	b.ReportAllocs()
	for b.Loop() {
		if err := c.add(&e); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkClose measures closing a batch of three rolls: the block and
// roll entries, a fresh seed and the Ed25519 seal.
func BenchmarkClose(b *testing.B) {
	key := testKey(b)
	_, u, err := NewGame(key, "ladder-7", "crecy", []string{"English", "French"})
	if err != nil {
		b.Fatal(err)
	}
	b.ReportAllocs()
	for b.Loop() {
		bt, err := Begin(u.Chain, u.Next, "French", 1, "ACTIVATE Doria\nEND\nCONTINUE Grimaldi\n")
		if err != nil {
			b.Fatal(err)
		}
		for range 3 {
			bt.Roll("Continuity DR: Grimaldi (AR 2)")
		}
		if _, err := bt.Close(key, Hash{}, Hash{}); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkVerify measures verifying a 200-roll game's export.
func BenchmarkVerify(b *testing.B) {
	g := genGame(b, 32, 200)
	b.SetBytes(int64(len(g.export)))
	b.ReportAllocs()
	for b.Loop() {
		if _, err := Verify(bytes.NewReader(g.export), Options{}); err != nil {
			b.Fatal(err)
		}
	}
}
