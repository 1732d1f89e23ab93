package games

import (
	"errors"
	"fmt"
	"slices"
	"strings"

	"herald/engine"
	"herald/pbem"
	"herald/pbem/store"
	"herald/templates"
)

// orders finds, routes and authenticates the mail's order block and
// carries out what it asks (docs/mail-orders.md).
func (w *work) orders() error {
	blocks, problems := w.blocks, w.problems
	id, _ := pbem.Route(w.m, blocks, []string{w.s.cfg.Address})
	if id == "" {
		if len(blocks) == 0 && len(problems) == 0 {
			return w.notice("no-block", "No orders found in your mail",
				"Herald found no order block in your mail, and no game it could be about. Reply to Herald's latest mail about your game and write your orders between the two markers of its block.")
		}
		return w.notice("unknown-game", "No such game", "Herald found an order block in your mail, but no game it names. Reply to Herald's latest mail about your game, keeping its subject and the block's first line as they are.")
	}
	if lid, ok := strings.CutPrefix(id, ladderPrefix); ok {
		return w.ladderMail(lid, blocks, problems)
	}
	if err := w.ladderGate(id); err != nil {
		return err
	}
	g, err := w.s.load(w.tx, id)
	if errors.Is(err, store.ErrNotFound) {
		return w.noGame(id)
	}
	if err != nil {
		return err
	}
	w.g = g
	if _, player := w.playerSide(); !player && !w.organizes(g) {
		return w.noGame(id)
	}
	w.out.Game = g.rec.ID
	sent, err := sentBlocks(w.tx, g.rec.ID)
	if err != nil {
		return err
	}
	b, r := pbem.PickBlock(blocks, problems, pbem.Known{Move: g.rec.Move, Sent: sent})
	switch {
	case r != nil && r.Code == pbem.CodeUnterminated:
		return w.refuseSender(templates.Refusal{Cause: templates.RefusedNoBlock, LineNo: r.Line.No, Line: r.Line.Text, Reason: r.Message}, r.Code, nil)
	case r != nil && r.Code == pbem.CodeSeveralBlocks:
		return w.refuseSender(templates.Refusal{Cause: templates.RefusedSeveral, Reason: r.Message}, r.Code, nil)
	case r != nil:
		return w.noBlock()
	}
	if b.GameID != g.rec.ID {
		return w.notice("unknown-game", "Orders for another game", fmt.Sprintf("Your mail was addressed to game %s, but its block is for game %s. Reply to Herald's latest mail about the game you mean.", g.rec.ID, b.GameID))
	}
	return w.authenticated(g, b)
}

// noGame answers a mail about a game that does not exist, or in which its
// sender (by address) neither plays nor organizes, in the same words and
// from the same address, so that a stranger can tell neither a real game
// from a missing one nor anything of a real one (docs/mail-orders.md).
func (w *work) noGame(id string) error {
	w.g = nil
	return w.notice("unknown-game", "No such game",
		fmt.Sprintf("Herald runs no game %q in which %s plays. Nothing has changed.", id, w.m.From),
		"If you play in a game, reply to Herald's latest mail about it from the address the game was set up with, keeping its subject and the block's first line as they are.")
}

// organizes reports whether the mail's sender is, by address, an
// organizer of g (of the game or of every game).
func (w *work) organizes(g *game) bool {
	base, _ := pbem.PlusTag(w.m.From)
	for _, o := range append(append([]string(nil), g.rec.Organizers...), w.s.cfg.Organizers...) {
		if b, _ := pbem.PlusTag(o); b == base {
			return true
		}
	}
	return false
}

// playerSide is the side of the mail's sender if he plays the game, by
// address alone: enough to choose whom a refusal goes to, never to act.
func (w *work) playerSide() (engine.Side, bool) {
	base, _ := pbem.PlusTag(w.m.From)
	for _, p := range w.g.rec.Players {
		if b, _ := pbem.PlusTag(p.Address); b == base {
			return w.g.side(p.Side)
		}
	}
	return 0, false
}

