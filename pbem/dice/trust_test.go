package dice

import (
	"bytes"
	"crypto/sha256"
	"strings"
	"testing"
)

// The threat model of docs/dice.md, line by line: what an operator who
// holds the key, the seeds and the mail can and cannot do unnoticed.

// play is one batch of a history: who sends what.
type play struct{ side, orders string }

// history plays batches on a fresh game (playGame) and returns the export
// and the records the mails carried.
func history(t *testing.T, stream uint64, plays []play) ([]byte, []Record) {
	t.Helper()
	var mp []mailPlay
	for _, p := range plays {
		mp = append(mp, mailPlay{side: p.side, orders: p.orders, withOrders: true})
	}
	h, entries, records := playGame(t, stream, "trust-1", mp)
	var buf bytes.Buffer
	if err := WriteExport(&buf, h, entries); err != nil {
		t.Fatal(err)
	}
	return buf.Bytes(), records
}

var honest = []play{
	{"French", "ACTIVATE Doria\nROLL Continuity DR: Doria\n"},
	{"English", "ROLL Seizure DR: Edward\n"},
	{"French", "ACTIVATE Grimaldi\nROLL Fire DR: CB2 at LB5\nROLL Fire DR: CB3 at LB5\n"},
	{"English", "ACTIVATE Northampton\nROLL Fire DR: LB5 at CB2\n"},
}

// checkpoints are those a player copies from his mails.
func checkpoints(records []Record) []Checkpoint {
	var out []Checkpoint
	for _, r := range records {
		out = append(out, r.Checkpoint)
	}
	return out
}

// A roll depends on the sender's own block and on the checkpoint he saw,
// not on standing orders queued before his block: a copy of a standing
// orders mail slipped into the queue (the re-roll of issue 15, finding 1)
// changes no die.
func TestRollIgnoresQueuedStandingOrders(t *testing.T) {
	own := "ACTIVATE Doria\nEND\nCONTINUE Grimaldi\n"
	var values [][]int
	for _, orders := range []string{
		own,
		"[French]\n" + own,
		"[English]\nSTANDING SEIZE NEVER\n[French]\n" + own,
		"[English]\nSTANDING SEIZE NEVER\n[English]\nSTANDING SEIZE NEVER\n[French]\n" + own,
	} {
		fixedSeeds(t, 9)
		_, u, err := NewGame(testKey(t), "trust-1", "crecy", []string{"English", "French"})
		if err != nil {
			t.Fatal(err)
		}
		b, err := Begin(u.Chain, u.Next, "French", 1, orders)
		if err != nil {
			t.Fatal(err)
		}
		var v []int
		for i := range 8 {
			x, _ := b.Roll("Continuity DR: Grimaldi (AR 2) #" + string(rune('0'+i)))
			v = append(v, x)
		}
		values = append(values, v)
	}
	for i := 1; i < len(values); i++ {
		if !equalInts(values[i], values[0]) {
			t.Errorf("queued text %d changed the rolls: %v, want %v", i, values[i], values[0])
		}
	}
	// …but the sender's own block and the checkpoint do.
	seed := Seed(sha256.Sum256([]byte("s")))
	base := DeriveV2(seed, "g", 1, 0, "p", sha256.Sum256([]byte(own)), Checkpoint{Length: 0})
	differs := 0
	for i := range 40 {
		after := Checkpoint{Length: uint64(i + 1)}
		if DeriveV2(seed, "g", 1, 0, "p", sha256.Sum256([]byte(own)), after) != base {
			differs++
		}
	}
	if differs < 20 {
		t.Errorf("only %d of 40 other checkpoints changed the roll", differs)
	}
}

func equalInts(a, b []int) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if a[i] != b[i] {
			return false
		}
	}
	return true
}

// An operator who rewrites history after the mails went out (a batch
// inserted, one dropped, two swapped), signing the new export with his
// own key so that it is consistent in itself, is caught by the
// checkpoints of either player's mails; and the mails of a history with a
// batch slipped in between two of them do not follow each other.
func TestOperatorRewritesCaughtByTheMails(t *testing.T) {
	export, mails := history(t, 1, honest)
	if rep, err := Verify(bytes.NewReader(export), Options{Checkpoints: checkpoints(mails)}); err != nil {
		t.Fatalf("the honest game fails: %v\n%s", err, rep)
	}
	for i := 1; i < len(mails); i++ {
		if err := VerifyRecord(mails[i], nil); err != nil {
			t.Errorf("honest mail %d: %v", i, err)
		}
		if err := Follows(mails[i-1], mails[i]); err != nil {
			t.Errorf("honest mail %d does not follow %d: %v", i, i-1, err)
		}
	}
	forged := play{"English", "STANDING SEIZE ALWAYS\n"}
	for _, c := range []struct {
		name  string
		plays []play
	}{
		{"a batch inserted", []play{honest[0], forged, honest[1], honest[2], honest[3]}},
		{"a batch dropped", []play{honest[0], honest[2], honest[3]}},
		{"two batches swapped", []play{honest[0], honest[2], honest[1], honest[3]}},
		{"a block reworded", []play{honest[0], {"English", "ROLL Seizure DR: Edward\n# again\n"}, honest[2], honest[3]}},
	} {
		t.Run(c.name, func(t *testing.T) {
			altered, _ := history(t, 1, c.plays)
			rep, err := Verify(bytes.NewReader(altered), Options{})
			if err != nil {
				t.Fatalf("the altered export should be consistent in itself: %v\n%s", err, rep)
			}
			rep, err = Verify(bytes.NewReader(altered), Options{Checkpoints: checkpoints(mails)})
			if err == nil || !strings.Contains(rep.Failure.Reason, "the log was rewritten") && !strings.Contains(rep.Failure.Reason, "entries were removed") {
				t.Errorf("the players' checkpoints did not catch it: %v\n%s", err, rep)
			}
		})
	}
	// A batch slipped in and mailed to one player only: the other's next
	// mail does not follow his last.
	_, records := history(t, 1, []play{honest[0], forged, honest[1]})
	err := Follows(mails[1], records[3])
	if err == nil || !strings.Contains(err.Error(), "a batch in between was never mailed to you") {
		t.Errorf("a hidden batch: Follows = %v", err)
	}
	// A batch mailed with another checkpoint than the one it follows, or
	// another commitment, does not follow either.
	r := mails[2]
	r.After.Length++
	if err := Follows(mails[1], r); err == nil || !strings.Contains(err.Error(), "the log was changed in between") {
		t.Errorf("another checkpoint: Follows = %v", err)
	}
	r = mails[2]
	r.Commit[0] ^= 1
	if err := Follows(mails[1], r); err == nil {
		t.Errorf("another commitment: Follows = nil")
	}
}
