package dice

import (
	"cmp"
	"errors"
	"fmt"
	"reflect"
	"regexp"
	"slices"
	"strings"
	"testing"
)

// mailPlay is one batch of a game whose mails carry dice records: who
// sends what, and whether his block is in the record.
type mailPlay struct {
	side, orders string
	withOrders   bool
}

// mailPlays has batches with and without rolls, one with standing orders
// queued before the sender's block, and one whose block is withheld.
var mailPlays = []mailPlay{
	{"French", "ACTIVATE Doria\nROLL Continuity DR: Doria (AR 2)\n", true},
	{"English", "ROLL Seizure DR: Édouard → Crécy 😀\nROLL Fire DR: LB5 at CB2\n", true},
	{"French", "[English]\nSTANDING SEIZE NEVER\n[French]\nACTIVATE Doria\nROLL Continuity DR: Doria (AR 3)\nEND\n", true},
	{"English", "ACTIVATE Northampton\nEND\n", true},
	{"French", "STANDING SEIZE ALWAYS\nROLL Loss Check: French (Flight Level 12)\n", false},
	{"English", "ACTIVATE Edward\nROLL Fire DR: LB5 at CB3\nROLL Fire DR: LB6 at CB3\nROLL Charge\ttest\n", true},
}

// playMails plays mailPlays on a fresh game and returns its header and the
// records its mails carry: the opening mail's, then one per batch.
func playMails(t *testing.T, stream uint64) (*Header, []Record) {
	t.Helper()
	h, _, records := playGame(t, stream, "mail-1", mailPlays)
	return h, records
}

// playGame plays batches on a fresh game with the fixed test key and the
// seeds of stream, as an honest (or a cheating) installation would, and
// returns the header, the log and the records the mails carried. Each
// sender's block rolls one die per line "ROLL purpose" (a d10) or
// "ROLLN faces purpose".
func playGame(t *testing.T, stream uint64, game string, plays []mailPlay) (*Header, []Entry, []Record) {
	t.Helper()
	fixedSeeds(t, stream)
	key := testKey(t)
	h, u, err := NewGame(key, game, "crecy", []string{"English", "French"})
	if err != nil {
		t.Fatal(err)
	}
	entries := u.Entries
	records := []Record{OpeningRecord(h, u)}
	chain, seed := u.Chain, u.Next
	for i, p := range plays {
		b, err := Begin(chain, seed, p.side, uint64(i+1), p.orders)
		if err != nil {
			t.Fatal(err)
		}
		for _, l := range strings.Split(SenderBlock(p.orders), "\n") {
			if faces, purpose, ok := rollLine(l); ok {
				if _, err := b.RollN(purpose, faces); err != nil {
					t.Fatal(err)
				}
			}
		}
		up, err := b.Close(key, Hash{byte(i)}, Hash{byte(i), 1})
		if err != nil {
			t.Fatal(err)
		}
		entries = append(entries, up.Entries...)
		records = append(records, BatchRecord(h, up, p.withOrders))
		chain, seed = up.Chain, up.Next
	}
	return h, entries, records
}

// mailText is the text of a mail around a record, with CRLF line ends as
// a saved mail has them.
func mailText(r Record) string {
	text := fmt.Sprintf("Game %s, batch %d.\n\nDice verification\n  seq  die  purpose\n\n%s\n-- \nHerald\n", r.Game, r.Batch, r.String())
	return strings.ReplaceAll(text, "\n", "\r\n")
}

// recordLine is the line of the record's BEGIN marker in mailText.
const recordLine = 6

