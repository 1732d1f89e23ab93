package pbem

import (
	"strings"

	"herald/engine"
)

// Stray is what a mail without a block holds that looks meant for one, so
// that the "no orders found" answer can say what happened and carry the
// orders over into the block it sends back.
type Stray struct {
	// QuotedBlock is the line of the begin marker of a block the
	// sender's client quoted (">") with nothing of his own between its
	// markers; 0 for none.
	QuotedBlock int
	// Orders are the lines the sender wrote himself, outside any block,
	// that read as orders (engine.ParseOrders), trimmed.
	Orders []engine.Line
}

// FindStray looks at a mail in which FindBlocks found no complete block.
func FindStray(text string) Stray {
	f := scan(text)
	var s Stray
	if len(f.emptyQuoted) > 0 {
		s.QuotedBlock = f.emptyQuoted[0]
	}
	inBlock := func(no int) bool {
		for _, b := range f.blocks {
			if no >= b.Begin && no <= b.End {
				return true
			}
		}
		return false
	}
	lines, _ := readLines(text, false)
	for _, l := range lines {
		t := strings.TrimSpace(l.Text)
		if l.depth != 0 || inBlock(l.No) || !looksLikeOrder(t) {
			continue
		}
		s.Orders = append(s.Orders, engine.Line{No: l.No, Text: t})
	}
	return s
}

// looksLikeOrder: t is one order, as the order parser reads it; markers,
// KEY lines and comments are not.
func looksLikeOrder(t string) bool {
	text, _, _ := strings.Cut(t, "#")
	if strings.TrimSpace(text) == "" || keyLine.MatchString(t) || beginStart.MatchString(undash(t)) || endMarker.MatchString(undash(t)) {
		return false
	}
	orders, err := engine.ParseOrders([]engine.Line{{No: 1, Text: t}})
	return err == nil && len(orders) == 1
}
