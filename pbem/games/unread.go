package games

import (
	"fmt"
	"strings"

	"herald/engine"
	"herald/pbem"
	"herald/templates"
)

// noBlock answers a mail about a game that holds no block Herald can take
// (docs/mail-orders.md): it says what Herald found instead, a block quoted
// by the sender's mail program with nothing written in it, or order lines
// outside the block, and carries those lines over into the block it sends
// back, so that nothing the player typed is lost.
func (w *work) noBlock() error {
	s := pbem.FindStray(w.m.Text)
	r := templates.Refusal{Cause: templates.RefusedNoBlock,
		Reason: `Herald found no order block in your mail: orders must stand between the two markers of the block, on lines you wrote yourself (lines your mail program quoted with ">" are Herald's own)`}
	if s.QuotedBlock > 0 {
		r.Reason = fmt.Sprintf(`Herald found only its own block in your mail, quoted by your mail program (line %d, which begins it, starts with ">"), with no orders of yours between its two markers`, s.QuotedBlock)
		r.Hint = `To reply, write your orders on new lines between the two quoted markers, without ">" in front of them; or copy the block below into your reply and write them into it (the surest way when your mail program marks what you type inside a quote as quoted too).`
	}
	if len(s.Orders) > 0 {
		n := len(s.Orders)
		r.Hint = fmt.Sprintf("Your %s (%s) %s but %s outside the block, so Herald did not read %s. Herald has written %s into the block below: check %s, and send the block back.",
			linesNamed(s.Orders), quoteTexts(s.Orders), oneOrMany(n, "reads as an order", "read as orders"), oneOrMany(n, "stands", "stand"),
			oneOrMany(n, "it", "them"), oneOrMany(n, "it", "them"), oneOrMany(n, "it", "them"))
	}
	return w.refuseSender(r, pbem.CodeNoBlock, s.Orders)
}

// refuseKey answers a block without the player's key. The player's order
// lines come back in the block of the refusal, which carries his key and
// goes only to his registered address, so that he can check them and
// send them again.
func (w *work) refuseKey(r *pbem.Refusal, b pbem.Block) error {
	cause := templates.RefusedKey
	if r.Code == pbem.CodeNoKey {
		cause = templates.RefusedNoKey
	}
	hint := "Herald mails your key only to you, in the KEY line of every block it sends you, as in the block below."
	if hasOrderText(b.Lines) {
		hint = "The block below carries your KEY line and the lines of the block Herald refused: check them (if you did not send them, someone else did: ignore them), and send the block back."
	}
	return w.refuseSender(templates.Refusal{Cause: cause, Reason: r.Message, Hint: hint}, r.Code, b.Lines)
}

func hasOrderText(lines []engine.Line) bool {
	for _, l := range lines {
		if t, _, _ := strings.Cut(l.Text, "#"); strings.TrimSpace(t) != "" {
			return true
		}
	}
	return false
}

// linesNamed names lines by number: "line 5", "lines 5, 6 and 9".
func linesNamed(lines []engine.Line) string {
	var nos []string
	for _, l := range lines {
		nos = append(nos, fmt.Sprint(l.No))
	}
	if len(nos) == 1 {
		return "line " + nos[0]
	}
	return "lines " + strings.Join(nos[:len(nos)-1], ", ") + " and " + nos[len(nos)-1]
}

// quoteTexts lists lines' texts: "ACTIVATE Alencon; END".
func quoteTexts(lines []engine.Line) string {
	var t []string
	for _, l := range lines {
		t = append(t, l.Text)
	}
	return strings.Join(t, "; ")
}

func oneOrMany(n int, one, many string) string {
	if n == 1 {
		return one
	}
	return many
}

// notYourTurn refuses orders sent while the game waits for the opponent.
// It must not invite the player to send them again at once: the block it
// carries keeps only his standing orders, which he may send at any time,
// and it names the other lines, to be sent in answer to Herald's next
// mail to him.
func (w *work) notYourTurn(g *game, side engine.Side, orders []engine.Order, lines []engine.Line) error {
	standing := map[int]bool{}
	for _, o := range orders {
		if engine.IsStanding(o) {
			standing[o.LineNo()] = true
		}
	}
	var keep, later []engine.Line
	for _, l := range lines {
		switch {
		case standing[l.No]:
			keep = append(keep, l)
		case hasOrderText([]engine.Line{l}):
			later = append(later, l)
		}
	}
	r := templates.Refusal{Cause: templates.RefusedTurn,
		Reason: fmt.Sprintf("the %s have no decision to make now", g.sideName(side)), Waiting: g.current().Turn().Waiting}
	if len(later) > 0 {
		r.Hint = fmt.Sprintf("Keep your %s (%s) for later: Herald will mail you when the game waits for the %s, with a block for that move; send %s in answer to that mail, not now.",
			linesNamed(later), quoteTexts(later), g.sideName(side), oneOrMany(len(later), "it", "them"))
	}
	return w.refuse(side, r, "not-your-turn", keep)
}
