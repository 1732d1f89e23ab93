package games

import (
	"crypto/sha256"
	"encoding/json"
	"fmt"
	"strconv"
	"strings"
	"sync/atomic"

	"herald/engine"
	"herald/pbem/dice"
	"herald/pbem/mailbox"
	"herald/pbem/store"
	"herald/pbem/system/menofiron"
	"herald/templates"
)

// block is an authenticated order block about to be applied.
type block struct {
	side      engine.Side
	orders    []engine.Order
	nonce     []string       // canonical NONCE lines (splitNonce)
	lines     map[int]string // the lines as typed, by number, for replies
	messageID string         // of the mail that carried it
}

// play applies an order block under the game's next dice batch and stores
// everything it did: events, state, dice log, game record and the mails to
// both players. An illegal block comes back as the error, with nothing
// stored and the batch's seed unrevealed.
func (s *Service) play(tx *store.Tx, g *game, b block) error {
	sender := g.sc.SideName(b.side)
	q, err := loadQueued(tx, g)
	if err != nil {
		return err
	}
	batch, err := dice.Begin(g.chain, g.seed, sender, uint64(g.rec.Move), batchText(g.sc, q, b))
	if err != nil {
		return err
	}
	st, pre, err := applyQueued(g.sc, g.st, q, batch, nil)
	if err != nil {
		return err
	}
	res, err := engine.Apply(g.sc, st, b.side, b.orders, batch)
	if err != nil {
		return err
	}
	all := *res
	all.Events = append(pre, res.Events...)
	enc, err := encodeBlock(&all)
	if err != nil {
		return err
	}
	d := enc.digests()
	if err := logPlays(g.sc, batch, all.Events); err != nil {
		return err
	}
	up, err := batch.Close(s.key, d.EventsSHA256, d.StateSHA256)
	if err != nil {
		return err
	}
	before := g.st
	if err := s.record(tx, g, &all, enc, up); err != nil {
		return err
	}
	if len(q) > 0 {
		if err := saveQueued(tx, g, nil); err != nil {
			return err
		}
	}
	if len(res.Held) > 0 {
		if err := keepPlaces(tx, g, b.side, b.orders); err != nil {
			return err
		}
	}
	return s.announce(tx, g, b, before, res, up)
}

// Digests are the hashes of a block's events and resulting state that the
// dice log records for it, and that herald verify recomputes.
func Digests(res *engine.BlockResult) (dice.Digest, error) {
	enc, err := encodeBlock(res)
	if err != nil {
		return dice.Digest{}, err
	}
	return enc.digests(), nil
}

// encodedBlock is a block's events and resulting state as stored, encoded
// once for the dice log's digests, the store and the Reach hints' job.
type encodedBlock struct {
	events [][]byte
	state  []byte // engine.State.Encode()
}

func encodeBlock(res *engine.BlockResult) (encodedBlock, error) {
	evs, err := marshalEvents(res.Events)
	if err != nil {
		return encodedBlock{}, err
	}
	return encodedBlock{events: evs, state: res.State.Encode()}, nil
}

func (e encodedBlock) digests() dice.Digest {
	return dice.Digest{EventsSHA256: dice.EventsSHA256(e.events), StateSHA256: sha256.Sum256(e.state)}
}

func marshalEvents(events []engine.Event) ([][]byte, error) {
	var out [][]byte
	for _, e := range events {
		b, err := engine.MarshalEvent(e)
		if err != nil {
			return nil, err
		}
		out = append(out, b)
	}
	return out, nil
}

// record stores what a block did and moves the game on.
func (s *Service) record(tx *store.Tx, g *game, res *engine.BlockResult, enc encodedBlock, up *dice.Update) error {
	if err := tx.AppendEvents(g.rec.ID, enc.events, enc.state); err != nil {
		return err
	}
	if err := saveDice(tx, g.rec.ID, g.header.Line(), up); err != nil {
		return err
	}
	g.st, g.chain, g.seed = res.State, up.Chain, up.Next
	g.encoded = encodedState{of: res.State, data: enc.state}
	g.rec.Move = res.State.Move + 1
	if o := res.State.Outcome; o != nil {
		g.rec.Over, g.rec.Result = true, o.Reason
	}
	return tx.PutGame(g.rec)
}

