package dice

import (
	"bufio"
	"crypto/sha256"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"slices"
	"strings"
)

// MaxLine is the longest line (without its newline) an export may hold.
const MaxLine = 1 << 20

// Options are what Verify checks a game against beyond its export.
type Options struct {
	// Checkpoints are (length, head) pairs from the player's mailbox: the
	// chain must pass through each. A checkpoint with Sig must also carry
	// the installation's signature.
	Checkpoints []Checkpoint
	// PublicKey, when set, is the installation key from the game's first
	// mail; the export's header must name it.
	PublicKey *PublicKey
	// Replayer, when set, replays the order blocks through the rules
	// engine once everything else has passed.
	Replayer Replayer
}

// Replayer re-applies a game's order blocks through the rules engine, so
// that Verify can check that the logged orders and rolls produce exactly
// the logged events and states.
type Replayer interface {
	// Replay applies blocks in order, from the opening position of the
	// header's scenario, block i with the dice rolls.Dice(i), and returns
	// the Digest of each block applied. It may stop early with an error
	// (an order that no longer parses, an engine error); the digests
	// returned until then are still compared.
	Replay(h Header, blocks []AppliedBlock, rolls RollSource) ([]Digest, error)
}

// RollSource hands the engine the logged rolls during a replay.
type RollSource interface {
	// Dice returns the dice of blocks[i]: each Roll or RollN returns the
	// next logged roll of the block's batch, and fails if the engine asks
	// for a different purpose, a die of other faces (Roll asks for a d10)
	// or more rolls than were logged. Calling it again for the same block
	// returns the same dice.
	Dice(block int) Die
}

// Die is what rolls a die for a purpose: Roll a d10 (0–9), RollN a die of
// 2 to 256 faces (0 to faces−1). It has the method sets of engine.Dice
// (Roll) and system.Dice, so a Batch or RollSource.Dice(i) can be handed
// straight to engine.Apply or a game system; it is declared here so that
// this package depends on neither.
type Die interface {
	Roll(purpose string) (int, error)
	RollN(purpose string, faces int) (int, error)
}

// AppliedBlock is an order block as its log entry records it.
type AppliedBlock struct {
	Entry        uint64 `json:"entry"` // index of the block entry
	Batch        uint64 `json:"batch"`
	Side         string `json:"side"`
	Move         uint64 `json:"move"`
	Orders       string `json:"orders"`
	Rolls        []Roll `json:"rolls"`
	EventsSHA256 Hash   `json:"events_sha256"`
	StateSHA256  Hash   `json:"state_sha256"`
}

// Digest is what replaying one block produced: EventsSHA256 of its events
// and SHA-256 of the encoded state after it.
type Digest struct {
	EventsSHA256 Hash `json:"events_sha256"`
	StateSHA256  Hash `json:"state_sha256"`
}

// Report is the outcome of Verify: a summary of what was checked and, if
// the export failed, the first entry that did.
type Report struct {
	Game      string    `json:"game"`
	Scenario  string    `json:"scenario"`
	Sides     []string  `json:"sides"`
	PublicKey PublicKey `json:"public_key"`
	// Counts of the entries that passed.
	Entries uint64 `json:"entries"`
	Batches uint64 `json:"batches"`
	Blocks  uint64 `json:"blocks"`
	Rolls   uint64 `json:"rolls"`
	Seals   uint64 `json:"seals"`
	Head    Hash   `json:"head"` // chain head after the last entry that passed
	// Checkpoints is how many of Options.Checkpoints were matched.
	Checkpoints int  `json:"checkpoints"`
	Replayed    bool `json:"replayed"` // the engine replay ran and agreed
	// ReplaySkipped says why a Replayer given was not run.
	ReplaySkipped string `json:"replay_skipped,omitempty"`
	// Draws counts the hidden draws, Plays the counters played from them,
	// and Hidden names the sides whose draws the export does not reveal
	// yet (their plays are checked once it does).
	Draws  int      `json:"draws,omitempty"`
	Plays  int      `json:"plays,omitempty"`
	Hidden []string `json:"hidden,omitempty"`
	// Tally counts the faces of the rolls that passed.
	Tally   Tally    `json:"tally"`
	Failure *Failure `json:"failure,omitempty"`
}

