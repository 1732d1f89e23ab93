package dice

import (
	"bytes"
	"crypto/sha256"
	"encoding/json"
	"fmt"
	"strconv"
	"unicode/utf8"
)

// Version is the export format's version, the header's "herald_dice", of
// the games Herald starts. Version 1 (VersionOne) games, made before rolls
// were bound to the checkpoint they follow and to the sender's own block,
// go on and verify as they were made (docs/dice.md, "Versions").
const (
	Version    = 2
	VersionOne = 1
)

// Kind says what a log entry records.
type Kind string

// The kinds of log entry. A game's log is
//
//	draw* seal (block roll* play* seal)* (reveal+ seal)?
//
// an opening seal (after the hidden draws of a game that has them), then
// for each batch its block, one roll per die rolled, one play per hidden
// counter played and a seal signing the checkpoint after the last of
// them; a game with hidden draws ends, once over, with their reveals and
// a last seal.
const (
	// KindBlock is an applied order block: the batch it opens, the order
	// text and its hash, the digests of the events and state it produced,
	// the batch's seed (revealed) and the commitment of the next seed.
	KindBlock Kind = "block"
	// KindRoll is one die roll of the batch opened by the block before it.
	KindRoll Kind = "roll"
	// KindSeal is the installation's signature of the checkpoint made by
	// the entries before it (length i-1, head = its prev).
	KindSeal Kind = "seal"
	// KindDraw is one side's hidden draw: the pool, how many it draws
	// and the commitment of its hidden seed (see Hand).
	KindDraw Kind = "draw"
	// KindPlay is a hidden counter played in the batch opened by the
	// block before it: its position in its side's pool and its name.
	KindPlay Kind = "play"
	// KindReveal gives a side's hidden seed once the game is over.
	KindReveal Kind = "reveal"
)

// Header is the first line of an export: what identifies the game and what
// the game's first mail published. Hash is SHA-256 of the header's
// canonical line without its "hash" member; it is the chain head of a log
// with no entries.
type Header struct {
	Version   int       `json:"herald_dice"`
	Game      string    `json:"game"`
	Scenario  string    `json:"scenario"`
	Sides     []string  `json:"sides"`
	PublicKey PublicKey `json:"public_key"`
	Commit    Hash      `json:"commit"` // commitment of batch 1's seed
	Hash      Hash      `json:"hash"`

	// Hands is no part of the header's line: Verify fills it, for the
	// Replayer, with the hidden draws the export reveals (the engine's
	// opening state holds them).
	Hands []Hand `json:"-"`
}

// Entry is one line of a game's dice log after the header. Which fields
// are meaningful depends on Kind; the canonical line (Line) holds exactly
// those, in a fixed order (docs/dice.md, "Export format").
type Entry struct {
	I    uint64 // position in the log, from 1
	Kind Kind

	// Batch is the batch a block opens or a roll belongs to, from 1.
	Batch uint64

	// Block.
	Side         string // the side that sent the block
	Move         uint64 // the game's move number after the block
	Orders       string // canonical order text, as hashed
	OrdersSHA256 Hash
	Rolls        uint64 // number of roll entries that follow
	EventsSHA256 Hash   // see EventsSHA256
	StateSHA256  Hash   // SHA-256 of the encoded state after the block
	Seed         Hash   // the batch's seed, revealed (a reveal: the side's hidden seed)
	NextCommit   Hash   // commitment of the next batch's seed

	// Roll.
	Seq     uint64 // the roll's number in the game, from 1
	Index   uint64 // the roll's number in its batch, from 0
	Purpose string
	// Faces is the die's: 10 for a d10, whose line has no "faces" (so a
	// zero Faces writes a d10 too); 2 to 256 (Batch.RollN).
	Faces int
	Value int // 0 to Faces−1

	// Seal.
	Sig Signature

	// Draw (and Side), play (and Side, Batch), reveal (Side, Seed).
	Pool    []string // the counters drawn from
	Count   uint64   // how many are drawn
	Commit  Hash     // SHA-256 of the side's hidden seed
	Counter uint64   // the played counter's position in its pool
	Name    string   // the played counter's name, as in the pool

	Prev Hash // hash of the entry before (of the header for entry 1)
	Hash Hash // SHA-256 of this entry's canonical line without "hash"
}