// announce mails both players what the block did: the game's end, or the
// result with the pre-filled block for the player who acts next, or the
// question for the player whose decision interrupts the turn.
func (s *Service) announce(tx *store.Tx, g *game, b block, before *engine.State, res *engine.BlockResult, up *dice.Update) error {
	acc := templates.Account{Sender: g.sc.SideName(b.side), Dice: diceView(up, narrate(g.sc, res.Events, up.Rolls, b.side), g.rec.ID)}
	ref := mailRef{kind: "result", tag: fmt.Sprintf("b%d-", up.Batch), latest: true}
	if s.cfg.Map != nil { // drawn after the commit (mapjobs.go)
		job, err := fieldJob(g.sc, before, g.st, res.Events)
		if err != nil {
			return fmt.Errorf("games: map of %s: %w", g.rec.ID, err)
		}
		acc.MapCID = fmt.Sprintf("map.%s.%d@%s", g.rec.ID, up.Batch, s.host())
		ref.inline = []mailbox.Part{{Name: mapName(g.rec.ID, g.rec.Move, up.Batch), ContentType: "image/png", ContentID: acc.MapCID}}
		ref.maps = []mapJob{job}
	}
	if g.rec.Over {
		acc.Lines = narrate(g.sc, res.Events, up.Rolls, b.side)
		acc.Dice.Record = diceRecord(g, up, true) // the export attached reveals all
		return s.gameOver(tx, g, acc, ref, "")
	}
	for i := range 2 {
		side := engine.Side(i)
		a := acc
		a.Lines = narrate(g.sc, res.Events, up.Rolls, side)
		a.Dice.Record = diceRecord(g, up, side == b.side || !secretBlock(b, res))
		r := ref
		r.side = g.sideName(side)
		var again []string
		if side == b.side {
			a.NotApplied = templates.GroupReasons(notApplied(res.NotApplied, b.lines, res.Stopped, res.Refused))
			r.inReplyTo = b.messageID
			if len(res.Held) > 0 {
				a.Kept, a.KeptSide = keptVerdicts(g.sc, g.st, side, b.orders, res.Held, b.lines), r.side
				a.KeptIntro = fmt.Sprintf("The %s may now try to Seize, and decide without seeing these orders. Herald keeps them, and carries them out at once if your Continuation succeeds; if it fails or is Seized, you get them back. Checked now with every result the dice can show:",
					g.sc.SideName(side.Other()))
			}
		}
		for _, rel := range res.Released {
			if rel.Side == side && side != b.side {
				places, err := heldPlaces(tx, g, side)
				if err != nil {
					return err
				}
				a.Kept, a.KeptIntro, a.KeptSide = released(rel, places), keptIntro(g.sc, rel), r.side
				for _, o := range rel.NotApplied {
					again = append(again, o.String())
				}
			}
		}
		v := s.resultView(g, side, a, again)
		r.reach = reachJobOf(g, v)
		if err := s.send(tx, g, v, g.player(side), r); err != nil {
			return err
		}
	}
	// The observers' copy: no side's private events, the dice record as
	// the side that did not send the block has it, no block (ladder.go).
	return s.observeResult(tx, g, fmt.Sprintf("b%d", up.Batch), narrate(g.sc, res.Events, up.Rolls, engine.Side(-1)),
		diceRecord(g, up, !secretBlock(b, res)))
}

// diceRecord is the batch's dice record for a mail (docs/dice.md, "The
// record in every mail"), with the sender's block when withOrders; none
// for a game of format version 1, whose rolls it could not check.
func diceRecord(g *game, up *dice.Update, withOrders bool) string {
	if g.header.Version < dice.Version {
		return ""
	}
	return dice.BatchRecord(&g.header, up, withOrders).String()
}

// secretBlock is whether a block holds orders its sender's opponent may
// not see yet: standing orders, orders kept over his decision, or a plan
// for one of his hidden Seizure counters. The
// opponent's dice record then gives only the block's hash.
func secretBlock(b block, res *engine.BlockResult) bool {
	if len(res.Held) > 0 {
		return true
	}
	for _, o := range b.orders {
		if engine.IsStanding(o) {
			return true
		}
	}
	// An event only the sender may see (a plan for a Seizure counter,
	// B&R 6.3) makes the block his secret too: its lines would tell it.
	for _, e := range res.Events {
		if owner, private := engine.PrivateTo(e); private && owner == b.side {
			return true
		}
	}
	return false
}