// OK reports whether the export passed.
func (r *Report) OK() bool { return r.Failure == nil }

// String is the report in a few lines for people.
func (r *Report) String() string {
	var b strings.Builder
	if r.OK() {
		fmt.Fprintf(&b, "OK: game %q (%s): %d entries, %d batches, %d blocks, %d rolls, %d seals; head %d:%s\n",
			r.Game, r.Scenario, r.Entries, r.Batches, r.Blocks, r.Rolls, r.Seals, r.Entries, r.Head)
	} else {
		fmt.Fprintf(&b, "FAILED: %s\n", strings.TrimPrefix(r.Failure.Error(), "dice: "))
		fmt.Fprintf(&b, "before it: %d entries, %d batches, %d rolls passed\n", r.Entries, r.Batches, r.Rolls)
	}
	fmt.Fprintf(&b, "checkpoints matched: %d\n", r.Checkpoints)
	if r.Draws > 0 {
		fmt.Fprintf(&b, "hidden draws: %d, counters played: %d", r.Draws, r.Plays)
		if len(r.Hidden) > 0 {
			fmt.Fprintf(&b, "; not revealed yet (the game is not over): %s", strings.Join(r.Hidden, ", "))
		} else {
			b.WriteString("; every play is in its side's revealed draw")
		}
		b.WriteString("\n")
	}
	if r.Replayed {
		b.WriteString("engine replay: every block reproduced its events and state\n")
	}
	if r.ReplaySkipped != "" {
		fmt.Fprintf(&b, "engine replay not run: %s\n", r.ReplaySkipped)
	}
	return b.String()
}

// Failure names the first entry of an export that fails verification.
// Entry 0 is the header; an Entry one past the last means something is
// missing at the end.
type Failure struct {
	Entry  uint64 `json:"entry"`
	Kind   string `json:"kind"` // "header", "block", "roll", "seal", "draw", "play", "reveal", or "" if unreadable
	Reason string `json:"reason"`
	// Roll names a failing roll entry in words: "roll #2, Fire DR: CB2
	// at LB5" (its seq and purpose).
	Roll string `json:"roll,omitempty"`
}

func (f *Failure) Error() string { return "dice: " + f.Where() + ": " + f.Reason }

// Where names the failing line as an editor counts lines, from 1 (the
// header is line 1, entry i line i+1), then the entry and, for a roll,
// the roll in words: "line 5 (entry 4, roll #2, Fire DR: CB2 at LB5)".
func (f *Failure) Where() string {
	what := fmt.Sprintf("entry %d", f.Entry)
	switch {
	case f.Roll != "":
		what += ", " + f.Roll
	case f.Kind != "":
		what += ", " + f.Kind
	}
	return fmt.Sprintf("line %d (%s)", f.Entry+1, what)
}

// Verify checks a game's export (docs/dice.md, "Export format"): the
// canonical form of every line, the hash chain, the seals' signatures, each
// seed against its commitment, each roll's value, the sequence numbers, the
// checkpoints given, and, with a Replayer, the engine replay. It stops at
// the first entry that fails.
//
// The Report is never nil. The error is a *Failure when the export fails,
// or the reader's error; nil when everything passed. Verify does not panic
// on any input (and recovers a Replayer's panic as a failure).
func Verify(r io.Reader, opts Options) (*Report, error) {
	v := newVerifier(r, opts)
	f, err := v.run()
	if err != nil {
		return v.rep, err
	}
	v.rep.Failure = f
	if f != nil {
		return v.rep, f
	}
	return v.rep, nil
}

