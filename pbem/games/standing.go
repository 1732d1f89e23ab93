package games

import (
	"encoding/json"
	"fmt"
	"slices"
	"strings"

	"herald/engine"
	"herald/pbem/store"
	"herald/templates"
)

// Standing orders are a player's secret until they act (docs/orders.md).
// A block of standing orders alone that settles nothing changes nothing
// the opponent could see: it is not carried out as a move of its own,
// which would mail the opponent and open a dice batch whose next seed
// only the sender would see committed. It is queued instead, and carried
// out at the head of the next block Herald applies, whoever sends it, in
// the same dice batch: the batch's order text gives each queued block
// under a "[Side]" line before the block itself (Replayer reads them), so
// the log replays exactly. Until then nothing happens in the game, so the
// standing orders act exactly as if they had been carried out at once.

// queued is a standing-orders block waiting for the next applied block.
type queued struct {
	Side  string            `json:"side"`
	Lines []engine.HeldLine `json:"lines"` // canonical text, line numbers as sent
}

const queuedKey = "queued-standing"

func loadQueued(tx *store.Tx, g *game) ([]queued, error) {
	raw, err := tx.Mail(g.rec.ID, queuedKey)
	if err != nil || len(raw) == 0 {
		return nil, err
	}
	var q []queued
	if err := json.Unmarshal(raw, &q); err != nil {
		return nil, fmt.Errorf("games: %s: queued standing orders: %w", g.rec.ID, err)
	}
	return q, nil
}

func saveQueued(tx *store.Tx, g *game, q []queued) error {
	if len(q) == 0 {
		return tx.PutMail(g.rec.ID, queuedKey, []byte{})
	}
	raw, err := json.Marshal(q)
	if err != nil {
		return err
	}
	return tx.PutMail(g.rec.ID, queuedKey, raw)
}

// orders parses a queued block again.
func (q queued) orders() ([]engine.Order, error) {
	var lines []engine.Line
	for _, l := range q.Lines {
		lines = append(lines, engine.Line{No: l.No, Text: l.Text})
	}
	return engine.ParseOrders(lines)
}

// applyQueued carries out the queued blocks of the sides in only (all
// sides when only is nil) on st, with dice that must not be rolled.
func applyQueued(sc *engine.Scenario, st *engine.State, q []queued, dice engine.Dice, only func(engine.Side) bool) (*engine.State, []engine.Event, error) {
	var events []engine.Event
	for _, b := range q {
		side, ok := sc.SideByName(b.Side)
		if !ok {
			return nil, nil, fmt.Errorf("games: queued standing orders of unknown side %q", b.Side)
		}
		if only != nil && !only(side) {
			continue
		}
		orders, err := b.orders()
		if err != nil {
			return nil, nil, err
		}
		res, err := engine.Apply(sc, st, side, orders, dice)
		if err != nil {
			return nil, nil, fmt.Errorf("games: queued standing orders of the %s: %w", b.Side, err)
		}
		st, events = res.State, append(events, res.Events...)
	}
	return st, events, nil
}

// batchText is the order text of a dice batch: the block's canonical
// text, after the queued blocks each under its "[Side]" line, and then
// under its own sender's.
func batchText(sc *engine.Scenario, q []queued, b block) string {
	own := ownText(b)
	if len(q) == 0 {
		return own
	}
	var sb strings.Builder
	for _, x := range q {
		sb.WriteString("[" + x.Side + "]\n")
		for _, l := range x.Lines {
			sb.WriteString(l.Text + "\n")
		}
	}
	sb.WriteString("[" + sc.SideName(b.side) + "]\n")
	sb.WriteString(own)
	return sb.String()
}

// ownText is the sender's part of a batch's order text: his NONCE lines,
// then his block's canonical text. The rolls of the batch are derived
// from its hash (dice.SenderBlock).
func ownText(b block) string {
	var sb strings.Builder
	for _, n := range b.nonce {
		sb.WriteString(n + "\n")
	}
	sb.WriteString(engine.CanonicalBlock(b.orders))
	return sb.String()
}

// section is one side's part of a batch's order text.
type section struct {
	side  string
	lines []engine.Line
}

