package dice

import (
	"crypto/sha256"
	"errors"
	"fmt"
	"slices"
	"strconv"
	"strings"
)

// Limits on what the log carries, so that an export's lines stay short
// (MaxLine) and a runaway caller is caught.
const (
	MaxName    = 256      // bytes of a game id, scenario id or side
	MaxPurpose = 1 << 10  // bytes of a roll's purpose
	MaxOrders  = 64 << 10 // bytes of an order block's canonical text
)

// Chain is a game's public dice state between mails: where the log stands
// and which seed the next batch must use. Nothing in it is secret; a result
// mail may show all of it. Persist it with the game (or rebuild it from the
// log with ChainFrom).
type Chain struct {
	// Version is the game's format version (the header's); 0 in chains
	// stored before it was kept means VersionOne.
	Version int    `json:"version,omitempty"`
	Game    string `json:"game"`
	Length  uint64 `json:"length"`  // entries in the log
	Head    Hash   `json:"head"`    // hash of entry Length (of the header when 0)
	Batches uint64 `json:"batches"` // batches closed; the next is Batches+1
	Rolls   uint64 `json:"rolls"`   // dice rolled; the next roll's seq is Rolls+1
	Commit  Hash   `json:"commit"`  // commitment of the next batch's seed
	// After is the checkpoint the last seal signed (without its
	// signature): the one the next batch follows, shown in the mail its
	// sender answered.
	After Checkpoint `json:"after"`
	// Revealed: the hidden draws are revealed (Reveal), the game is over
	// and its log takes nothing more.
	Revealed bool `json:"revealed,omitempty"`
}

// version is the chain's format version.
func (c Chain) version() int {
	if c.Version == 0 {
		return VersionOne
	}
	return c.Version
}

// add links e to the chain: it sets e.I, e.Prev and e.Hash and moves the
// head to e.
func (c *Chain) add(e *Entry) error {
	e.I = c.Length + 1
	e.Prev = c.Head
	h, err := e.ComputeHash()
	if err != nil {
		return err
	}
	e.Hash = h
	c.Length, c.Head = e.I, h
	return nil
}

// Checkpoint is a chain head and the number of entries it covers: every
// mail shows the one signed by its batch's seal, and every later export
// must contain it. Its text form, for command lines, is LENGTH:HEAD or
// LENGTH:HEAD:SIG.
type Checkpoint struct {
	Length uint64     `json:"length"`
	Head   Hash       `json:"head"`
	Sig    *Signature `json:"sig,omitempty"`
}

// String returns LENGTH:HEAD, or LENGTH:HEAD:SIG when signed.
func (c Checkpoint) String() string {
	s := strconv.FormatUint(c.Length, 10) + ":" + c.Head.String()
	if c.Sig != nil {
		s += ":" + c.Sig.String()
	}
	return s
}

// ParseCheckpoint reads LENGTH:HEAD or LENGTH:HEAD:SIG (hex in lowercase).
func ParseCheckpoint(s string) (Checkpoint, error) {
	parts := strings.Split(s, ":")
	if len(parts) != 2 && len(parts) != 3 {
		return Checkpoint{}, fmt.Errorf("dice: checkpoint %q: want LENGTH:HEAD or LENGTH:HEAD:SIG", s)
	}
	n, err := strconv.ParseUint(parts[0], 10, 64)
	if err != nil {
		return Checkpoint{}, fmt.Errorf("dice: checkpoint %q: length: %w", s, err)
	}
	c := Checkpoint{Length: n}
	if err := c.Head.UnmarshalText([]byte(strings.ToLower(parts[1]))); err != nil {
		return Checkpoint{}, fmt.Errorf("dice: checkpoint %q: %v", s, strings.TrimPrefix(err.Error(), "dice: "))
	}
	if len(parts) == 3 {
		c.Sig = new(Signature)
		if err := c.Sig.UnmarshalText([]byte(strings.ToLower(parts[2]))); err != nil {
			return Checkpoint{}, fmt.Errorf("dice: checkpoint %q: %v", s, strings.TrimPrefix(err.Error(), "dice: "))
		}
	}
	return c, nil
}