func newVerifier(r io.Reader, opts Options) *verifier {
	v := &verifier{opts: opts, rep: &Report{}, br: bufio.NewReaderSize(r, 64<<10), cps: map[uint64][]Checkpoint{}}
	for _, c := range opts.Checkpoints {
		v.cps[c.Length] = append(v.cps[c.Length], c)
	}
	return v
}

type verifier struct {
	opts Options
	rep  *Report
	br   *bufio.Reader
	cps  map[uint64][]Checkpoint

	h      Header
	n      uint64 // entries passed
	head   Hash
	commit Hash // commitment of the next batch's seed
	expect Kind
	hidden hiddenDraws // the hidden draws, their plays and reveals

	// The batch in progress.
	batch   uint64
	seed    Hash
	ordersH Hash
	blockH  Hash       // SHA-256 of the sender's block (version 2)
	after   Checkpoint // the checkpoint the last seal signed
	left    uint64     // rolls still expected
	index   uint64
	d       *deriver
	blocks  []AppliedBlock
}

// errTooLong marks a line longer than MaxLine.
var errTooLong = errors.New("line too long")

// readLine returns the next line without its newline; io.EOF at a clean
// end; errNoNewline with the bytes when the input ends without one.
func (v *verifier) readLine() ([]byte, error) {
	var line []byte
	for {
		chunk, err := v.br.ReadSlice('\n')
		line = append(line, chunk...)
		if len(line) > MaxLine+1 {
			return nil, errTooLong
		}
		switch {
		case err == nil:
			line = line[:len(line)-1]
			if len(line) > MaxLine {
				return nil, errTooLong
			}
			return line, nil
		case errors.Is(err, bufio.ErrBufferFull):
			continue
		case errors.Is(err, io.EOF) && len(line) == 0:
			return nil, io.EOF
		case errors.Is(err, io.EOF):
			return line, errNoNewline
		default:
			return nil, err
		}
	}
}

var errNoNewline = errors.New("the line does not end with a newline")

func (v *verifier) run() (*Failure, error) {
	f, err := v.lines(0)
	if f != nil || err != nil {
		return f, err
	}
	if f := v.end(); f != nil {
		return f, nil
	}
	return v.replay(), nil
}

// lines checks the lines read from v.br, the first being line i (0 is the
// header), until the end or the first failure.
func (v *verifier) lines(i uint64) (*Failure, error) {
	for ; ; i++ {
		line, err := v.readLine()
		if errors.Is(err, io.EOF) {
			if i == 0 {
				return &Failure{Entry: 0, Kind: "header", Reason: "the export is empty"}, nil
			}
			return nil, nil
		}
		kind := ""
		if i == 0 {
			kind = "header"
		}
		if f, err := v.lineError(i, kind, err); f != nil || err != nil {
			return f, err
		}
		if f := v.line(i, line); f != nil {
			return f, nil
		}
	}
}

// line checks line i: the header or an entry.
func (v *verifier) line(i uint64, line []byte) *Failure {
	if i == 0 {
		return v.header(line)
	}
	return v.entry(i, line)
}

func (v *verifier) lineError(i uint64, kind string, err error) (*Failure, error) {
	switch {
	case err == nil, errors.Is(err, io.EOF):
		return nil, err
	case errors.Is(err, errTooLong):
		return &Failure{Entry: i, Kind: kind, Reason: fmt.Sprintf("the line is longer than %d bytes", MaxLine)}, nil
	case errors.Is(err, errNoNewline):
		return &Failure{Entry: i, Kind: kind, Reason: err.Error()}, nil
	default:
		return nil, fmt.Errorf("dice: read export: %w", err)
	}
}

