package dice

import (
	"bufio"
	"crypto/sha256"
	"fmt"
	"strconv"
	"strings"
)

// A Record is what one mail carries of a game's dice, so that its reader
// can check every roll in it the moment it arrives, with nothing but the
// mail and the one before it (docs/dice.md, "The record in every mail"):
// the seed, the commitment it answers, the checkpoint the batch follows,
// the hash of the sender's block (and its text, when the reader may see
// it), the rolls, the next commitment and the signed checkpoint after the
// batch. A game's opening mail carries a record of batch 0: the key, the
// first commitment and the opening checkpoint.
type Record struct {
	Version int
	Game    string
	Key     PublicKey
	Batch   uint64
	// For a batch (Batch ≥ 1).
	Side   string
	After  Checkpoint // unsigned
	Commit Hash
	Seed   Hash
	Block  Hash
	Orders []string // the sender's block, a line each; nil when withheld
	Rolls  []Roll
	// For every record.
	Next       Hash
	Checkpoint Checkpoint // signed
}

// The lines that open and close a record in a mail's text.
const (
	RecordBegin = "-----BEGIN HERALD DICE-----"
	RecordEnd   = "-----END HERALD DICE-----"
)

// OpeningRecord is the record of a game's first mail.
func OpeningRecord(h *Header, u *Update) Record {
	return Record{Version: h.Version, Game: h.Game, Key: h.PublicKey, Next: h.Commit, Checkpoint: u.Checkpoint}
}

// BatchRecord is the record of the mail that reports the batch of u, in a
// game of header h. withOrders puts the sender's block in it: leave it out
// of the opponent's copy when the block holds anything secret from him
// (standing orders, orders kept over a decision); he checks the rolls
// against the block's hash all the same, and its text once the log is
// exported.
func BatchRecord(h *Header, u *Update, withOrders bool) Record {
	r := Record{
		Version: h.Version, Game: h.Game, Key: h.PublicKey, Batch: u.Batch,
		Side: u.Side, After: u.After, Commit: u.Commit, Seed: u.Seed, Block: u.Block,
		Rolls: u.Rolls, Next: u.Chain.Commit, Checkpoint: u.Checkpoint,
	}
	if withOrders {
		r.Orders = strings.Split(strings.TrimSuffix(SenderBlock(u.Orders), "\n"), "\n")
	}
	return r
}

// String is the record as a mail prints it, between RecordBegin and
// RecordEnd, each line ending in "\n".
func (r Record) String() string {
	var b strings.Builder
	line := func(k string, v ...string) { b.WriteString(k + " " + strings.Join(v, " ") + "\n") }
	u := func(n uint64) string { return strconv.FormatUint(n, 10) }
	b.WriteString(RecordBegin + "\n")
	line("version", strconv.Itoa(r.Version))
	line("game", r.Game)
	line("key", r.Key.String())
	line("batch", u(r.Batch))
	if r.Batch > 0 {
		line("side", r.Side)
		line("after", u(r.After.Length), r.After.Head.String())
		line("commit", r.Commit.String())
		line("seed", r.Seed.String())
		line("block", r.Block.String())
		for _, o := range r.Orders {
			line("order", o)
		}
		for _, x := range r.Rolls {
			if f := facesOf(x.Faces); f != d10 {
				line("roll", u(x.Seq), u(x.Index), "d"+strconv.Itoa(f), strconv.Itoa(x.Value), x.Purpose)
				continue
			}
			line("roll", u(x.Seq), u(x.Index), strconv.Itoa(x.Value), x.Purpose)
		}
	}
	line("next", r.Next.String())
	sig := ""
	if r.Checkpoint.Sig != nil {
		sig = r.Checkpoint.Sig.String()
	}
	line("checkpoint", u(r.Checkpoint.Length), r.Checkpoint.Head.String(), sig)
	b.WriteString(RecordEnd + "\n")
	return b.String()
}