// released lists the held orders a block settled, each with its fate, by
// the lines of the owner's mail (places: a held order's place in its
// block, to its line).
func released(rel *engine.Released, places map[int]int) []templates.NotApplied {
	var out []templates.NotApplied
	line := func(o engine.Order, reason, rule string) templates.NotApplied {
		n := places[o.LineNo()]
		if n == 0 {
			n = o.LineNo()
		}
		return templates.NotApplied{LineNo: n, Line: o.String(), Reason: reason, Rule: rule}
	}
	for _, o := range rel.Applied {
		out = append(out, line(o, "carried out", ""))
	}
	for _, o := range rel.NotApplied {
		if rel.Refused != nil && rel.Refused.Line == o.LineNo() {
			out = append(out, line(o, "refused: "+rel.Refused.Reason, rel.Refused.Rule))
			continue
		}
		out = append(out, line(o, "not carried out: "+rel.Stopped, ""))
	}
	for _, o := range rel.Held {
		out = append(out, line(o, "kept again: the Continuation named in them waits for a new Seizure decision", ""))
	}
	return templates.GroupReasons(out)
}

// heldPlaces maps the places of a side's held orders in their block to
// the lines of the mail that gave them (kept when they were held).
func heldPlaces(tx *store.Tx, g *game, side engine.Side) (map[int]int, error) {
	raw, err := tx.Mail(g.rec.ID, "held-lines:"+g.sc.SideName(side))
	if err != nil || len(raw) == 0 {
		return nil, err
	}
	places := map[int]int{}
	return places, json.Unmarshal(raw, &places)
}

// keepPlaces stores, for a block that holds orders, each order's line
// in the mail by its place in the block.
func keepPlaces(tx *store.Tx, g *game, side engine.Side, orders []engine.Order) error {
	places := map[int]int{}
	for i, o := range orders {
		places[i+1] = o.LineNo()
	}
	raw, err := json.Marshal(places)
	if err != nil {
		return err
	}
	return tx.PutMail(g.rec.ID, "held-lines:"+g.sc.SideName(side), raw)
}

func keptIntro(sc *engine.Scenario, rel *engine.Released) string {
	if rel.Carried {
		return fmt.Sprintf("Your Continuation of %s succeeded, and the orders you had given after CONTINUE were carried out with it, as far as they went:", commandLabel(sc, rel.Command))
	}
	return fmt.Sprintf("The orders you had given after CONTINUE for %s were not carried out; they are back in your block below, to use as you wish:", commandLabel(sc, rel.Command))
}

// commandLabel is a Command's name for a mail.
func commandLabel(sc *engine.Scenario, id string) string {
	if c := sc.Command(id); c != nil && c.Name != "" {
		return c.Name
	}
	return id
}

// mapName names a mail's map by the move of the mail (the move its block
// carries, as its subject and the map's title say) and the dice batch of
// the orders it shows: a block of standing orders alone leaves the move
// as it was, so the move alone would give two maps one name.
func mapName(game string, move int, batch uint64) string {
	return fmt.Sprintf("%s-move-%d-b%d.png", game, move, batch)
}

