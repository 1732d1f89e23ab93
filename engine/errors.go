package engine

import (
	"errors"
	"fmt"
	"strings"
)

// IllegalOrderError is the one error type for an order that cannot be
// carried out: it does not parse, or the rules forbid it now. It says which
// line, which rule, why, and what would be legal instead, so that a reply can
// be written from it alone. Bugs and failing dice are ordinary errors.
type IllegalOrderError struct {
	Line   int      // line number in the block's source text; 0 if none
	Text   string   // the offending line as typed
	Rule   string   // the rule section that forbids it ("4.2"), or "docs/orders.md" for syntax
	Reason string   // why, in a sentence
	Legal  []string // orders that would be legal instead, if known
}

var _ error = (*IllegalOrderError)(nil)

func (e *IllegalOrderError) Error() string {
	var b strings.Builder
	b.WriteString("engine: ")
	if e.Line > 0 {
		fmt.Fprintf(&b, "line %d: ", e.Line)
	}
	if e.Text != "" {
		fmt.Fprintf(&b, "%q: ", e.Text)
	}
	b.WriteString(e.Reason)
	if e.Rule != "" {
		fmt.Fprintf(&b, " (%s)", e.Rule)
	}
	if len(e.Legal) > 0 {
		fmt.Fprintf(&b, "; legal: %s", strings.Join(e.Legal, " | "))
	}
	return b.String()
}

// ErrCheckStop is returned by a Dice used for a check-only run (the mail
// command CHECK): Apply stops before the first die roll and reports what
// would happen up to there, changing nothing.
var ErrCheckStop = errors.New("engine: check stops before the first die roll")

// ErrGameOver is the reason given for any order once the battle has ended.
var ErrGameOver = errors.New("engine: the battle is over")
