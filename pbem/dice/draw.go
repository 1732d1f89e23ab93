package dice

import (
	"crypto/hmac"
	"crypto/sha256"
	"errors"
	"fmt"
	"hash"
	"slices"
)

// Hidden draws (docs/dice.md, "Hidden draws"). In Blood & Roses and
// Arquebus each player holds Seizure counters his opponent must not see
// until they are played (B&R 6.3, ARQ 6.3), yet an auditor must be able
// to prove afterwards that nothing was changed. Each side with a draw gets
// a secret seed of its own; the log's opening entries publish its
// commitment, the pool drawn from and how many are drawn, before any
// order is written. The hand follows from the seed alone; a play entry
// names each counter when it is played, and at the game's end a reveal
// entry gives the seed, so a verifier derives the hand and checks every
// play against it.

const (
	drawDomain = "herald/dice/draw/v2"
	saltDomain = "herald/dice/salt/v2"
)

// MaxPool is the largest pool a hidden draw may come from: a counter's
// position is picked from one byte of a MAC.
const MaxPool = 256

// Hand is one side's hidden draw, as a revealed seed determines it.
type Hand struct {
	Side     string
	Pool     []string // the counters drawn from, by position
	Counters []int    // positions in Pool of the counters drawn, in draw order
	// Salt is mixed into the engine's state beside the hand, so that the
	// state's published hash tells nothing of a hand still hidden (the
	// few possible hands could otherwise be tried one by one).
	Salt Hash
}

// DrawMessage is the message whose HMAC, keyed by the side's hidden seed,
// picks step number step of a draw from a pool of poolSize counters:
//
//	field("herald/dice/draw/v2") field(game) field(side) u64(poolSize)
//	u64(step) u64(attempt)
func DrawMessage(game, side string, poolSize, step, attempt uint64) []byte {
	b := appendField(nil, drawDomain)
	b = appendField(b, game)
	b = appendField(b, side)
	b = appendU64(b, poolSize)
	b = appendU64(b, step)
	return appendU64(b, attempt)
}

// DrawHand derives the positions of the count counters a side draws from a
// pool of poolSize, from its hidden seed: a Fisher–Yates shuffle of the
// positions 0 … poolSize−1 stopped after count steps. Step k picks j
// uniformly from 0 … poolSize−k−1 (the first byte of the step's MAC below
// the largest multiple of poolSize−k that a byte holds, modulo poolSize−k;
// the next attempt when all 32 bytes are too high) and swaps position k
// with position k+j. The hand is the first count positions.
func DrawHand(seed [32]byte, game, side string, poolSize, count int) ([]int, error) {
	if poolSize < 1 || poolSize > MaxPool || count < 0 || count > poolSize {
		return nil, fmt.Errorf("dice: cannot draw %d of a pool of %d (1 to %d counters)", count, poolSize, MaxPool)
	}
	pos := make([]int, poolSize)
	for i := range pos {
		pos[i] = i
	}
	mac := hmac.New(sha256.New, seed[:])
	for k := range count {
		left := poolSize - k
		j := pickBelow(mac, left, func(attempt uint64) []byte {
			return DrawMessage(game, side, uint64(poolSize), uint64(k), attempt)
		})
		pos[k], pos[k+j] = pos[k+j], pos[k]
	}
	return pos[:count], nil
}

// pickBelow returns a number from 0 to n−1 without bias from the MACs of
// attempts 0, 1, … of message.
func pickBelow(mac hash.Hash, n int, message func(attempt uint64) []byte) int {
	limit := 256 - 256%n
	for attempt := uint64(0); ; attempt++ {
		mac.Reset()
		mac.Write(message(attempt))
		for _, c := range mac.Sum(nil) {
			if int(c) < limit {
				return int(c) % n
			}
		}
	}
}

// DrawSalt is the salt a side's hidden seed gives its hand in the engine's
// state: HMAC-SHA256(key = seed, field("herald/dice/salt/v2") field(game)
// field(side)).
func DrawSalt(seed [32]byte, game, side string) Hash {
	mac := hmac.New(sha256.New, seed[:])
	b := appendField(nil, saltDomain)
	b = appendField(b, game)
	mac.Write(appendField(b, side))
	var h Hash
	copy(h[:], mac.Sum(nil))
	return h
}

// RevealHand derives a side's hand from its revealed seed.
func RevealHand(seed [32]byte, game, side string, pool []string, count int) (Hand, error) {
	c, err := DrawHand(seed, game, side, len(pool), count)
	if err != nil {
		return Hand{}, err
	}
	return Hand{Side: side, Pool: pool, Counters: c, Salt: DrawSalt(seed, game, side)}, nil
}

// draw adds a draw entry for each of draws to a new game's chain, with a
// fresh hidden seed each.
func (u *Update) draw(c *Chain, sides []string, draws []Draw) error {
	var seen []string
	for _, d := range draws {
		if !slices.Contains(sides, d.Side) || slices.Contains(seen, d.Side) {
			return fmt.Errorf("dice: new game %q: a hidden draw for side %q, not one of %q or drawn twice", c.Game, d.Side, sides)
		}
		seen = append(seen, d.Side)
		for _, name := range d.Pool {
			if name == "" {
				return fmt.Errorf("dice: new game %q: a counter of %s's pool has no name", c.Game, d.Side)
			}
			if err := checkText("counter name", name, MaxName); err != nil {
				return err
			}
		}
		seed, err := newSeed()
		if err != nil {
			return err
		}
		hand, err := RevealHand(seed, c.Game, d.Side, d.Pool, d.Count)
		if err != nil {
			return err
		}
		e := Entry{Kind: KindDraw, Side: d.Side, Pool: slices.Clone(d.Pool), Count: uint64(d.Count), Commit: seed.Commitment()}
		if err := c.add(&e); err != nil {
			return err
		}
		u.Entries = append(u.Entries, e)
		u.Hidden = append(u.Hidden, Hidden{Seed: seed, Hand: hand})
	}
	return nil
}

// Play records a hidden counter played in the batch: a play entry after
// its rolls. The caller (the rules engine's events) vouches that the side
// held it; the verifier checks it against the side's draw once revealed.
func (b *Batch) Play(side string, counter int, name string) error {
	if b.closed {
		return fmt.Errorf("dice: play %q: batch %d is closed", name, b.number)
	}
	if counter < 0 || counter >= MaxPool || name == "" {
		return fmt.Errorf("dice: play of counter %d %q", counter, name)
	}
	b.plays = append(b.plays, Play{Side: side, Counter: counter, Name: name})
	return nil
}

// Reveal closes a game's hidden draws once it is over: a reveal entry
// giving each side's hidden seed, in the order of seeds, and a seal.
// After it the log takes nothing more.
func Reveal(key *Key, c Chain, seeds map[string]Seed, order []string) (*Update, error) {
	if key == nil {
		return nil, errors.New("dice: reveal: no installation key")
	}
	if c.Revealed {
		return nil, fmt.Errorf("dice: game %q: the hidden draws are revealed already", c.Game)
	}
	u := &Update{}
	for _, side := range order {
		seed, ok := seeds[side]
		if !ok {
			return nil, fmt.Errorf("dice: reveal: no hidden seed for side %q", side)
		}
		e := Entry{Kind: KindReveal, Side: side, Seed: Hash(seed)}
		if err := c.add(&e); err != nil {
			return nil, err
		}
		u.Entries = append(u.Entries, e)
	}
	if err := u.seal(key, &c); err != nil {
		return nil, err
	}
	c.Revealed = true
	u.Chain = c
	return u, nil
}