// resultView is a side's mail after a block: a Decision when the game waits
// for him in the middle of his opponent's turn, else a Result.
func (s *Service) resultView(g *game, side engine.Side, acc templates.Account, again []string) templates.View {
	p := g.st.Pending
	gv := s.sideView(g, side)
	name := g.sc.SideName(side)
	next := menofiron.NextLabel(g.sc, p)
	waiting := engine.Waiting(g.sc, g.st)
	if p.Side != side {
		return templates.Result{Game: gv, Account: acc, Side: name, Next: next, Waiting: waiting}
	}
	blk := s.orderBlock(g, side, append(prefill(acc.NotApplied), again...))
	legal := engine.Legal(g.sc, g.st)
	if p.Side != g.st.Active {
		question := "Your opponent is about to roll for Continuity: " + waiting + "."
		hint := "Standing orders settle this without a mail next time: " + seizeHint(g.sc, side)
		switch p.Kind {
		case engine.DecideNegation:
			question = "Your opponent has played a Seizure Opportunity counter to Seize Continuity from you, and is about to roll: " + waiting + ". A Seizure Negation counter of yours cancels it (both are discarded): `NEGATE <counter>`; otherwise `DECLINE` (B&R 6.3)."
			hint = "Herald asks whenever you hold a counter, so that the question tells your opponent nothing of which (ruling R210)."
		case engine.DecideRetreat:
			question = "One of your units must retreat, and your standing orders ask you where: " + waiting + "."
			hint = "`STANDING RETREAT AUTO` lets Herald choose your retreats (nearest your Standard, fewest enemy ZOCs) without a mail."
		case engine.DecideAdvance:
			question = "Your Counter-Charge has driven the enemy from its hex, and your standing orders ask you who advances and how it faces: " + waiting + "."
			hint = "`STANDING ADVANCE AFTER COMBAT AUTO` lets Herald choose (10.5's priorities, then the first unit by id; the facing kept) without a mail."
		case engine.DecideReturnFire:
			question = "One of your units is fired at, and your standing orders ask you whether it returns the fire: " + waiting + "."
			hint = "`STANDING RETURN FIRE ALWAYS` (or NEVER), for the whole army, a Command or a unit, answers without a mail."
		case engine.DecideReaction:
			question = "An enemy unit has moved into the Frontal hex of your missile units, and your standing orders ask you whether they fire: " + waiting + ". Its move goes on after your answer."
			hint = "`STANDING REACTION FIRE ALWAYS` (or NEVER), for the whole army, a Command or a unit, answers without a mail."
		case engine.DecideCounterCharge:
			question, hint = counterChargeQuestion(g, waiting)
		case engine.DecideResponse:
			question = "Your units are attacked in the Shock Phase, and your standing orders ask you how they meet it: " + waiting + ". Give one answer per unit, or STAND for all; the attacks are resolved after your answer."
			hint = "`STANDING COUNTER-CHARGE ALWAYS` (or NEVER) and `STANDING RETREAT BEFORE SHOCK ALWAYS` (or NEVER), for the whole army, a Command or a unit, answer without a mail."
		}
		return templates.Decision{Game: gv, Account: acc, Side: name, Next: next,
			Question: question, Legal: legal, Block: blk, StandingHint: hint}
	}
	// Its Reach hints are searched when the mail is composed (reachJob).
	return templates.Result{Game: gv, Account: acc, Side: name, Next: next, Waiting: waiting, ToAct: true, Block: &blk, Legal: legal}
}

// reachJob is the state whose Reach hints a Result shows: they are
// searched when its mail is composed, after the commit, off the write
// transaction (issue 17), and again when STATUS sends it again.
type reachJob struct {
	Scenario string `json:"scenario"`
	State    []byte `json:"state"` // engine.State.Encode()
}

// reachJobOf is the job of the hints of a Result to the side to act in
// g's state, nil when the state shows none (no Activation, or its Shock
// Phase has begun: nothing moves any more).
func reachJobOf(g *game, v templates.View) *reachJob {
	res, ok := v.(templates.Result)
	st := g.st
	if !ok || !res.ToAct || st.Pending.Kind != engine.DecideActions || st.Command == "" && st.Ambush == "" || len(st.Declared) > 0 {
		return nil
	}
	return &reachJob{Scenario: g.sc.ID, State: g.encodedState()}
}

// hints searches a job's Reach hints.
func (s *Service) hints(j *reachJob) ([]string, error) {
	b, err := s.battle(j.Scenario)
	if err != nil {
		return nil, err
	}
	sc := iron(b)
	if sc == nil {
		return nil, fmt.Errorf("games: Reach hints for %s, which is not a Men of Iron battle", j.Scenario)
	}
	st, err := engine.DecodeState(j.State)
	if err != nil {
		return nil, err
	}
	return reachHints(sc, st), nil
}

// reachHints tell the player who gives his Command's orders where each of
// its units that may still move can go, and at what cost, so that a MOVE
// needs no map measuring (engine.Reach, the same rules as MOVE). They are
// asked for the one mail of a block whose recipient is to give the
// Activation's orders (not his opponent's, not a refusal's, not a
// Decision's: reachJobOf), so once per state; the units share one
// engine.Reacher, whose index of the state's ZOCs and occupied hexes is
// built once.
func reachHints(sc *engine.Scenario, st *engine.State) []string {
	reachHintStates.Add(1)
	const most = 12
	out := []string{}
	reacher := engine.NewReacher(sc, st)
	for i, u := range sc.Units {
		us := st.Units[i]
		cmd := u.Command
		if us.Joined != "" {
			cmd = us.Joined // the Battle it joined after its Ambush (B&R 16.1)
		}
		if st.Ambush != "" && u.ID != st.Ambush || st.Ambush == "" && cmd != st.Command || us.Moved || us.Status == engine.Eliminated {
			continue
		}
		reach := reacher.Reach(u.ID)
		if len(reach) == 0 {
			continue
		}
		var hexes []string
		for k, r := range reach {
			if k == most {
				hexes = append(hexes, fmt.Sprintf("and %d more", len(reach)-most))
				break
			}
			hexes = append(hexes, r.Hex.String()+" ("+strconv.Itoa(r.Cost)+")") // as "%s (%d)" prints it, without fmt
		}
		out = append(out, u.ID+": "+strings.Join(hexes, ", "))
	}
	return out
}