// Update is everything one mail adds to a game's dice. Persist all of it in
// the mail's transaction: append Entries to the log (each e.Line() under
// key e.I), store Chain, and replace the stored secret seed with Next.
// The rest is for the mail itself.
type Update struct {
	Entries []Entry `json:"entries"`
	Chain   Chain   `json:"chain"`
	// Next is the SECRET seed of the next batch, committed in
	// Chain.Commit. It is left out of JSON so that marshalling an Update
	// for a mail or a log cannot leak it; store it with Next.MarshalText.
	Next Seed `json:"-"`

	// For the mail. Batch is 0 and Seed zero for a game's opening.
	Checkpoint Checkpoint `json:"checkpoint"` // signed by the batch's seal
	Batch      uint64     `json:"batch"`
	Seed       Hash       `json:"seed"` // the batch's seed, now revealed
	Rolls      []Roll     `json:"rolls"`
	// After is the checkpoint the batch followed (signed by the seal
	// before its block); Commit the commitment its seed answered; Side
	// the sender and Block the SHA-256 of his own block (SenderBlock),
	// which the rolls of a version 2 game are derived from; Orders the
	// batch's whole order text. Zero for a game's opening.
	After  Checkpoint `json:"after"`
	Commit Hash       `json:"commit"`
	Side   string     `json:"side"`
	Block  Hash       `json:"block"`
	Orders string     `json:"-"`

	// Hidden holds the SECRET seeds of a new game's hidden draws and the
	// hands they give (left out of JSON like Next: store the seeds as
	// secrets, show each hand only to its side). Plays are the hidden
	// counters the batch played.
	Hidden []Hidden `json:"-"`
	Plays  []Play   `json:"plays,omitempty"`
}

// Draw asks NewGame for a side's hidden draw: Count counters from Pool.
type Draw struct {
	Side  string
	Pool  []string
	Count int
}

// Hidden is a side's hidden draw as NewGame made it: the secret seed and
// the hand it gives.
type Hidden struct {
	Seed Seed
	Hand Hand
}

// Play is a hidden counter played: its side, its position in the side's
// pool and its name.
type Play struct {
	Side    string `json:"side"`
	Counter int    `json:"counter"`
	Name    string `json:"name"`
}

// NewGame starts a game's dice: it draws the seed of batch 1 and returns
// the export header (the game's first mail shows its public key and
// commitment) and the opening Update: one seal signing the checkpoint
// (0, header hash). With draws, each side's hidden seed is drawn and a
// draw entry committing to it comes before the seal (whose checkpoint
// then covers them); the Update's Hidden holds the seeds and hands.
func NewGame(key *Key, game, scenario string, sides []string, draws ...Draw) (*Header, *Update, error) {
	if key == nil {
		return nil, nil, errors.New("dice: new game: no installation key")
	}
	for what, s := range map[string]string{"game id": game, "scenario id": scenario} {
		if s == "" {
			return nil, nil, fmt.Errorf("dice: new game: empty %s", what)
		}
		if err := checkText(what, s, MaxName); err != nil {
			return nil, nil, err
		}
	}
	if len(sides) < 2 {
		return nil, nil, fmt.Errorf("dice: new game %q: %d sides, want at least 2", game, len(sides))
	}
	for i, s := range sides {
		if s == "" || slices.Contains(sides[:i], s) {
			return nil, nil, fmt.Errorf("dice: new game %q: side %q is empty or repeated", game, s)
		}
		if err := checkText("side", s, MaxName); err != nil {
			return nil, nil, err
		}
	}
	seed, err := newSeed()
	if err != nil {
		return nil, nil, err
	}
	h := &Header{
		Version:   Version,
		Game:      game,
		Scenario:  scenario,
		Sides:     append([]string(nil), sides...),
		PublicKey: key.Public(),
		Commit:    seed.Commitment(),
	}
	h.Hash = h.ComputeHash()
	c := Chain{Version: Version, Game: game, Head: h.Hash, Commit: h.Commit}
	u := &Update{Next: seed}
	if err := u.draw(&c, sides, draws); err != nil {
		return nil, nil, err
	}
	if err := u.seal(key, &c); err != nil {
		return nil, nil, err
	}
	u.Chain = c
	return h, u, nil
}

// seal signs the checkpoint the chain has reached and appends the seal.
func (u *Update) seal(key *Key, c *Chain) error {
	sig := key.sign(c.Game, c.Length, c.Head)
	u.Checkpoint = Checkpoint{Length: c.Length, Head: c.Head, Sig: &sig}
	c.After = Checkpoint{Length: c.Length, Head: c.Head}
	e := Entry{Kind: KindSeal, Sig: sig}
	if err := c.add(&e); err != nil {
		return err
	}
	u.Entries = append(u.Entries, e)
	return nil
}