// Roll is one die rolled: what a result mail lists, and what a Batch records.
// Its JSON has "faces" only for a die other than a d10, as the log's line;
// a Roll read without it, or built with Faces 0, is a d10's.
type Roll struct {
	Seq     uint64 `json:"seq"`
	Batch   uint64 `json:"batch"`
	Index   uint64 `json:"index"`
	Purpose string `json:"purpose"`
	Faces   int    `json:"faces,omitempty"` // 10 for a d10
	Value   int    `json:"value"`           // 0 to Faces−1
}

// jsonRoll is Roll without its JSON methods.
type jsonRoll Roll

// MarshalJSON leaves "faces" out for a d10.
func (r Roll) MarshalJSON() ([]byte, error) {
	j := jsonRoll(r)
	if j.Faces == d10 {
		j.Faces = 0
	}
	return json.Marshal(j)
}

// UnmarshalJSON reads a Roll without "faces" as a d10's.
func (r *Roll) UnmarshalJSON(b []byte) error {
	var j jsonRoll
	if err := json.Unmarshal(b, &j); err != nil {
		return err
	}
	*r = Roll(j)
	r.Faces = facesOf(r.Faces)
	return nil
}

// facesOf is the faces of a die recorded as f: a d10 when 0.
func facesOf(f int) int {
	if f == 0 {
		return d10
	}
	return f
}

// Line returns the header's canonical line (no newline).
func (h *Header) Line() []byte { return h.appendLine(nil, true) }

// ComputeHash returns SHA-256 of the canonical line without "hash".
func (h *Header) ComputeHash() Hash { return sha256.Sum256(h.appendLine(nil, false)) }

func (h *Header) appendLine(b []byte, withHash bool) []byte {
	b = append(b, `{"herald_dice":`...)
	b = strconv.AppendInt(b, int64(h.Version), 10)
	b = appendKeyString(b, "game", h.Game)
	b = appendKeyString(b, "scenario", h.Scenario)
	b = appendKeyStrings(b, "sides", h.Sides)
	b = appendKeyHex(b, "public_key", h.PublicKey[:])
	b = appendKeyHex(b, "commit", h.Commit[:])
	if withHash {
		b = appendKeyHex(b, "hash", h.Hash[:])
	}
	return append(b, '}')
}

// Line returns the entry's canonical line (no newline): what the log
// stores, the export holds and the next entry's Prev hashes.
func (e *Entry) Line() ([]byte, error) { return e.appendLine(nil, true) }

// ComputeHash returns SHA-256 of the entry's canonical line without "hash".
func (e *Entry) ComputeHash() (Hash, error) {
	b, err := e.appendLine(nil, false)
	if err != nil {
		return Hash{}, err
	}
	return sha256.Sum256(b), nil
}