func (v *verifier) header(line []byte) *Failure {
	fail := func(format string, args ...any) *Failure {
		return &Failure{Entry: 0, Kind: "header", Reason: fmt.Sprintf(format, args...)}
	}
	h, err := ParseHeader(line)
	if err != nil {
		return fail("%s", strings.TrimPrefix(err.Error(), "dice: header: "))
	}
	if got := h.ComputeHash(); got != h.Hash {
		return fail("hash %s, but the header hashes to %s", h.Hash, got)
	}
	if h.Version != Version && h.Version != VersionOne {
		return fail("format version %d, this verifier reads %d and %d", h.Version, VersionOne, Version)
	}
	if h.Game == "" || h.Scenario == "" {
		return fail("empty game or scenario id")
	}
	if len(h.Sides) < 2 {
		return fail("%d sides, want at least 2", len(h.Sides))
	}
	for i, s := range h.Sides {
		if s == "" || slices.Contains(h.Sides[:i], s) {
			return fail("side %q is empty or repeated", s)
		}
	}
	if k := v.opts.PublicKey; k != nil && *k != h.PublicKey {
		return fail("installation key %s, but the game's first mail gave %s", h.PublicKey, *k)
	}
	v.h, v.head, v.commit, v.expect = h, h.Hash, h.Commit, KindSeal
	v.rep.Game, v.rep.Scenario, v.rep.Sides, v.rep.PublicKey, v.rep.Head = h.Game, h.Scenario, h.Sides, h.PublicKey, h.Hash
	return v.checkpoints(0, "header")
}

// kindOf reads the kind a line claims, for naming a line that does not
// parse.
func kindOf(line []byte) string {
	var k struct {
		Kind string `json:"kind"`
	}
	if json.Unmarshal(line, &k) == nil {
		switch Kind(k.Kind) {
		case KindBlock, KindRoll, KindSeal, KindDraw, KindPlay, KindReveal:
			return k.Kind
		}
	}
	return ""
}

