package pbem

import (
	"errors"
	"fmt"
	"slices"
	"strings"

	"herald/engine"
)

// Refusal codes: stable identifiers of why a mail was not carried out.
// The daemon records a refused mail as "refused:<code>"; tests and logs
// match on them. docs/mail-orders.md lists what each one says.
const (
	CodeTooLarge      = "too-large"          // ReadMail: over ReadOptions.MaxBytes
	CodeMalformed     = "malformed"          // ReadMail: the MIME structure cannot be read
	CodeNoBlock       = "no-block"           // OneBlock: no complete block
	CodeSeveralBlocks = "several-blocks"     // OneBlock: more than one block
	CodeUnterminated  = "unterminated-block" // OneBlock: a begin marker without an end marker
	CodeUnknownGame   = "unknown-game"       // daemon: Route found no game, or one Herald does not run
	CodeWrongSender   = "wrong-sender"       // Authenticate: From is no player of the game
	CodeWrongKey      = "wrong-key"          // Authenticate: the KEY is not the player's
	CodeNoKey         = "no-key"             // Authenticate: the block has no KEY line
	CodeStaleMove     = "stale-move"         // CheckMove: the block's move is not the game's
	CodeNotYourTurn   = "not-your-turn"      // daemon: the side has no decision pending
	CodeDuplicate     = "duplicate"          // daemon: the Message-ID was processed before
	CodeGameOver      = "game-over"          // daemon: the battle has ended
	CodeRateLimited   = "rate-limited"       // daemon: Limiter.Allow said no
	CodeIllegalOrder  = "illegal-order"      // daemon: engine.ParseOrders or engine.Apply refused a line
)

// Refusal is a clear, specific answer to mail that cannot be applied.
type Refusal struct {
	Code    string       // one of the Code constants
	Message string       // the human sentence(s), without the line
	Line    *engine.Line // the offending line with its number in Mail.Text, if any
	Legal   []string     // what would be legal, when known
}

func (r *Refusal) Error() string {
	if r.Line != nil {
		return fmt.Sprintf("pbem: %s: line %d %q: %s", r.Code, r.Line.No, r.Line.Text, r.Message)
	}
	return "pbem: " + r.Code + ": " + r.Message
}

// ReadRefusal is the answer to a ReadMail error: "too-large" or
// "malformed", with the MailError's reason. It returns nil for nil.
func ReadRefusal(err error) *Refusal {
	if err == nil {
		return nil
	}
	var me *MailError
	if errors.As(err, &me) && me.TooLarge {
		return &Refusal{Code: CodeTooLarge, Message: me.Reason}
	}
	if me != nil {
		return &Refusal{Code: CodeMalformed, Message: me.Reason}
	}
	return &Refusal{Code: CodeMalformed, Message: err.Error()}
}

// OneBlock picks the one block of a mail, or refuses, knowing nothing of
// the game: PickBlock with an empty Known.
func OneBlock(blocks []Block, problems []Problem) (Block, *Refusal) {
	return PickBlock(blocks, problems, Known{})
}

// Known is what the daemon knows that tells the sender's block from the
// blocks his mail client quoted without marking them as quoted.
type Known struct {
	Move int // the game's current move; 0 when unknown
	// Sent are the Fingerprints of the blocks Herald mailed lately about
	// the game: a block identical to one of them is Herald's, quoted.
	Sent []string
}