func (e *Entry) appendLine(b []byte, withHash bool) ([]byte, error) {
	b = append(b, `{"i":`...)
	b = strconv.AppendUint(b, e.I, 10)
	b = appendKeyString(b, "kind", string(e.Kind))
	switch e.Kind {
	case KindSeal:
		b = appendKeyHex(b, "sig", e.Sig[:])
	case KindBlock:
		b = appendKeyUint(b, "batch", e.Batch)
		b = appendKeyString(b, "side", e.Side)
		b = appendKeyUint(b, "move", e.Move)
		b = appendKeyString(b, "orders", e.Orders)
		b = appendKeyHex(b, "orders_sha256", e.OrdersSHA256[:])
		b = appendKeyUint(b, "rolls", e.Rolls)
		b = appendKeyHex(b, "events_sha256", e.EventsSHA256[:])
		b = appendKeyHex(b, "state_sha256", e.StateSHA256[:])
		b = appendKeyHex(b, "seed", e.Seed[:])
		b = appendKeyHex(b, "next_commit", e.NextCommit[:])
	case KindRoll:
		b = appendKeyUint(b, "seq", e.Seq)
		b = appendKeyUint(b, "batch", e.Batch)
		b = appendKeyUint(b, "index", e.Index)
		b = appendKeyString(b, "purpose", e.Purpose)
		if f := facesOf(e.Faces); f != d10 {
			b = append(b, `,"faces":`...)
			b = strconv.AppendInt(b, int64(f), 10)
		}
		b = append(b, `,"value":`...)
		b = strconv.AppendInt(b, int64(e.Value), 10)
	case KindDraw:
		b = appendKeyString(b, "side", e.Side)
		b = appendKeyStrings(b, "pool", e.Pool)
		b = appendKeyUint(b, "count", e.Count)
		b = appendKeyHex(b, "commit", e.Commit[:])
	case KindPlay:
		b = appendKeyUint(b, "batch", e.Batch)
		b = appendKeyString(b, "side", e.Side)
		b = appendKeyUint(b, "counter", e.Counter)
		b = appendKeyString(b, "name", e.Name)
	case KindReveal:
		b = appendKeyString(b, "side", e.Side)
		b = appendKeyHex(b, "seed", e.Seed[:])
	default:
		return nil, fmt.Errorf("dice: entry %d: unknown kind %q", e.I, e.Kind)
	}
	b = appendKeyHex(b, "prev", e.Prev[:])
	if withHash {
		b = appendKeyHex(b, "hash", e.Hash[:])
	}
	return append(b, '}'), nil
}

// MarshalJSON returns the canonical line. (encoding/json may still escape
// <, > and & in it; the values are unchanged. Use Line for the exact bytes.)
func (e Entry) MarshalJSON() ([]byte, error) { return e.Line() }

// UnmarshalJSON reads an entry leniently (any JSON spelling of the same
// values); ParseEntry insists on the canonical line.
func (e *Entry) UnmarshalJSON(b []byte) error {
	var w wireEntry
	if err := json.Unmarshal(b, &w); err != nil {
		return err
	}
	*e = w.entry()
	return nil
}

// wireEntry is every member any kind of entry may have.
type wireEntry struct {
	I            uint64    `json:"i"`
	Kind         Kind      `json:"kind"`
	Batch        uint64    `json:"batch"`
	Side         string    `json:"side"`
	Move         uint64    `json:"move"`
	Orders       string    `json:"orders"`
	OrdersSHA256 Hash      `json:"orders_sha256"`
	Rolls        uint64    `json:"rolls"`
	EventsSHA256 Hash      `json:"events_sha256"`
	StateSHA256  Hash      `json:"state_sha256"`
	Seed         Hash      `json:"seed"`
	NextCommit   Hash      `json:"next_commit"`
	Seq          uint64    `json:"seq"`
	Index        uint64    `json:"index"`
	Purpose      string    `json:"purpose"`
	Faces        int       `json:"faces"`
	Value        int       `json:"value"`
	Sig          Signature `json:"sig"`
	Pool         []string  `json:"pool"`
	Count        uint64    `json:"count"`
	Commit       Hash      `json:"commit"`
	Counter      uint64    `json:"counter"`
	Name         string    `json:"name"`
	Prev         Hash      `json:"prev"`
	Hash         Hash      `json:"hash"`
}

// entry is the Entry w holds; a roll without "faces" is a d10's (and one
// with "faces":10 or 0 then encodes without it: not canonical).
func (w *wireEntry) entry() Entry {
	e := Entry(*w)
	if e.Kind == KindRoll {
		e.Faces = facesOf(e.Faces)
	}
	return e
}

// ParseHeader reads a header line and insists that it is exactly the
// canonical encoding of the values it holds. It does not check the hash.
func ParseHeader(line []byte) (Header, error) {
	var h Header
	if err := json.Unmarshal(line, &h); err != nil {
		return Header{}, fmt.Errorf("dice: header: %w", err)
	}
	if err := sameBytes(h.Line(), line); err != nil {
		return Header{}, fmt.Errorf("dice: header: %w", err)
	}
	return h, nil
}