// checkMails checks the records in the texts of mails as a player's
// verifier does (docs/dice.md, "Checking one mail"): every record on its
// own, then, taken by batch, each following the one before. It returns
// the first failing mail (from 1), its record's line, and why; 0, 0, nil
// when all verify.
func checkMails(texts []string, key *PublicKey) (mail, line int, err error) {
	type found struct {
		mail, line int
		r          Record
	}
	var all []found
	for i, text := range texts {
		rs, at, err := FindRecords(text)
		if err != nil {
			var re *RecordError
			if errors.As(err, &re) {
				return i + 1, re.Line, err
			}
			return i + 1, 0, err
		}
		if len(rs) == 0 {
			return i + 1, 0, errors.New("no dice record")
		}
		for j := range rs {
			all = append(all, found{i + 1, at[j], rs[j]})
		}
	}
	for _, f := range all {
		if err := VerifyRecord(f.r, key); err != nil {
			return f.mail, f.line, err
		}
	}
	slices.SortStableFunc(all, func(a, b found) int { return cmp.Compare(a.r.Batch, b.r.Batch) })
	for i := 1; i < len(all); i++ {
		if err := Follows(all[i-1].r, all[i].r); err != nil {
			return all[i].mail, all[i].line, err
		}
	}
	return 0, 0, nil
}

// mailTamper is a change to a game's mails and the failure it must cause.
type mailTamper struct {
	name  string
	texts []string
	mail  int    // the mail that must fail, from 1
	roll  string // "roll #SEQ, PURPOSE" when a roll must fail
}

// changeLine changes one byte of the first line of mail n's text (from 0)
// that re matches: the byte at the end of re's first group, the next
// digit (or hex digit, or letter).
func changeLine(t *testing.T, texts []string, n int, re string) []string {
	t.Helper()
	m := regexp.MustCompile(re).FindStringSubmatchIndex(texts[n])
	if m == nil {
		t.Fatalf("mail %d: no line matches %s", n+1, re)
	}
	out := slices.Clone(texts)
	b := []byte(out[n])
	i := m[3] - 1
	switch c := b[i]; {
	case c == '9':
		b[i] = '0'
	case c == 'f':
		b[i] = 'a'
	case c == 'Z':
		b[i] = 'A'
	default:
		b[i] = c + 1
	}
	out[n] = string(b)
	return out
}

// mailTampers are one-byte changes of a roll value, a seed, an order line
// and a checkpoint signature, and a mail left out (a batch gap).
func mailTampers(t *testing.T, records []Record) []mailTamper {
	t.Helper()
	var texts []string
	for _, r := range records {
		texts = append(texts, mailText(r))
	}
	x := records[6].Rolls[1]
	return []mailTamper{
		{"roll value", changeLine(t, texts, 6, `(?m)^roll \d+ 1 (\d)`), 7, fmt.Sprintf("roll #%d, %s", x.Seq, x.Purpose)},
		{"seed", changeLine(t, texts, 2, `(?m)^seed ([0-9a-f])`), 3, ""},
		{"order line", changeLine(t, texts, 3, `(?m)^order ACTIVATE (D)`), 4, ""},
		{"checkpoint signature", changeLine(t, texts, 4, `(?m)^checkpoint \d+ [0-9a-f]+ [0-9a-f]{10}([0-9a-f])`), 5, ""},
		{"opening checkpoint signature", changeLine(t, texts, 0, `(?m)^checkpoint \d+ [0-9a-f]+ [0-9a-f]{127}([0-9a-f])`), 1, ""},
		{"a mail left out", slices.Delete(slices.Clone(texts), 3, 4), 4, ""},
	}
}

func TestRecordRoundTrip(t *testing.T) {
	_, records := playMails(t, 21)
	var all strings.Builder
	for i, r := range records {
		got, at, err := FindRecords(mailText(r))
		if err != nil || len(got) != 1 || at[0] != recordLine {
			t.Fatalf("record %d: FindRecords = %d records at %v, %v", i, len(got), at, err)
		}
		if !reflect.DeepEqual(got[0], r) {
			t.Errorf("record %d: read back\n%+v\nwant\n%+v", i, got[0], r)
		}
		// Trailing spaces are no part of a record; text around it is none either.
		all.WriteString("> quoted reply\n" + strings.ReplaceAll(r.String(), "\n", "  \n"))
	}
	got, at, err := FindRecords(all.String())
	if err != nil || !reflect.DeepEqual(got, records) {
		t.Fatalf("all records in one text: %d records, %v; want %d", len(got), err, len(records))
	}
	if at[0] != 2 || at[1] != 2+len(strings.Split(records[0].String(), "\n")) {
		t.Errorf("records at lines %v", at)
	}
	// What the records hold.
	if r := records[3]; r.Batch != 3 || !slices.Equal(r.Orders, []string{"ACTIVATE Doria", "ROLL Continuity DR: Doria (AR 3)", "END"}) || len(r.Rolls) != 1 {
		t.Errorf("the record of the batch with queued standing orders: %+v", r)
	}
	if r := records[5]; r.Orders != nil || len(r.Rolls) != 1 {
		t.Errorf("the record of a withheld block: %+v", r)
	}
	if r := records[4]; len(r.Rolls) != 0 {
		t.Errorf("the record of a batch without rolls: %+v", r)
	}
}