// PickBlock picks the sender's block of a mail, or refuses: "no-block"
// when there is none, "unterminated-block" when there is none but a begin
// marker without an end marker (the refusal quotes that marker), and
// "several-blocks" when more than one remains (quoting the second begin
// marker, and naming the lines of each block). A complete block alone is
// taken even if an unterminated begin marker stands elsewhere in the mail.
//
// Of several blocks, those the sender cannot mean are left out, by what
// they say rather than by where they stand, so that an earlier mail a
// client quoted without ">" (and with headers Herald does not know) does
// not count: blocks for an earlier move when one for the current move is
// there, then blocks identical to one Herald sent, then blocks holding no
// orders at all. Blocks that all say the same (the sender's copy of a
// block Herald prefilled, and the original quoted below it) are one. A
// block read below an unmarked quote (Block.BelowQuote) that is Herald's,
// empty or for an earlier move is left out even when it is alone; a block
// quoted whole (Block.AllQuoted) is taken only when it is the mail's one
// block, for the current move, and Herald knows it did not send it.
func PickBlock(blocks []Block, problems []Problem, k Known) (Block, *Refusal) {
	blocks = slices.DeleteFunc(slices.Clone(blocks), func(b Block) bool {
		return b.BelowQuote && (b.Move < k.Move || slices.Contains(k.Sent, b.Fingerprint()) || !hasOrders(b.Lines))
	})
	own := len(blocks) - count(blocks, func(b Block) bool { return b.AllQuoted })
	blocks = slices.DeleteFunc(blocks, func(b Block) bool {
		return b.AllQuoted && (own > 0 || k.Move == 0 || b.Move != k.Move || len(k.Sent) == 0 || slices.Contains(k.Sent, b.Fingerprint()))
	})
	if len(blocks) > 1 && k.Move > 0 {
		blocks = narrow(blocks, func(b Block) bool { return b.Move == k.Move })
	}
	if len(blocks) > 1 && len(k.Sent) > 0 {
		blocks = narrow(blocks, func(b Block) bool { return !slices.Contains(k.Sent, b.Fingerprint()) })
	}
	if len(blocks) > 1 {
		blocks = narrow(blocks, func(b Block) bool { return hasOrders(b.Lines) })
	}
	if len(blocks) > 1 && allSame(blocks) {
		blocks = blocks[:1] // the sender's copy of a block, and the quoted original
	}
	switch {
	case len(blocks) == 1:
		return blocks[0], nil
	case len(blocks) > 1:
		return Block{}, &Refusal{Code: CodeSeveralBlocks,
			Line:    &engine.Line{No: blocks[1].Begin, Text: blocks[1].Marker()},
			Message: SeveralBlocks(blocks)}
	case len(problems) > 0:
		p := problems[0]
		return Block{}, &Refusal{Code: CodeUnterminated, Line: &engine.Line{No: p.Line, Text: p.Text}, Message: p.Reason}
	}
	return Block{}, &Refusal{Code: CodeNoBlock, Message: "Herald found no order block in your mail: orders must stand " +
		"between the two markers of the block, in your own text, not in quoted text or below your signature"}
}

// SeveralBlocks says which blocks a mail holds, by their lines, and why
// one is wanted.
func SeveralBlocks(blocks []Block) string {
	var where []string
	for _, b := range blocks {
		where = append(where, fmt.Sprintf("lines %d-%d (move %d)", b.Begin, b.End, b.Move))
	}
	last := len(where) - 1
	list := strings.Join(where[:last], ", ") + " and " + where[last]
	return fmt.Sprintf("your mail holds %d order blocks, at %s; Herald carries out one block per mail, "+
		"so that the order of your orders is never in doubt: send again with the block you mean alone", len(blocks), list)
}

func count(blocks []Block, f func(Block) bool) int {
	n := 0
	for _, b := range blocks {
		if f(b) {
			n++
		}
	}
	return n
}

// allSame: every block says the same (Fingerprint).
func allSame(blocks []Block) bool {
	for _, b := range blocks[1:] {
		if b.Fingerprint() != blocks[0].Fingerprint() {
			return false
		}
	}
	return true
}

// narrow keeps the blocks that pass keep, or all of them when none does.
func narrow(blocks []Block, keep func(Block) bool) []Block {
	var out []Block
	for _, b := range blocks {
		if keep(b) {
			out = append(out, b)
		}
	}
	if len(out) == 0 {
		return blocks
	}
	return out
}

// hasOrders: some line is neither blank nor only a comment.
func hasOrders(lines []engine.Line) bool {
	for _, l := range lines {
		text, _, _ := strings.Cut(l.Text, "#")
		if strings.TrimSpace(text) != "" {
			return true
		}
	}
	return false
}