// ParseEntry reads an entry line and insists that it is exactly the
// canonical encoding of the values it holds: no other spelling, order,
// spacing or member is accepted, so every byte of an export matters. It
// does not check the hash or anything beyond the line itself.
func ParseEntry(line []byte) (Entry, error) {
	var w wireEntry
	if err := json.Unmarshal(line, &w); err != nil {
		return Entry{}, fmt.Errorf("dice: %w", err)
	}
	e := w.entry()
	canon, err := e.Line()
	if err != nil {
		return Entry{}, err
	}
	if err := sameBytes(canon, line); err != nil {
		return Entry{}, fmt.Errorf("dice: %w", err)
	}
	return e, nil
}

func sameBytes(canon, line []byte) error {
	if bytes.Equal(canon, line) {
		return nil
	}
	n := 0
	for n < len(canon) && n < len(line) && canon[n] == line[n] {
		n++
	}
	return fmt.Errorf("not in canonical form from byte %d (canonical: %s)", n, excerpt(canon, n))
}

func excerpt(b []byte, n int) string {
	end := min(n+24, len(b))
	return strconv.Quote(string(b[n:end]))
}

// Canonical JSON, specified in docs/dice.md: no whitespace, members in a
// fixed order, integers in decimal without leading zeros, byte strings in
// lowercase hex, text strings in pure ASCII with the escapes Python's
// json.dumps(ensure_ascii=True) uses.

func appendKeyString(b []byte, k, v string) []byte {
	b = append(b, ',', '"')
	b = append(b, k...)
	b = append(b, '"', ':')
	return appendString(b, v)
}

func appendKeyStrings(b []byte, k string, v []string) []byte {
	b = append(b, ',', '"')
	b = append(b, k...)
	b = append(b, '"', ':', '[')
	for i, s := range v {
		if i > 0 {
			b = append(b, ',')
		}
		b = appendString(b, s)
	}
	return append(b, ']')
}

func appendKeyUint(b []byte, k string, v uint64) []byte {
	b = append(b, ',', '"')
	b = append(b, k...)
	b = append(b, '"', ':')
	return strconv.AppendUint(b, v, 10)
}

func appendKeyHex(b []byte, k string, v []byte) []byte {
	b = append(b, ',', '"')
	b = append(b, k...)
	b = append(b, '"', ':', '"')
	for _, c := range v {
		b = append(b, hexDigits[c>>4], hexDigits[c&15])
	}
	return append(b, '"')
}

const hexDigits = "0123456789abcdef"

// appendString writes s as a JSON string in pure ASCII: " and \ escaped,
// \b \f \n \r \t as such, other control characters and DEL as \u00xx, and
// everything beyond ASCII as \uxxxx (a surrogate pair above U+FFFF), hex
// in lowercase. Invalid UTF-8 is written as U+FFFD; callers refuse it
// before it gets here.
func appendString(b []byte, s string) []byte {
	b = append(b, '"')
	for _, r := range s {
		switch {
		case r == '"':
			b = append(b, '\\', '"')
		case r == '\\':
			b = append(b, '\\', '\\')
		case r == '\b':
			b = append(b, '\\', 'b')
		case r == '\f':
			b = append(b, '\\', 'f')
		case r == '\n':
			b = append(b, '\\', 'n')
		case r == '\r':
			b = append(b, '\\', 'r')
		case r == '\t':
			b = append(b, '\\', 't')
		case r >= 0x20 && r < 0x7f:
			b = append(b, byte(r))
		case r < 0x10000:
			b = appendU(b, r)
		default:
			r -= 0x10000
			b = appendU(b, 0xd800+(r>>10))
			b = appendU(b, 0xdc00+(r&0x3ff))
		}
	}
	return append(b, '"')
}

func appendU(b []byte, r rune) []byte {
	return append(b, '\\', 'u', hexDigits[r>>12&15], hexDigits[r>>8&15], hexDigits[r>>4&15], hexDigits[r&15])
}

// checkText refuses text the log cannot carry faithfully.
func checkText(what, s string, max int) error {
	if !utf8.ValidString(s) {
		return fmt.Errorf("dice: %s is not valid UTF-8: %q", what, s)
	}
	if len(s) > max {
		return fmt.Errorf("dice: %s is %d bytes, more than %d", what, len(s), max)
	}
	return nil
}