// sections splits a batch's order text at its "[Side]" lines; a text
// without them is one block of side.
func sections(text, side string) []section {
	var out []section
	for _, l := range engine.SplitLines(strings.TrimSuffix(text, "\n")) {
		t := strings.TrimSpace(l.Text)
		if strings.HasPrefix(t, "[") && strings.HasSuffix(t, "]") {
			out = append(out, section{side: t[1 : len(t)-1]})
			continue
		}
		if len(out) == 0 {
			out = append(out, section{side: side})
		}
		out[len(out)-1].lines = append(out[len(out)-1].lines, l)
	}
	return out
}

// queueStanding queues a block of standing orders alone that settles
// nothing, and tells its sender, and only him. It reports false when the
// block does settle something (a decision of the sender's that his new
// standing orders answer): that block is carried out as any other.
func (w *work) queueStanding(g *game, side engine.Side, orders []engine.Order, lines []engine.Line) (bool, error) {
	q, err := loadQueued(w.tx, g)
	if err != nil {
		return false, err
	}
	st, _, err := applyQueued(g.sc, g.st, q, checkDice{}, nil)
	if err != nil {
		return false, err
	}
	res, err := engine.Apply(g.sc, st, side, orders, checkDice{})
	if err != nil {
		return false, nil // refused as any block is, by play
	}
	if res.CheckStopped || len(res.NotApplied) > 0 {
		return false, nil
	}
	for _, e := range res.Events {
		if owner, private := engine.PrivateTo(e); !private || owner != side {
			return false, nil
		}
	}
	b := queued{Side: g.sc.SideName(side)}
	var shown []string
	for _, o := range orders {
		b.Lines = append(b.Lines, engine.HeldLine{No: o.LineNo(), Text: o.String()})
		shown = append(shown, "  "+o.String())
	}
	if sameAsLast(q, b) {
		return true, w.alreadySet(g, side, shown)
	}
	if err := saveQueued(w.tx, g, append(q, b)); err != nil {
		return false, err
	}
	w.out.Status = "applied"
	n := templates.Notice{GameID: g.rec.ID, About: "Standing orders set",
		Paragraphs: []string{
			fmt.Sprintf("Herald has set your standing orders for game %s:", g.rec.ID),
			strings.Join(shown, "\n"),
			fmt.Sprintf("They are yours alone: the %s are not told of them until they act, and nothing else in the game has changed (it is still move %d, and no die was rolled). They hold from now on.",
				g.sc.SideName(side.Other()), g.rec.Move),
		}}
	if p := g.st.Pending; p.Kind != 0 && p.Side == side {
		blk := w.s.orderBlock(g, side, nil)
		n.Block = &blk
		n.Paragraphs = append(n.Paragraphs, "The game is "+engine.Waiting(g.sc, g.st)+": reply with your orders in the block below.")
	}
	return true, w.s.send(w.tx, g, n, g.player(side), mailRef{kind: "standing", tag: hashTag(w.id) + "-", side: g.sc.SideName(side), inReplyTo: w.id})
}

// sameAsLast is whether b repeats the last block its side queued: a copy
// of a mail already carried out, under another Message-ID (resent by the
// player, or injected by someone who wants the batch's order text to
// change). It would change nothing, so nothing is done (docs/dice.md,
// "Threat model").
func sameAsLast(q []queued, b queued) bool {
	for i := len(q) - 1; i >= 0; i-- {
		if q[i].Side != b.Side {
			continue
		}
		return slices.EqualFunc(q[i].Lines, b.Lines, func(x, y engine.HeldLine) bool { return x.Text == y.Text })
	}
	return false
}

// alreadySet tells the sender that the standing orders he sent are
// already set, and changes nothing.
func (w *work) alreadySet(g *game, side engine.Side, shown []string) error {
	w.out.Status, w.out.Rejected = "ignored:already-set", true
	n := templates.Notice{GameID: g.rec.ID, About: "Standing orders already set",
		Paragraphs: []string{
			fmt.Sprintf("These standing orders for game %s are already set, by a block just like this one that Herald has not yet carried out:", g.rec.ID),
			strings.Join(shown, "\n"),
			"Nothing has changed. If you did not send this mail again yourself, tell your opponent and your club: it is a copy of your earlier one.",
		}}
	return w.s.send(w.tx, g, n, g.player(side), mailRef{kind: "standing", tag: hashTag(w.id) + "-", side: g.sc.SideName(side), inReplyTo: w.id})
}