// RecordError is a record that does not read: its line in the text it
// was found in (from 1) and why.
type RecordError struct {
	Line   int
	Reason string
}

func (e *RecordError) Error() string {
	return fmt.Sprintf("dice record, line %d: %s", e.Line, e.Reason)
}

// FindRecords reads every record in a mail's text, in order, with
// trailing spaces and carriage returns removed from its lines. A record
// quoted in a reply (its lines behind "> ") is not one: only the lines
// Herald wrote count. A record that does not read is an error naming its
// line.
func FindRecords(text string) ([]Record, []int, error) {
	var out []Record
	var at []int
	sc := bufio.NewScanner(strings.NewReader(text))
	sc.Buffer(make([]byte, 0, 64<<10), MaxLine)
	var body []string
	start, in := 0, false
	for n := 1; sc.Scan(); n++ {
		l := strings.TrimRight(sc.Text(), " \t\r")
		switch {
		case !in && l == RecordBegin:
			in, start, body = true, n, nil
		case in && l == RecordEnd:
			r, err := parseRecord(body, start+1)
			if err != nil {
				return out, at, err
			}
			out, at, in = append(out, r), append(at, start), false
		case in:
			body = append(body, l)
		}
	}
	if in {
		return out, at, &RecordError{Line: start, Reason: "no " + RecordEnd + " line after it"}
	}
	return out, at, sc.Err()
}

// parseRecord reads a record's lines; first is the line number of the
// first of them.
func parseRecord(lines []string, first int) (Record, error) {
	var r Record
	p := &recordParser{lines: lines, first: first}
	r.Version = int(p.uint("version"))
	r.Game = p.text("game")
	p.hexInto("key", r.Key[:])
	r.Batch = p.uint("batch")
	if p.err == nil && r.Version != Version {
		return r, &RecordError{Line: first, Reason: fmt.Sprintf("version %d: records exist from version %d on", r.Version, Version)}
	}
	if r.Batch > 0 {
		r.Side = p.text("side")
		r.After = p.checkpoint("after", false)
		p.hexInto("commit", r.Commit[:])
		p.hexInto("seed", r.Seed[:])
		p.hexInto("block", r.Block[:])
		for p.next("order") {
			r.Orders = append(r.Orders, p.rest)
		}
		for p.next("roll") {
			r.Rolls = append(r.Rolls, p.roll(r.Batch))
		}
	}
	p.hexInto("next", r.Next[:])
	r.Checkpoint = p.checkpoint("checkpoint", true)
	if p.err == nil && p.i < len(lines) {
		p.fail("%q after the checkpoint", lines[p.i])
	}
	return r, p.err
}

// recordParser reads a record's lines in their fixed order; its first
// error sticks.
type recordParser struct {
	lines []string
	first int
	i     int
	rest  string // after the keyword, of the line just read
	err   error
}

func (p *recordParser) fail(format string, args ...any) {
	if p.err == nil {
		p.err = &RecordError{Line: p.first + p.i, Reason: fmt.Sprintf(format, args...)}
	}
}

// next reads the next line if it starts with keyword k.
func (p *recordParser) next(k string) bool {
	if p.err != nil || p.i >= len(p.lines) {
		return false
	}
	rest, ok := strings.CutPrefix(p.lines[p.i], k+" ")
	if !ok {
		return false
	}
	p.rest, p.i = rest, p.i+1
	return true
}

// need reads the line of keyword k, which must come next.
func (p *recordParser) need(k string) string {
	if p.err != nil {
		return ""
	}
	if !p.next(k) {
		if p.i >= len(p.lines) {
			p.fail("the record ends where %q was expected", k)
		} else {
			p.fail("%q where %q was expected", p.lines[p.i], k)
		}
		return ""
	}
	return p.rest
}

func (p *recordParser) text(k string) string {
	s := p.need(k)
	if p.err == nil && s == "" {
		p.fail("empty %s", k)
	}
	return s
}

func (p *recordParser) uint(k string) uint64 {
	s := p.need(k)
	if p.err != nil {
		return 0
	}
	return p.number(k, s)
}