// Batch is the dice of one applied order block: it implements engine.Dice
// and system.Dice (its method set is Die's) for one block and records
// every roll. A
// Batch is used by one goroutine.
//
// If Apply fails (the block is refused before any roll, or aborts), drop
// the Batch: nothing was published, the seed stays secret and the next
// block uses it. Otherwise call Close, even when no die was rolled.
type Batch struct {
	chain   Chain
	seed    Seed
	number  uint64
	side    string
	move    uint64
	orders  string
	ordersH Hash
	blockH  Hash // SHA-256 of SenderBlock(orders)
	d       *deriver
	rolls   []Roll
	plays   []Play
	closed  bool
}

var _ Die = (*Batch)(nil)

// Begin opens the next batch of a game, for the order block orders (the
// canonical text, engine.CanonicalBlock) sent by side; move is the game's
// move number after the block. seed is the secret stored for the game; it
// must match c.Commit.
func Begin(c Chain, seed Seed, side string, move uint64, orders string) (*Batch, error) {
	if c.Revealed {
		return nil, fmt.Errorf("dice: game %q: its hidden draws are revealed, the game is over: its log takes no more batches", c.Game)
	}
	if seed.Commitment() != c.Commit {
		return nil, fmt.Errorf("dice: game %q: the stored seed does not match the commitment %s published for batch %d", c.Game, c.Commit, c.Batches+1)
	}
	if side == "" {
		return nil, fmt.Errorf("dice: game %q: a block with no side", c.Game)
	}
	if err := checkText("side", side, MaxName); err != nil {
		return nil, err
	}
	if err := checkText("order block", orders, MaxOrders); err != nil {
		return nil, err
	}
	return &Batch{
		chain:   c,
		seed:    seed,
		number:  c.Batches + 1,
		side:    side,
		move:    move,
		orders:  orders,
		ordersH: sha256.Sum256([]byte(orders)),
		blockH:  sha256.Sum256([]byte(SenderBlock(orders))),
		d:       newDeriver(seed),
	}, nil
}

// SenderBlock is the sender's own block in a batch's order text: the
// lines after the last line that begins with "[" and ends with "]" (the
// side line of a queued block of standing orders, or of the sender), or
// the whole text when it has none.
func SenderBlock(orders string) string {
	rest := orders
	for i := 0; i < len(orders); {
		end := strings.IndexByte(orders[i:], '\n')
		if end < 0 {
			end = len(orders) - i
		}
		line := orders[i : i+end]
		if len(line) >= 2 && line[0] == '[' && line[len(line)-1] == ']' {
			rest = orders[min(i+end+1, len(orders)):]
		}
		i += end + 1
	}
	return rest
}

// Number is the batch's number in the game, from 1.
func (b *Batch) Number() uint64 { return b.number }

// Roll rolls one d10 (0–9) for purpose and records it: RollN(purpose,
// 10). It is derived from the batch's seed, the game, the batch, the
// roll's index in the batch, purpose, the hash of the sender's block and
// the checkpoint the batch follows (DeriveV2; a version 1 game's from the
// hash of the whole order text, Derive).
func (b *Batch) Roll(purpose string) (int, error) { return b.RollN(purpose, d10) }

// RollN rolls a die of faces faces (2 to 256) for purpose, a number from 0
// to faces−1, and records it with its faces: a D20 is RollN(purpose,
// 20)+1, a card of a 54-card deck RollN(purpose, 54). A d10 (faces 10) is
// exactly Roll; any other die is derived by DeriveN, which binds the faces
// into the message, and only in a game of format version 2.
func (b *Batch) RollN(purpose string, faces int) (int, error) {
	if b.closed {
		return 0, fmt.Errorf("dice: roll %q: batch %d is closed", purpose, b.number)
	}
	if err := checkFaces(faces); err != nil {
		return 0, fmt.Errorf("dice: roll %q: %w", purpose, err)
	}
	if purpose == "" {
		return 0, errors.New("dice: a roll without a purpose")
	}
	if err := checkText("purpose", purpose, MaxPurpose); err != nil {
		return 0, err
	}
	v1 := b.chain.version() == VersionOne
	if v1 && faces != d10 {
		return 0, fmt.Errorf("dice: roll %q: a d%d in game %q, of format version 1, which rolls d10s only", purpose, faces, b.chain.Game)
	}
	idx := uint64(len(b.rolls))
	var v int
	if v1 {
		v = b.d.derive(b.chain.Game, b.number, idx, purpose, b.ordersH)
	} else {
		v = b.d.deriveN(b.chain.Game, b.number, idx, purpose, b.blockH, b.chain.After, faces)
	}
	b.rolls = append(b.rolls, Roll{
		Seq:     b.chain.Rolls + idx + 1,
		Batch:   b.number,
		Index:   idx,
		Purpose: purpose,
		Faces:   faces,
		Value:   v,
	})
	return v, nil
}