func TestRecordVerify(t *testing.T) {
	h, records := playMails(t, 22)
	var texts []string
	for _, r := range records {
		texts = append(texts, mailText(r))
	}
	if mail, _, err := checkMails(texts, &h.PublicKey); err != nil {
		t.Fatalf("untampered mails: mail %d: %v", mail, err)
	}
	// In any order.
	rev := slices.Clone(texts)
	slices.Reverse(rev)
	if mail, _, err := checkMails(rev, nil); err != nil {
		t.Fatalf("untampered mails in reverse: mail %d: %v", mail, err)
	}
	if mail, _, err := checkMails(texts, &PublicKey{1}); mail != 1 || err == nil {
		t.Errorf("another key: mail %d, %v", mail, err)
	}
	for _, c := range mailTampers(t, records) {
		mail, line, err := checkMails(c.texts, nil)
		var f *RecordFailure
		switch {
		case err == nil:
			t.Errorf("%s: every mail verifies", c.name)
		case !errors.As(err, &f):
			t.Errorf("%s: %v, want a RecordFailure", c.name, err)
		case mail != c.mail || line != recordLine || f.Roll != c.roll:
			t.Errorf("%s: mail %d, line %d (%s): %v; want mail %d (%s)", c.name, mail, line, f.Roll, err, c.mail, c.roll)
		}
	}
}

func TestFollows(t *testing.T) {
	_, records := playMails(t, 23)
	for i := 1; i < len(records); i++ {
		if err := Follows(records[i-1], records[i]); err != nil {
			t.Errorf("record %d after %d: %v", i, i-1, err)
		}
	}
	prev, r := records[1], records[2]
	for name, c := range map[string]struct {
		change func(r *Record)
		want   string
	}{
		"another game":       {func(r *Record) { r.Game = "mail-2" }, "game"},
		"another key":        {func(r *Record) { r.Key[0] ^= 1 }, "installation key"},
		"a batch left out":   {func(r *Record) { r.Batch++ }, "a batch in between was never mailed to you"},
		"the same batch":     {func(r *Record) { r.Batch-- }, "a batch in between"},
		"another length":     {func(r *Record) { r.After.Length++ }, "the log was changed in between"},
		"another head":       {func(r *Record) { r.After.Head[31] ^= 1 }, "the log was changed in between"},
		"another commitment": {func(r *Record) { r.Commit[0] ^= 1 }, "commitment"},
		"a roll left out":    {func(r *Record) { r.Rolls = slices.Clone(r.Rolls); r.Rolls[0].Seq++ }, "the mail before ended at #"},
	} {
		x := r
		c.change(&x)
		if err := Follows(prev, x); err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%s: Follows = %v, want %q", name, err, c.want)
		}
	}
	// After a batch without rolls, any first seq follows; after the
	// opening, the first roll is #1.
	if len(records[4].Rolls) != 0 {
		t.Fatal("records[4] rolls")
	}
	x := records[5]
	x.Rolls = slices.Clone(x.Rolls)
	x.Rolls[0].Seq += 5
	if err := Follows(records[4], x); err != nil {
		t.Errorf("after a batch without rolls: %v", err)
	}
	x = records[1]
	x.Rolls = slices.Clone(x.Rolls)
	x.Rolls[0].Seq = 2
	if err := Follows(records[0], x); err == nil {
		t.Error("first roll #2 after the opening: Follows = nil")
	}
}