func (v *verifier) entry(i uint64, line []byte) *Failure {
	e, err := ParseEntry(line)
	if err != nil {
		return &Failure{Entry: i, Kind: kindOf(line), Reason: strings.TrimPrefix(err.Error(), "dice: ")}
	}
	kind := string(e.Kind)
	fail := func(format string, args ...any) *Failure {
		f := &Failure{Entry: i, Kind: kind, Reason: fmt.Sprintf(format, args...)}
		if e.Kind == KindRoll {
			f.Roll = fmt.Sprintf("roll #%d, %s", e.Seq, e.Purpose)
		}
		return f
	}
	if e.I != i {
		return fail("numbered %d, but it is line %d after the header", e.I, i)
	}
	if e.Prev != v.head {
		return fail("prev %s, but entry %d hashes to %s", e.Prev, i-1, v.head)
	}
	got, _ := e.ComputeHash() // the kind is known: ParseEntry encoded it
	if got != e.Hash {
		return fail("hash %s, but the entry hashes to %s", e.Hash, got)
	}
	if !v.allows(e.Kind) {
		return fail("a %s where %s", e.Kind, v.expected())
	}
	switch e.Kind {
	case KindSeal:
		if !VerifyCheckpoint(v.h.PublicKey, v.h.Game, i-1, e.Prev, e.Sig) {
			return fail("the signature of checkpoint %d:%s is not the installation key's (%s)", i-1, e.Prev, v.h.PublicKey)
		}
		v.after = Checkpoint{Length: i - 1, Head: e.Prev}
		v.rep.Seals++
		v.expect = KindBlock
		if v.hidden.revealing {
			v.expect = kindNone
		}
		v.hidden.opened = true
	case KindDraw, KindPlay, KindReveal:
		if reason := v.hiddenEntry(i, e); reason != "" {
			return fail("%s", reason)
		}
		if e.Kind == KindDraw {
			v.rep.Draws++
		}
	case KindBlock:
		if e.Batch != v.rep.Batches+1 {
			return fail("batch %d, want %d", e.Batch, v.rep.Batches+1)
		}
		if !slices.Contains(v.h.Sides, e.Side) {
			return fail("side %q is not one of the game's sides %q", e.Side, v.h.Sides)
		}
		if c := sha256.Sum256(e.Seed[:]); c != v.commit {
			return fail("seed %s hashes to %s, but the commitment published before it is %s", e.Seed, Hash(c), v.commit)
		}
		if h := sha256.Sum256([]byte(e.Orders)); h != e.OrdersSHA256 {
			return fail("orders_sha256 %s, but the orders hash to %s", e.OrdersSHA256, Hash(h))
		}
		v.commit = e.NextCommit
		v.batch, v.seed, v.ordersH, v.left, v.index = e.Batch, e.Seed, e.OrdersSHA256, e.Rolls, 0
		v.blockH = sha256.Sum256([]byte(SenderBlock(e.Orders)))
		v.d = newDeriver(e.Seed)
		v.blocks = append(v.blocks, AppliedBlock{
			Entry: i, Batch: e.Batch, Side: e.Side, Move: e.Move, Orders: e.Orders,
			EventsSHA256: e.EventsSHA256, StateSHA256: e.StateSHA256,
		})
		v.rep.Batches++
		v.rep.Blocks++
		v.expect = KindSeal
		if e.Rolls > 0 {
			v.expect = KindRoll
		}
	case KindRoll:
		if e.Batch != v.batch {
			return fail("batch %d, but it follows the block of batch %d", e.Batch, v.batch)
		}
		if e.Index != v.index {
			return fail("index %d, want %d", e.Index, v.index)
		}
		if e.Seq != v.rep.Rolls+1 {
			return fail("seq %d, want %d: a roll was dropped or repeated", e.Seq, v.rep.Rolls+1)
		}
		faces := facesOf(e.Faces)
		if err := checkFaces(faces); err != nil {
			return fail("%s", err)
		}
		if faces != d10 && v.h.Version == VersionOne {
			return fail("a d%d in a game of format version 1, which rolls d10s only", faces)
		}
		if e.Value < 0 || e.Value >= faces {
			return fail("value %d is not a face of a d%d (0-%d)", e.Value, faces, faces-1)
		}
		if want := v.derive(e, faces); e.Value != want {
			if faces != d10 {
				return fail("value %d, but the seed and the orders give %d for %q on a d%d", e.Value, want, e.Purpose, faces)
			}
			return fail("value %d, but the seed and the orders give %d for %q", e.Value, want, e.Purpose)
		}
		b := &v.blocks[len(v.blocks)-1]
		b.Rolls = append(b.Rolls, Roll{Seq: e.Seq, Batch: e.Batch, Index: e.Index, Purpose: e.Purpose, Faces: faces, Value: e.Value})
		v.rep.Rolls++
		if faces == d10 {
			v.rep.Tally.Add(e.Value) // the dice report judges d10s
		}
		v.index++
		v.left--
		if v.left == 0 {
			v.expect = KindSeal
		}
	}
	v.n, v.head = i, e.Hash
	v.rep.Entries, v.rep.Head = i, e.Hash
	return v.checkpoints(i, kind)
}

// derive is the value roll e, of a die of faces faces, must have, by the
// game's format version.
func (v *verifier) derive(e Entry, faces int) int {
	if v.h.Version == VersionOne {
		return v.d.derive(v.h.Game, e.Batch, e.Index, e.Purpose, v.ordersH)
	}
	return v.d.deriveN(v.h.Game, e.Batch, e.Index, e.Purpose, v.blockH, v.after, faces)
}

// expected says what the verifier waits for, for messages.
func (v *verifier) expected() string {
	switch {
	case v.expect == kindNone:
		return "nothing more: the hidden draws were revealed and sealed, the game is over"
	case v.expect == KindReveal:
		return fmt.Sprintf("the reveal of %s was expected", v.hidden.unrevealedWords())
	case v.expect == KindRoll:
		return fmt.Sprintf("roll %d of batch %d was expected (%d more announced by its block)", v.index, v.batch, v.left)
	case v.expect == KindSeal && v.n == 0:
		return "the opening seal was expected"
	case v.expect == KindSeal:
		return fmt.Sprintf("the seal of batch %d was expected", v.batch)
	default:
		return "a block was expected"
	}
}