func (p *recordParser) number(what, s string) uint64 {
	n, err := strconv.ParseUint(s, 10, 64)
	if err != nil || strconv.FormatUint(n, 10) != s {
		p.i--
		p.fail("%s %q is not a number", what, s)
		p.i++
	}
	return n
}

func (p *recordParser) hexInto(k string, dst []byte) {
	s := p.need(k)
	if p.err == nil {
		p.decode(k, s, dst)
	}
}

func (p *recordParser) decode(what, s string, dst []byte) {
	if err := parseHex(dst, []byte(s), what); err != nil {
		p.i--
		p.fail("%s", strings.TrimPrefix(err.Error(), "dice: "))
		p.i++
	}
}

// checkpoint reads "k LENGTH HEAD [SIG]"; signed says SIG is required.
func (p *recordParser) checkpoint(k string, signed bool) Checkpoint {
	var c Checkpoint
	f := strings.Fields(p.need(k))
	if p.err != nil {
		return c
	}
	want := 2 // LENGTH HEAD
	if signed {
		want = 3 // and SIG
	}
	if len(f) != want {
		p.i--
		p.fail("%s: want %d fields, got %d", k, want, len(f))
		p.i++
		return c
	}
	c.Length = p.number(k+" length", f[0])
	p.decode(k+" head", f[1], c.Head[:])
	if signed {
		c.Sig = new(Signature)
		p.decode(k+" signature", f[2], c.Sig[:])
	}
	return c
}

// roll reads "SEQ INDEX VALUE PURPOSE" (a d10) or "SEQ INDEX dFACES
// VALUE PURPOSE" (p.rest). A value is a number, so the third field tells
// which; "d10" is never written.
func (p *recordParser) roll(batch uint64) Roll {
	bad := func(format string, args ...any) Roll {
		p.i--
		p.fail(format, args...)
		p.i++
		return Roll{}
	}
	f := strings.SplitN(p.rest, " ", 4)
	faces := d10
	if len(f) == 4 && strings.HasPrefix(f[2], "d") {
		f = strings.SplitN(p.rest, " ", 5)
		if len(f) != 5 || f[4] == "" {
			return bad("roll: want SEQ INDEX dFACES VALUE PURPOSE")
		}
		n := p.number("roll faces", f[2][1:])
		switch {
		case p.err != nil:
			return Roll{}
		case n == d10:
			return bad("roll: a d10 is written without %q", f[2])
		case n < MinFaces || n > MaxFaces:
			return bad("roll: %s: a die has %d to %d faces", f[2], MinFaces, MaxFaces)
		}
		faces = int(n)
		f = append(f[:2], f[3:]...)
	}
	if len(f) != 4 || f[3] == "" {
		return bad("roll: want SEQ INDEX VALUE PURPOSE")
	}
	r := Roll{Batch: batch, Seq: p.number("roll seq", f[0]), Index: p.number("roll index", f[1]), Purpose: f[3], Faces: faces}
	r.Value = int(p.number("roll value", f[2]))
	return r
}

// RecordFailure says which record, and where in it, did not verify.
type RecordFailure struct {
	Mail   int    // which of the records checked, from 1
	Line   int    // the record's line in its mail's text (0 when not one)
	Roll   string // "roll #seq, purpose" when a roll failed
	Reason string
}

func (f *RecordFailure) Error() string {
	where := fmt.Sprintf("mail %d", f.Mail)
	if f.Roll != "" {
		where += " (" + f.Roll + ")"
	}
	return where + ": " + f.Reason
}