func (w *work) authenticated(g *game, b pbem.Block) error {
	organizers := append(append([]string(nil), g.rec.Organizers...), w.s.cfg.Organizers...)
	who, r := pbem.Authenticate(w.m, b, g.rec.Players, organizers)
	if r != nil {
		n := w.s.limiter.FailGame(w.m.From, g.rec.ID, w.s.cfg.Now())
		w.s.log.Warn("authentication failed", "game", g.rec.ID, "from", w.m.From, "code", r.Code, "failures_this_hour", n)
		if r.Code == pbem.CodeWrongSender {
			return w.noGame(g.rec.ID)
		}
		return w.refuseKey(r, b)
	}
	if who.Organizer {
		return w.organizer(g, b)
	}
	side, ok := g.side(who.Side)
	if !ok {
		return fmt.Errorf("games: %s: player of unknown side %q", g.rec.ID, who.Side)
	}
	w.authed = true
	if w.seen(playerKey(g.rec.ID, who.Side, w.id, b)) {
		return nil
	}
	if ok, notify := w.s.limiter.Allow(g.rec.ID+"/"+who.Side, w.s.cfg.Now()); !ok {
		return w.tooMany(g, who.Side, notify)
	}
	if b.Command == pbem.CommandStatus {
		return w.status(g, side)
	}
	if g.rec.Over {
		return w.refuse(side, templates.Refusal{Cause: templates.RefusedOver, Reason: "the battle is over: " + g.rec.Result}, "game-over", nil)
	}
	if why, err := w.ladderPaused(g); why != "" || err != nil {
		if err != nil {
			return err
		}
		return w.refuse(side, templates.Refusal{Cause: templates.RefusedTurn, Reason: why}, "ladder-paused", nil)
	}
	switch b.Command {
	case pbem.CommandResign:
		return w.askResign(g, side)
	case pbem.CommandConfirmResign:
		return w.resign(g, side, b)
	}
	if r := pbem.CheckMove(b, g.rec.Move); r != nil {
		return w.refuse(side, templates.Refusal{Cause: templates.RefusedStale, Reason: r.Message,
			Hint: "If you sent the same orders twice, there is nothing to do: they were carried out once. Otherwise reply to Herald's latest mail."}, r.Code, nil)
	}
	return w.play(g, side, b)
}

// play parses and applies the block's orders, or checks them (CHECK).
func (w *work) play(g *game, side engine.Side, b pbem.Block) error {
	if g.sc == nil {
		return w.playSystem(g, side, b)
	}
	lines, nonce, err := splitNonce(orderLines(b))
	var orders []engine.Order
	if err == nil {
		orders, err = engine.ParseOrders(lines)
	}
	var illegal *engine.IllegalOrderError
	if errors.As(err, &illegal) {
		return w.refuseOrders(g, side, templates.RefusedParse, illegal, lines)
	}
	if err != nil {
		return err
	}
	if len(orders) == 0 {
		return w.refuse(side, templates.Refusal{Cause: templates.RefusedNoBlock, Reason: "your order block holds no orders"}, "no-block", nil)
	}
	if !mayAct(g, side, orders) {
		return w.notYourTurn(g, side, orders, lines)
	}
	if b.Command == pbem.CommandCheck {
		return w.check(g, side, orders, lines)
	}
	if allStanding(orders) {
		if queued, err := w.queueStanding(g, side, orders, lines); queued || err != nil {
			return err
		}
	}
	err = w.s.play(w.tx, g, block{side: side, orders: orders, nonce: nonce, lines: lineMap(lines), messageID: w.id})
	if errors.As(err, &illegal) {
		return w.refuseOrders(g, side, templates.RefusedIllegal, illegal, lines)
	}
	if err != nil {
		return err
	}
	w.out.Status = "applied"
	return nil
}

// splitNonce takes the NONCE lines out of a block's lines: the words a
// player adds so that his rolls hang on something nobody could foresee
// (docs/dice.md). Each comes back canonical, "NONCE" and its words joined
// by single spaces, to head the sender's part of the batch's order text.
func splitNonce(lines []engine.Line) ([]engine.Line, []string, error) {
	var rest []engine.Line
	var nonce []string
	for _, l := range lines {
		f := strings.Fields(l.Text)
		if len(f) == 0 || !strings.EqualFold(f[0], "NONCE") {
			rest = append(rest, l)
			continue
		}
		if len(f) == 1 || strings.HasPrefix(f[1], "#") {
			return lines, nil, &engine.IllegalOrderError{Line: l.No, Text: strings.TrimSpace(l.Text), Rule: "docs/dice.md",
				Reason: "NONCE needs a word of your own after it", Legal: []string{"NONCE <any word you make up>"}}
		}
		if i := slices.IndexFunc(f, func(w string) bool { return strings.HasPrefix(w, "#") }); i > 0 {
			f = f[:i] // a comment
		}
		nonce = append(nonce, "NONCE "+strings.Join(f[1:], " "))
	}
	return rest, nonce, nil
}