func (v *verifier) checkpoints(i uint64, kind string) *Failure {
	for _, c := range v.cps[i] {
		if c.Head != v.head {
			return &Failure{Entry: i, Kind: kind, Reason: fmt.Sprintf("the chain head after %d entries is %s, but the checkpoint says %s: the log was rewritten", i, v.head, c.Head)}
		}
		if c.Sig != nil && !VerifyCheckpoint(v.h.PublicKey, v.h.Game, i, c.Head, *c.Sig) {
			return &Failure{Entry: i, Kind: kind, Reason: fmt.Sprintf("the checkpoint's signature is not the installation key's (%s)", v.h.PublicKey)}
		}
		v.rep.Checkpoints++
	}
	return nil
}

func (v *verifier) end() *Failure {
	v.rep.Hidden = v.hidden.unrevealed()
	if v.expect != KindBlock && v.expect != kindNone {
		return &Failure{Entry: v.n + 1, Kind: string(v.expect), Reason: "missing: the export ends where " + v.expected()}
	}
	var beyond []uint64
	for n := range v.cps {
		if n > v.n {
			beyond = append(beyond, n)
		}
	}
	if len(beyond) > 0 {
		n := slices.Min(beyond)
		return &Failure{Entry: v.n + 1, Reason: fmt.Sprintf("missing: a checkpoint covers %d entries, the export holds %d: entries were removed", n, v.n)}
	}
	return nil
}

// replay runs the Replayer, if any, and compares what it produced.
func (v *verifier) replay() *Failure {
	if v.opts.Replayer == nil {
		return nil
	}
	hands, ok := v.hidden.hands()
	if !ok {
		v.rep.ReplaySkipped = "the hidden draws are not revealed until the game is over"
		return nil
	}
	h := v.h
	h.Hands = hands
	src := &rollSource{blocks: v.blocks, dice: map[int]*replayDice{}, last: -1}
	digests, err, panicked := callReplayer(v.opts.Replayer, h, slices.Clone(v.blocks), src)
	if panicked {
		f := &Failure{Entry: v.n, Kind: string(v.expect), Reason: "replay: " + err.Error()}
		if src.last >= 0 && src.last < len(v.blocks) {
			f.Entry, f.Kind = v.blocks[src.last].Entry, string(KindBlock)
		}
		return f
	}
	for i, b := range v.blocks {
		if d := src.dice[i]; d != nil && d.failure != nil {
			return d.failure
		}
		if i >= len(digests) {
			why := "the replay stopped before it"
			if err != nil {
				why = "replay: " + err.Error()
			}
			return &Failure{Entry: b.Entry, Kind: string(KindBlock), Reason: why}
		}
		if digests[i].EventsSHA256 != b.EventsSHA256 {
			return &Failure{Entry: b.Entry, Kind: string(KindBlock), Reason: fmt.Sprintf("the engine's events hash to %s, the log says %s", digests[i].EventsSHA256, b.EventsSHA256)}
		}
		if digests[i].StateSHA256 != b.StateSHA256 {
			return &Failure{Entry: b.Entry, Kind: string(KindBlock), Reason: fmt.Sprintf("the engine's state hashes to %s, the log says %s", digests[i].StateSHA256, b.StateSHA256)}
		}
		used := 0
		if d := src.dice[i]; d != nil {
			used = d.next
		}
		if used < len(b.Rolls) {
			return &Failure{Entry: b.Entry + 1 + uint64(used), Kind: string(KindRoll), Reason: fmt.Sprintf("the engine never rolled %q", b.Rolls[used].Purpose)}
		}
	}
	if err != nil || len(digests) > len(v.blocks) {
		why := fmt.Sprintf("replay: %d digests for %d blocks", len(digests), len(v.blocks))
		if err != nil {
			why = "replay: " + err.Error()
		}
		return &Failure{Entry: v.n, Kind: string(v.expect), Reason: why}
	}
	v.rep.Replayed = true
	return nil
}