// Rolls returns the rolls made so far.
func (b *Batch) Rolls() []Roll { return append([]Roll(nil), b.rolls...) }

// Close ends the batch once engine.Apply has succeeded: it draws the next
// seed and returns the Update to persist and mail, with the block entry,
// one entry per roll and a seal signed by key. eventsSHA256 is
// EventsSHA256 of the events the block produced and stateSHA256 the
// SHA-256 of the state after it (engine.State.Encode), so that a verifier
// can replay the game and compare.
func (b *Batch) Close(key *Key, eventsSHA256, stateSHA256 Hash) (*Update, error) {
	if b.closed {
		return nil, fmt.Errorf("dice: batch %d is already closed", b.number)
	}
	if key == nil {
		return nil, errors.New("dice: close batch: no installation key")
	}
	next, err := newSeed()
	if err != nil {
		return nil, err
	}
	c := b.chain
	u := &Update{Next: next, Batch: b.number, Seed: Hash(b.seed), Rolls: b.Rolls(),
		After: c.After, Commit: c.Commit, Side: b.side, Block: b.blockH, Orders: b.orders}
	block := Entry{
		Kind:         KindBlock,
		Batch:        b.number,
		Side:         b.side,
		Move:         b.move,
		Orders:       b.orders,
		OrdersSHA256: b.ordersH,
		Rolls:        uint64(len(b.rolls)),
		EventsSHA256: eventsSHA256,
		StateSHA256:  stateSHA256,
		Seed:         Hash(b.seed),
		NextCommit:   next.Commitment(),
	}
	if err := c.add(&block); err != nil {
		return nil, err
	}
	u.Entries = append(u.Entries, block)
	for _, r := range b.rolls {
		e := Entry{Kind: KindRoll, Seq: r.Seq, Batch: r.Batch, Index: r.Index, Purpose: r.Purpose, Faces: r.Faces, Value: r.Value}
		if err := c.add(&e); err != nil {
			return nil, err
		}
		u.Entries = append(u.Entries, e)
	}
	for _, p := range b.plays {
		e := Entry{Kind: KindPlay, Batch: b.number, Side: p.Side, Counter: uint64(p.Counter), Name: p.Name}
		if err := c.add(&e); err != nil {
			return nil, err
		}
		u.Entries = append(u.Entries, e)
	}
	u.Plays = slices.Clone(b.plays)
	c.Batches = b.number
	c.Rolls += uint64(len(b.rolls))
	c.Commit = block.NextCommit
	if err := u.seal(key, &c); err != nil {
		return nil, err
	}
	u.Chain = c
	b.closed = true
	return u, nil
}

// EventsSHA256 is the digest a block entry records of the events a block
// produced: SHA-256 of each event's JSON (engine.MarshalEvent), each
// followed by a newline, in order.
func EventsSHA256(events [][]byte) Hash {
	h := sha256.New()
	for _, e := range events {
		h.Write(e)
		h.Write([]byte{'\n'})
	}
	var out Hash
	h.Sum(out[:0])
	return out
}

// ChainFrom rebuilds a game's Chain from its header and log, as stored.
// It trusts them: use Verify to check a log.
func ChainFrom(h *Header, entries []Entry) Chain {
	c := Chain{Version: h.Version, Game: h.Game, Head: h.Hash, Commit: h.Commit}
	for _, e := range entries {
		c.Length, c.Head = e.I, e.Hash
		switch e.Kind {
		case KindSeal:
			c.After = Checkpoint{Length: e.I - 1, Head: e.Prev}
		case KindBlock:
			c.Batches, c.Commit = e.Batch, e.NextCommit
		case KindRoll:
			c.Rolls = e.Seq
		}
	}
	return c
}