// isNonce is whether a line of a batch's order text is a NONCE line.
func isNonce(text string) bool {
	f := strings.Fields(text)
	return len(f) > 0 && f[0] == "NONCE"
}

func allStanding(orders []engine.Order) bool {
	for _, o := range orders {
		if !engine.IsStanding(o) {
			return false
		}
	}
	return true
}

// orderLines are the block's lines without the command word of CHECK.
func orderLines(b pbem.Block) []engine.Line {
	var out []engine.Line
	for _, l := range b.Lines {
		if f := strings.Fields(l.Text); len(f) == 1 && strings.EqualFold(f[0], "CHECK") {
			continue
		}
		out = append(out, l)
	}
	return out
}

func lineMap(lines []engine.Line) map[int]string {
	m := map[int]string{}
	for _, l := range lines {
		m[l.No] = strings.TrimSpace(l.Text)
	}
	return m
}

// mayAct: a side acts when the game waits for it, and may send standing
// orders alone at any time.
func mayAct(g *game, side engine.Side, orders []engine.Order) bool {
	if g.st.Pending.Kind != 0 && g.st.Pending.Side == side {
		return true
	}
	for _, o := range orders {
		if !engine.IsStanding(o) {
			return false
		}
	}
	return true
}

// refuseOrders answers orders the engine refused before any die was rolled.
func (w *work) refuseOrders(g *game, side engine.Side, cause templates.RefusalKind, e *engine.IllegalOrderError, lines []engine.Line) error {
	r := templates.Refusal{Cause: cause, LineNo: e.Line, Line: e.Text, Reason: e.Reason, Rule: e.Rule, Legal: e.Legal}
	if r.Line == "" {
		r.Line = lineMap(lines)[e.Line]
	}
	if cause == templates.RefusedIllegal && r.LineNo == 0 {
		r.Waiting = engine.Waiting(g.sc, g.st)
	}
	return w.refuse(side, r, "illegal-order", lines)
}

// refuse answers a player with a Refusal, with a block to try again
// (prefilled with his lines), and records the mail as refused. The
// refusal goes to the player's own address, whoever the From: claims;
// when the mail did not authenticate, only as often as mayAnswer lets it.
func (w *work) refuse(side engine.Side, r templates.Refusal, code string, lines []engine.Line) error {
	g := w.g
	w.out.Status, w.out.Rejected = "refused:"+code, true
	tag := hashTag(w.id)
	if !w.authed {
		if !w.mayAnswer(g.player(side)) {
			return nil
		}
		tag = w.s.answerTag("refusal", g.player(side), w.id)
	}
	r.Game, r.Side = w.s.sideView(g, side), g.sideName(side)
	if !g.rec.Over {
		blk := w.s.orderBlock(g, side, texts(lines))
		r.Block = &blk
	}
	return w.s.send(w.tx, g, r, g.player(side), mailRef{kind: "refusal", tag: tag + "-", side: r.Side, inReplyTo: w.id})
}

// refuseSender refuses a mail whose sender is known only by address: a
// player gets a Refusal, anyone else a Notice that names no player.
func (w *work) refuseSender(r templates.Refusal, code string, lines []engine.Line) error {
	if side, ok := w.playerSide(); ok {
		return w.refuse(side, r, code, lines)
	}
	return w.notice(code, "Your mail was not accepted", sentenceOf(r.Reason)+" Nothing in the game has changed.")
}

func texts(lines []engine.Line) []string {
	var out []string
	for _, l := range lines {
		if t := strings.TrimSpace(l.Text); t != "" && !templates.IsMarker(t) {
			out = append(out, t)
		}
	}
	return out
}

// sentenceOf capitalises a reason and ends it with a full stop.
func sentenceOf(reason string) string {
	reason = strings.TrimSpace(reason)
	if reason == "" {
		return ""
	}
	s := strings.ToUpper(reason[:1]) + reason[1:]
	if !strings.HasSuffix(s, ".") {
		s += "."
	}
	return s
}