// callReplayer runs r, turning a panic into an error.
func callReplayer(r Replayer, h Header, blocks []AppliedBlock, src *rollSource) (d []Digest, err error, panicked bool) {
	defer func() {
		if p := recover(); p != nil {
			d, err, panicked = nil, fmt.Errorf("the replayer panicked: %v", p), true
		}
	}()
	d, err = r.Replay(h, blocks, src)
	return d, err, false
}

type rollSource struct {
	blocks []AppliedBlock
	dice   map[int]*replayDice
	last   int
}

func (s *rollSource) Dice(block int) Die {
	if d := s.dice[block]; d != nil {
		s.last = block
		return d
	}
	if block < 0 || block >= len(s.blocks) {
		return failDice{fmt.Errorf("dice: replay asked for the dice of block %d; the log has %d", block, len(s.blocks))}
	}
	d := &replayDice{b: &s.blocks[block]}
	s.dice[block], s.last = d, block
	return d
}

type failDice struct{ err error }

func (f failDice) Roll(string) (int, error)       { return 0, f.err }
func (f failDice) RollN(string, int) (int, error) { return 0, f.err }

// replayDice gives the engine a block's logged rolls and notes the first
// disagreement.
type replayDice struct {
	b       *AppliedBlock
	next    int
	failure *Failure
}

func (d *replayDice) Roll(purpose string) (int, error) { return d.RollN(purpose, d10) }

// RollN returns the next logged roll if it is for purpose on a die of
// faces faces.
func (d *replayDice) RollN(purpose string, faces int) (int, error) {
	if d.failure != nil {
		return 0, errors.New("dice: " + d.failure.Reason)
	}
	if d.next >= len(d.b.Rolls) {
		d.failure = &Failure{
			Entry:  d.b.Entry + uint64(len(d.b.Rolls)) + 1,
			Kind:   string(KindSeal),
			Reason: fmt.Sprintf("the engine rolls for %q, but batch %d logged only %d rolls", purpose, d.b.Batch, len(d.b.Rolls)),
		}
		return 0, errors.New("dice: " + d.failure.Reason)
	}
	r := d.b.Rolls[d.next]
	if r.Purpose != purpose {
		d.failure = &Failure{
			Entry:  d.b.Entry + 1 + uint64(d.next),
			Kind:   string(KindRoll),
			Reason: fmt.Sprintf("the engine rolls for %q, the log for %q", purpose, r.Purpose),
		}
		return 0, errors.New("dice: " + d.failure.Reason)
	}
	if f := facesOf(r.Faces); f != faces {
		d.failure = &Failure{
			Entry:  d.b.Entry + 1 + uint64(d.next),
			Kind:   string(KindRoll),
			Roll:   fmt.Sprintf("roll #%d, %s", r.Seq, r.Purpose),
			Reason: fmt.Sprintf("the engine rolls a d%d for %q, the log a d%d", faces, purpose, f),
		}
		return 0, errors.New("dice: " + d.failure.Reason)
	}
	d.next++
	return r.Value, nil
}

// WriteExport writes a game's export: the header line, then each entry's
// line, each ending with a newline.
func WriteExport(w io.Writer, h *Header, entries []Entry) error {
	bw := bufio.NewWriter(w)
	line := append(h.Line(), '\n')
	bw.Write(line)
	for i := range entries {
		var err error
		line, err = entries[i].appendLine(line[:0], true)
		if err != nil {
			return err
		}
		bw.Write(append(line, '\n'))
	}
	if err := bw.Flush(); err != nil {
		return fmt.Errorf("dice: write export: %w", err)
	}
	return nil
}