// reachHintStates counts the states reachHints searched, for the tests
// (TestReachHintsOncePerState).
var reachHintStates atomic.Int64

// orderBlock is a side's block for the game's next move.
func (s *Service) orderBlock(g *game, side engine.Side, prefill []string) templates.OrderBlock {
	return templates.OrderBlock{GameID: g.rec.ID, Move: g.rec.Move, Key: g.keys[side], Prefill: prefill}
}

// prefill offers the orders that were not carried out again, so that a
// conditional block's plans are one reply away.
func prefill(na []templates.NotApplied) []string {
	var out []string
	for _, n := range na {
		out = append(out, n.Line)
	}
	return out
}

// gameOver mails both players the end of the battle with the whole game's
// dice log attached. winner overrides the engine's outcome (a resignation).
func (s *Service) gameOver(tx *store.Tx, g *game, acc templates.Account, ref mailRef, winner string) error {
	if err := s.revealHidden(tx, g); err != nil {
		return err
	}
	export, err := exportBytes(tx, g.rec.ID)
	if err != nil {
		return err
	}
	name := g.rec.ID + "-dice.jsonl"
	report, err := diceReport(tx, g.rec.ID)
	if err != nil {
		return err
	}
	ref.attach = []mailbox.Part{{Name: name, ContentType: "application/jsonl", Data: export}}
	ref.kind = "gameover"
	if o := g.outcome(); o != nil && winner == "" && !o.Draw {
		winner = g.sideName(engine.Side(o.Winner))
	}
	if err := s.ladderGameOver(tx, g, acc, winner, ref.attach); err != nil {
		return err
	}
	for i := range 2 {
		side := engine.Side(i)
		r := ref
		r.side = g.sideName(side)
		v := templates.GameOver{Game: s.gameView(g), Account: acc, Side: r.side, Winner: winner, Outcome: g.rec.Result, DiceLog: name, DiceReport: report}
		if err := s.send(tx, g, v, g.player(side), r); err != nil {
			return err
		}
	}
	return nil
}

// counterChargeQuestion asks the owner of a unit fired at whether it
// Counter-Charges, in the words of its type: Men of Iron's Mounted
// Men-at-Arms, Infidel's Heavy Cavalry, or Infidel's Knights, who must
// unless STAND and their leader's restraint roll hold them (13.9, 16.1).
func counterChargeQuestion(g *game, waiting string) (question, hint string) {
	hint = "`STANDING COUNTER-CHARGE ALWAYS` (or NEVER), for the whole army, a Command or a unit, answers without a mail."
	var t *engine.UnitType
	if f := g.st.FireAsk; f != nil {
		for _, u := range g.sc.Units {
			if u.ID == f.Target {
				t = g.sc.Tables.UnitTypes[u.Type]
			}
		}
	}
	switch {
	case t == nil || t.MAA:
		return "One of your Mounted Men-at-Arms is fired at, and your standing orders ask you whether it Counter-Charges the firer: " + waiting + ".", hint
	case t.MustCounterChargeFire:
		return "Your " + t.Name + " are fired at and must Counter-Charge the firer unless you restrain them: " + waiting + ". COUNTER-CHARGE lets them go; STAND rolls their restraint, a die less their Command leader's Activation Rating, which holds them on a low roll (Infidel 13.9).",
			"`STANDING COUNTER-CHARGE ALWAYS` lets your Knights go without a mail; NEVER always tries to restrain them (Infidel 13.9)."
	}
	return "Your " + t.Name + " are fired at, and your standing orders ask you whether they Counter-Charge the firer: " + waiting + ".", hint
}