func TestVerifyRecordFailures(t *testing.T) {
	_, records := playMails(t, 24)
	r := records[2]
	for name, c := range map[string]struct {
		change func(r *Record)
		roll   bool
		want   string
	}{
		"checkpoint length": {func(r *Record) { r.Checkpoint.Length++ }, false, "signature"},
		"no signature":      {func(r *Record) { r.Checkpoint.Sig = nil }, false, "signature"},
		"seed":              {func(r *Record) { r.Seed[0] ^= 1 }, false, "commitment"},
		"block":             {func(r *Record) { r.Block[0] ^= 1 }, true, "give"}, // no orders shown? see below
		"orders":            {func(r *Record) { r.Orders = append(slices.Clone(r.Orders), "END") }, false, "the orders shown hash"},
		"after":             {func(r *Record) { r.After.Length++ }, true, "give"},
		"index":             {func(r *Record) { r.Rolls = slices.Clone(r.Rolls); r.Rolls[1].Index = 0 }, true, "index"},
		"seq":               {func(r *Record) { r.Rolls = slices.Clone(r.Rolls); r.Rolls[1].Seq++ }, true, "dropped or repeated"},
		"value 10":          {func(r *Record) { r.Rolls = slices.Clone(r.Rolls); r.Rolls[1].Value = 10 }, true, "not a face"},
		"purpose":           {func(r *Record) { r.Rolls = slices.Clone(r.Rolls); r.Rolls[1].Purpose += " " }, true, "give"},
	} {
		x := r
		if name == "block" {
			x.Orders = nil // withheld: the rolls still bind the block's hash
		}
		c.change(&x)
		err := VerifyRecord(x, nil)
		var f *RecordFailure
		if !errors.As(err, &f) || !strings.Contains(f.Reason, c.want) || (f.Roll != "") != c.roll {
			t.Errorf("%s: VerifyRecord = %v (roll %q), want %q", name, err, f.Roll, c.want)
		}
	}
}

func TestFindRecordsRefuses(t *testing.T) {
	_, records := playMails(t, 25)
	good := records[2].String()
	lines := strings.Split(strings.TrimSuffix(good, "\n"), "\n")
	at := func(k string) int { // the line of keyword k in "intro\n" + the record
		for i, l := range lines {
			if strings.HasPrefix(l, k+" ") {
				return i + 2
			}
		}
		t.Fatalf("no %s line", k)
		return 0
	}
	for name, c := range map[string]struct {
		from, to string
		line     int
	}{
		"no end":               {RecordEnd + "\n", "", 2},
		"version 1":            {"version 2\n", "version 1\n", 3},
		"version 02":           {"version 2\n", "version 02\n", 3},
		"batch +2":             {"batch 2\n", "batch +2\n", at("batch")},
		"empty game":           {"game mail-1\n", "game \n", at("game")},
		"uppercase hex":        {"seed ", "seed A", at("seed")},
		"short key":            {"key ", "key 0", at("key")},
		"lines swapped":        {"commit ", "kommit ", at("commit")},
		"unsigned":             {"\ncheckpoint ", "\ncheckpoint 1 ", at("checkpoint")},
		"roll without purpose": {"roll 2 0 ", "roll 2 0 5\nroll 2 0 ", at("roll")},
		"a line after":         {RecordEnd, "extra\n" + RecordEnd, len(lines) + 1},
		"after with 3 fields":  {"\nafter ", "\nafter 1 ", at("after")},
	} {
		if !strings.Contains(good, c.from) {
			t.Fatalf("%s: %q not in the record", name, c.from)
		}
		text := "intro\n" + strings.Replace(good, c.from, c.to, 1)
		_, _, err := FindRecords(text)
		var re *RecordError
		if !errors.As(err, &re) || re.Line != c.line {
			t.Errorf("%s: FindRecords = %v, want an error at line %d", name, err, c.line)
		}
	}
}