// VerifyRecord checks one record on its own: the checkpoint's signature
// (under key, when given, else the record's own key), and for a batch the
// seed against its commitment, the sender's block against its hash when
// the record holds it, and every roll's value, index and sequence.
func VerifyRecord(r Record, key *PublicKey) error {
	if key != nil && *key != r.Key {
		return &RecordFailure{Reason: fmt.Sprintf("installation key %s, but the game's first mail gave %s", r.Key, *key)}
	}
	cp := r.Checkpoint
	if cp.Sig == nil || !VerifyCheckpoint(r.Key, r.Game, cp.Length, cp.Head, *cp.Sig) {
		return &RecordFailure{Reason: fmt.Sprintf("the signature of checkpoint %d:%s is not the installation key's (%s)", cp.Length, cp.Head, r.Key)}
	}
	if r.Batch == 0 {
		return nil
	}
	if c := sha256.Sum256(r.Seed[:]); c != r.Commit {
		return &RecordFailure{Reason: fmt.Sprintf("seed %s hashes to %s, but the commitment it answers is %s", r.Seed, Hash(c), r.Commit)}
	}
	if r.Orders != nil {
		if h := sha256.Sum256([]byte(strings.Join(r.Orders, "\n") + "\n")); h != r.Block {
			return &RecordFailure{Reason: fmt.Sprintf("block %s, but the orders shown hash to %s", r.Block, Hash(h))}
		}
	}
	d := newDeriver(r.Seed)
	for i, x := range r.Rolls {
		fail := func(format string, args ...any) error {
			return &RecordFailure{Roll: fmt.Sprintf("roll #%d, %s", x.Seq, x.Purpose), Reason: fmt.Sprintf(format, args...)}
		}
		if x.Index != uint64(i) {
			return fail("index %d, want %d", x.Index, i)
		}
		if i > 0 && x.Seq != r.Rolls[i-1].Seq+1 {
			return fail("seq %d, want %d: a roll was dropped or repeated", x.Seq, r.Rolls[i-1].Seq+1)
		}
		faces := facesOf(x.Faces)
		if err := checkFaces(faces); err != nil {
			return fail("%s", err)
		}
		if x.Value < 0 || x.Value >= faces {
			return fail("value %d is not a face of a d%d", x.Value, faces)
		}
		if want := d.deriveN(r.Game, r.Batch, x.Index, x.Purpose, r.Block, r.After, faces); x.Value != want {
			return fail("value %d, but the seed and the orders give %d", x.Value, want)
		}
	}
	return nil
}

// Follows checks that record r continues the game from prev, the record
// of the mail before it: the same game and key, the next batch, the
// checkpoint and the commitment prev published, and the roll numbers
// after prev's. A batch between the two that the reader was never mailed
// (inserted, or one of his own orders dropped) fails here.
func Follows(prev, r Record) error {
	fail := func(format string, args ...any) error {
		return &RecordFailure{Reason: fmt.Sprintf(format, args...)}
	}
	switch {
	case r.Game != prev.Game:
		return fail("game %q, but the mail before is of game %q", r.Game, prev.Game)
	case r.Key != prev.Key:
		return fail("installation key %s, but the mail before gave %s", r.Key, prev.Key)
	case r.Batch != prev.Batch+1:
		return fail("batch %d, but the mail before reported batch %d: a batch in between was never mailed to you", r.Batch, prev.Batch)
	case r.After.Length != prev.Checkpoint.Length || r.After.Head != prev.Checkpoint.Head:
		return fail("it follows checkpoint %d:%s, but the mail before ended at %d:%s: the log was changed in between", r.After.Length, r.After.Head, prev.Checkpoint.Length, prev.Checkpoint.Head)
	case r.Commit != prev.Next:
		return fail("its seed answers commitment %s, but the mail before committed %s", r.Commit, prev.Next)
	}
	if len(r.Rolls) > 0 {
		last := uint64(0)
		if n := len(prev.Rolls); n > 0 {
			last = prev.Rolls[n-1].Seq
		} else if prev.Batch > 0 {
			return nil // the mail before rolled nothing: its last seq is not in it
		}
		if r.Rolls[0].Seq != last+1 {
			return fail("its first roll is #%d, but the mail before ended at #%d", r.Rolls[0].Seq, last)
		}
	}
	return nil
}
