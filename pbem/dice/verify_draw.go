package dice

import (
	"crypto/sha256"
	"fmt"
	"maps"
	"slices"
	"strings"
)

// kindNone is what a verifier expects after a game's last seal: nothing.
const kindNone Kind = ""

// hiddenDraws is what a verifier knows of a game's hidden draws (docs/dice.md,
// "Hidden draws").
type hiddenDraws struct {
	sides     []string // in the order of their draw entries
	draws     map[string]*sideDraw
	opened    bool // the opening seal has passed: no more draws
	revealing bool // a reveal has been read: only reveals, then a seal
}

type sideDraw struct {
	pool     []string
	count    uint64
	commit   Hash
	played   map[uint64]uint64 // position → entry that played it
	revealed *Hand
}

// allows reports whether an entry of kind k may come next: the kind the
// grammar requires (v.expect), or a hidden-draw entry where one may stand.
func (v *verifier) allows(k Kind) bool {
	d := &v.hidden
	switch {
	case v.expect == kindNone:
		return false
	case k == v.expect:
		return true
	case k == KindDraw:
		return !d.opened
	case k == KindPlay:
		return v.expect == KindSeal && d.opened && !d.revealing && v.batch > 0 && len(d.draws) > 0
	case k == KindReveal:
		return v.expect == KindBlock && len(d.draws) > 0
	}
	return false
}

// hiddenEntry checks a draw, play or reveal entry and records it; it
// returns why the entry fails, or "".
func (v *verifier) hiddenEntry(i uint64, e Entry) string {
	d := &v.hidden
	if !slices.Contains(v.h.Sides, e.Side) {
		return fmt.Sprintf("side %q is not one of the game's sides %q", e.Side, v.h.Sides)
	}
	sd := d.draws[e.Side]
	if e.Kind == KindDraw {
		return d.draw(e)
	}
	if sd == nil {
		return fmt.Sprintf("side %q has no hidden draw", e.Side)
	}
	if e.Kind == KindPlay {
		return v.play(i, e, sd)
	}
	return v.reveal(e, sd)
}

func (d *hiddenDraws) draw(e Entry) string {
	if d.draws[e.Side] != nil {
		return fmt.Sprintf("side %q draws a second time", e.Side)
	}
	if len(e.Pool) == 0 || len(e.Pool) > MaxPool || e.Count > uint64(len(e.Pool)) {
		return fmt.Sprintf("a draw of %d from a pool of %d counters (a pool holds 1 to %d)", e.Count, len(e.Pool), MaxPool)
	}
	if slices.Contains(e.Pool, "") {
		return "a counter of the pool has no name"
	}
	if d.draws == nil {
		d.draws = map[string]*sideDraw{}
	}
	d.sides = append(d.sides, e.Side)
	d.draws[e.Side] = &sideDraw{pool: e.Pool, count: e.Count, commit: e.Commit, played: map[uint64]uint64{}}
	return ""
}

func (v *verifier) play(i uint64, e Entry, sd *sideDraw) string {
	if e.Batch != v.batch {
		return fmt.Sprintf("batch %d, but it follows the block of batch %d", e.Batch, v.batch)
	}
	if e.Counter >= uint64(len(sd.pool)) {
		return fmt.Sprintf("counter %d, but %s's pool holds %d", e.Counter, e.Side, len(sd.pool))
	}
	if name := sd.pool[e.Counter]; e.Name != name {
		return fmt.Sprintf("counter %d is named %q, but %s's pool names it %q", e.Counter, e.Name, e.Side, name)
	}
	if at, ok := sd.played[e.Counter]; ok {
		return fmt.Sprintf("%s's counter %d (%s) was already played at entry %d", e.Side, e.Counter, e.Name, at)
	}
	if uint64(len(sd.played)) == sd.count {
		return fmt.Sprintf("%s drew %d counters and has played them all", e.Side, sd.count)
	}
	sd.played[e.Counter] = i
	v.rep.Plays++
	return ""
}

func (v *verifier) reveal(e Entry, sd *sideDraw) string {
	if sd.revealed != nil {
		return fmt.Sprintf("side %q is revealed a second time", e.Side)
	}
	if c := sha256.Sum256(e.Seed[:]); c != sd.commit {
		return fmt.Sprintf("hidden seed %s hashes to %s, but %s's draw committed to %s", e.Seed, Hash(c), e.Side, sd.commit)
	}
	hand, err := RevealHand(e.Seed, v.h.Game, e.Side, sd.pool, int(sd.count))
	if err != nil {
		return strings.TrimPrefix(err.Error(), "dice: ")
	}
	for _, pos := range slices.Sorted(maps.Keys(sd.played)) {
		if !slices.Contains(hand.Counters, int(pos)) {
			return fmt.Sprintf("%s played counter %d (%s) at entry %d, but the hidden seed draws %s",
				e.Side, pos, sd.pool[pos], sd.played[pos], handWords(hand))
		}
	}
	sd.revealed = &hand
	d := &v.hidden
	d.revealing = true
	v.expect = KindReveal
	if len(d.unrevealed()) == 0 {
		v.expect = KindSeal
	}
	return ""
}

// handWords lists a hand's counters: "1 (Seizure Negation), 4 (Battle Cry)".
func handWords(h Hand) string {
	var w []string
	for _, c := range h.Counters {
		w = append(w, fmt.Sprintf("%d (%s)", c, h.Pool[c]))
	}
	return strings.Join(w, ", ")
}

// unrevealed names the sides whose draw is not revealed, in draw order.
func (d *hiddenDraws) unrevealed() []string {
	var out []string
	for _, s := range d.sides {
		if d.draws[s].revealed == nil {
			out = append(out, s)
		}
	}
	return out
}

func (d *hiddenDraws) unrevealedWords() string {
	return strings.Join(d.unrevealed(), " and ") + "'s hidden draw"
}

// hands returns the revealed hands for the engine replay, in draw order;
// false when a draw is not revealed (the replay cannot rebuild the
// opening state without it).
func (d *hiddenDraws) hands() ([]Hand, bool) {
	var out []Hand
	for _, s := range d.sides {
		h := d.draws[s].revealed
		if h == nil {
			return nil, false
		}
		out = append(out, *h)
	}
	return out, true
}
