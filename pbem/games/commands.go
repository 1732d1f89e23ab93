package games

import (
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"strings"

	"herald/engine"
	"herald/pbem"
	"herald/templates"
)

// checkDice stops a check-only run at its first die roll: CHECK is "undo
// until randomness", so no roll is ever made or revealed.
type checkDice struct{}

func (checkDice) Roll(string) (int, error) { return 0, engine.ErrCheckStop }

// check answers CHECK: what the orders would do up to the first die roll,
// and, for the orders after it, whether they hold whatever the roll
// (whatif.go). No die of the game is rolled; nothing is stored but the
// Message-ID; the opponent is not told. The sender's own queued standing
// orders count; the opponent's standing orders do not (they are his
// secret): the check takes his decisions as if he had none.
func (w *work) check(g *game, side engine.Side, orders []engine.Order, lines []engine.Line) error {
	q, err := loadQueued(w.tx, g)
	if err != nil {
		return err
	}
	own, _, err := applyQueued(g.sc, g.st, q, checkDice{}, func(s engine.Side) bool { return s == side })
	if err != nil {
		return err
	}
	st := masked(own, side)
	res, err := engine.Apply(g.sc, st, side, orders, checkDice{})
	var illegal *engine.IllegalOrderError
	if errors.As(err, &illegal) {
		return w.refuseOrders(g, side, templates.RefusedIllegal, illegal, lines)
	}
	if err != nil {
		return err
	}
	typed := lineMap(lines)
	v := templates.Check{
		Game:  w.s.sideView(g, side),
		Side:  g.sideName(side),
		Lines: narrate(g.sc, res.Events, nil, side),
		Block: w.s.orderBlock(g, side, texts(lines)),
	}
	switch {
	case res.CheckStopped || len(res.Held) > 0:
		rest := append(append([]engine.Order(nil), res.NotApplied...), res.Held...)
		v.NotChecked, v.Judged = verdicts(rest, typed, tryEveryFace(func(face int) map[int]fate {
			return tryBlock(g.sc, st, side, orders, face)
		})), true
		v.Stopped = "at the first die roll, which Herald does not roll for a check"
		if !res.CheckStopped {
			v.Stopped = fmt.Sprintf("at the %s's Seizure decision, which they make without seeing your orders after CONTINUE; those were tried as if they declined",
				g.sideName(side.Other()))
		}
	case len(res.NotApplied) > 0:
		v.NotChecked = templates.GroupReasons(notApplied(res.NotApplied, typed, res.Stopped, res.Refused))
		v.Stopped = res.Stopped
	}
	if res.State.Outcome == nil {
		v.Waiting = engine.Waiting(g.sc, res.State)
	}
	w.out.Status = "checked"
	return w.s.send(w.tx, g, v, g.player(side), mailRef{kind: "check", tag: hashTag(w.id) + "-", side: v.Side, inReplyTo: w.id})
}

// status answers STATUS: the latest mail the side received, again.
func (w *work) status(g *game, side engine.Side) error {
	w.out.Status = "status"
	ok, err := w.s.resendLatest(w.tx, g, side, g.player(side), hashTag(w.id), resendStatus)
	if err != nil || ok {
		return err
	}
	return fmt.Errorf("games: %s: no mail kept for the %s", g.rec.ID, g.sideName(side))
}

// resignCode is the confirmation code of a resignation: it changes with
// every move, so a confirmation cannot be replayed later, and it cannot be
// made without the player's key.
func resignCode(g *game, side engine.Side) string {
	h := sha256.Sum256([]byte(fmt.Sprintf("resign\x00%s\x00%d\x00%d\x00%s", g.rec.ID, side, g.rec.Move, g.keys[side])))
	return hex.EncodeToString(h[:3])
}

// askResign answers RESIGN with the confirmation step.
func (w *work) askResign(g *game, side engine.Side) error {
	w.out.Status = "resign-asked"
	code := resignCode(g, side)
	n := templates.Notice{
		GameID: g.rec.ID,
		About:  "Confirm your resignation",
		Paragraphs: []string{fmt.Sprintf("You asked to resign game %s: the %s would concede the battle, and the game would end. To confirm, copy the block below into your reply as it is (Herald does not read the lines your mail program quotes with \">\"), or press Reply and type RESIGN CONFIRM %s yourself between the two quoted markers. To go on playing, ignore this mail: nothing has changed.",
			g.rec.ID, g.sideName(side), code)},
		Block: &templates.OrderBlock{GameID: g.rec.ID, Move: g.rec.Move, Key: g.keys[side], Prefill: []string{"RESIGN CONFIRM " + code}},
	}
	return w.s.send(w.tx, g, n, g.player(side), mailRef{kind: "resign", tag: hashTag(w.id) + "-", side: g.sideName(side), inReplyTo: w.id})
}

// resign ends the game when the confirmation code is right. Resigning is
// not a rule of the battle: the engine's state stays as it was, and the
// game's record says who resigned.
func (w *work) resign(g *game, side engine.Side, b pbem.Block) error {
	want := resignCode(g, side)
	if got := confirmationCode(b); got != want {
		return w.refuse(side, templates.Refusal{Cause: templates.RefusedStale,
			Reason: "this resignation's confirmation code is not the current one: confirm with the block of Herald's latest confirmation mail, or send RESIGN again"}, "stale-move", nil)
	}
	name := g.sideName(side)
	g.rec.Over, g.rec.Result = true, fmt.Sprintf("the %s resigned", name)
	if err := w.tx.PutGame(g.rec); err != nil {
		return err
	}
	w.out.Status = "resigned"
	acc := templates.Account{Sender: name, Lines: []templates.Narrative{{Text: fmt.Sprintf("The %s resign: the %s win.", name, g.sideName(side.Other()))}}}
	return w.s.gameOver(w.tx, g, acc, mailRef{tag: hashTag(w.id) + "-", inReplyTo: w.id}, g.sideName(side.Other()))
}

// confirmationCode is the last word of the block's RESIGN CONFIRM line.
func confirmationCode(b pbem.Block) string {
	for _, l := range b.Lines {
		f := strings.Fields(l.Text)
		if len(f) >= 3 && strings.EqualFold(f[0], "RESIGN") && strings.EqualFold(f[1], "CONFIRM") {
			return strings.ToLower(f[2])
		}
	}
	return ""
}

// organizer carries out an organizer's administrative command: STATUS
// tells him where the game stands. Organizers never receive a player's
// mails, which hold the player's key.
func (w *work) organizer(g *game, b pbem.Block) error {
	if b.Command != pbem.CommandStatus {
		return w.notice("not-allowed", "Not an organizer's command", fmt.Sprintf("As an organizer of game %s you may send STATUS; orders and resignations come from the players.", g.rec.ID))
	}
	state := "the game is " + g.current().Turn().Waiting
	if g.rec.Over {
		state = "the game is over: " + g.rec.Result
	}
	err := w.notice("status", "Game "+g.rec.ID+" at move "+fmt.Sprint(g.rec.Move), fmt.Sprintf("Game %s (%s), move %d: %s.", g.rec.ID, w.s.gameView(g).Battle, g.rec.Move, state))
	w.out.Status, w.out.Rejected = "status", false
	return err
}
