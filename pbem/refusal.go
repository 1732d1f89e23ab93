package pbem

import (
	"errors"
	"fmt"

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

// OneBlock picks the one block of a mail, or refuses: "no-block" when
// there is none, "unterminated-block" when there is none but a begin
// marker without an end marker (the refusal quotes that marker), and
// "several-blocks" when there is more than one (quoting the second begin
// marker). A complete block alone is taken even if an unterminated begin
// marker stands elsewhere in the mail.
func OneBlock(blocks []Block, problems []Problem) (Block, *Refusal) {
	switch {
	case len(blocks) == 1:
		return blocks[0], nil
	case len(blocks) > 1:
		return Block{}, &Refusal{Code: CodeSeveralBlocks,
			Line: &engine.Line{No: blocks[1].Begin, Text: blocks[1].Marker()},
			Message: fmt.Sprintf("your mail holds %d order blocks; Herald carries out one block per mail, "+
				"so that the order of your orders is never in doubt", len(blocks))}
	case len(problems) > 0:
		p := problems[0]
		return Block{}, &Refusal{Code: CodeUnterminated, Line: &engine.Line{No: p.Line, Text: p.Text}, Message: p.Reason}
	}
	return Block{}, &Refusal{Code: CodeNoBlock, Message: "Herald found no order block in your mail: orders must stand " +
		"between the two markers of the block, in your own text, not in quoted text or below your signature"}
}
