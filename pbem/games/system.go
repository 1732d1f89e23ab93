package games

import (
	"crypto/sha256"
	"errors"
	"fmt"
	"strings"

	"herald/engine"
	"herald/mapimg/tabletop"
	"herald/pbem"
	"herald/pbem/dice"
	"herald/pbem/mailbox"
	"herald/pbem/store"
	"herald/pbem/system"
	"herald/pbem/system/menofiron"
	"herald/pbem/system/strike"
	"herald/templates"
)

// The game-system seam (DESIGN.md principle 8, docs/architecture.md).
// A game's battle belongs to one of the service's systems. The mail loop,
// the store, the dice log and verify reach every system through
// pbem/system; Men of Iron's battles, which the mail service has grown
// features for (standing orders, held orders, hidden Seizure counters,
// CHECK, Reach hints), go on through those features, reaching the engine
// by menofiron.Battle's Scenario. This file is the loop every other
// system's games take: parse and apply through Battle.Play, record,
// narrate, picture and mail.

// DefaultSystems are the game systems a Service runs when its Config
// names none.
func DefaultSystems() []system.System {
	return []system.System{menofiron.System{}, strike.New(tabletop.Render)}
}

// LoadBattle loads a battle of the default systems by its id.
func LoadBattle(id string) (system.Battle, error) {
	reg, err := system.NewRegistry(DefaultSystems()...)
	if err != nil {
		return nil, err
	}
	return reg.Battle(id)
}

// IsMenOfIron reports a battle of the Men of Iron engine, which the mail
// service has features of its own for.
func IsMenOfIron(b system.Battle) bool { return iron(b) != nil }

// battle loads a battle of whichever system has it, once.
func (s *Service) battle(id string) (system.Battle, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if b, ok := s.battles[id]; ok {
		return b, nil
	}
	b, err := s.systems.Battle(id)
	if err != nil {
		return nil, err
	}
	s.battles[id] = b
	return b, nil
}

// iron is the Men of Iron battle of b, or nil for another system's.
func iron(b system.Battle) *engine.Scenario {
	if mb, ok := b.(*menofiron.Battle); ok {
		return mb.Scenario()
	}
	return nil
}

// sideName and sideOf name a game's sides by its battle, whatever its
// system.
func (g *game) sideName(side engine.Side) string {
	if side != 0 && side != 1 {
		return fmt.Sprintf("side %d", side)
	}
	return g.battle.Sides()[side]
}

func (g *game) sideOf(name string) (engine.Side, bool) { return sideIndex(g.battle, name) }

// sideIndex finds a side of a battle by its name: ignoring case (and,
// for Men of Iron, accents, as the engine does).
func sideIndex(b system.Battle, name string) (engine.Side, bool) {
	if sc := iron(b); sc != nil {
		return sc.SideByName(name)
	}
	for i, n := range b.Sides() {
		if strings.EqualFold(n, name) {
			return engine.Side(i), true
		}
	}
	return 0, false
}

// current is the game's state behind the seam.
func (g *game) current() system.State {
	if g.sc != nil {
		return menofiron.Wrap(g.sc, g.st)
	}
	return g.state
}

// loadSystem fills a game of another system than Men of Iron from its
// latest snapshot.
func (g *game) loadSystem(b system.Battle, snap []byte) error {
	st, err := b.Decode(snap)
	if err != nil {
		return fmt.Errorf("games: game %s: %w", g.rec.ID, err)
	}
	g.battle, g.state = b, st
	return nil
}

// createSystem creates a game of another system: its opening position,
// its dice log (no hidden draws) and the welcomes.
func (s *Service) createSystem(tx *store.Tx, ng NewGame, b system.Battle) (*store.Game, error) {
	st, err := b.Start()
	if err != nil {
		return nil, err
	}
	sides := b.Sides()
	g := &game{battle: b, state: st}
	rec, keys, err := s.newRecord(ng, b, st.Move()+1)
	if err != nil {
		return nil, err
	}
	g.rec, g.keys = rec, keys
	header, up, err := dice.NewGame(s.key, rec.ID, b.ID(), sides[:])
	if err != nil {
		return nil, err
	}
	g.header, g.chain, g.seed = *header, up.Chain, up.Next
	err = func() error {
		if err := tx.CreateGame(rec, st.Encode()); err != nil {
			return err
		}
		if err := saveDice(tx, rec.ID, header.Line(), up); err != nil {
			return err
		}
		for i := range 2 {
			side := engine.Side(i)
			w, ref, err := s.welcomeMail(g, side, up.Checkpoint)
			if err != nil {
				return err
			}
			if err := s.send(tx, g, w, g.player(side), ref); err != nil {
				return err
			}
		}
		return nil
	}()
	if err != nil {
		return nil, fmt.Errorf("games: create %s: %w", rec.ID, err)
	}
	return rec, nil
}

// welcomeSystem is the welcome of a game of another system.
func (s *Service) welcomeSystem(g *game, side engine.Side, key string) templates.Welcome {
	turn := g.state.Turn()
	w := templates.Welcome{
		Game:       s.systemView(g),
		Side:       g.sideName(side),
		Player:     g.player(side),
		Key:        key,
		PublicKey:  s.key.Public().String(),
		Commitment: g.header.Commit.String(),
		FirstToAct: g.sideName(engine.Side(turn.Side)),
		Block:      templates.OrderBlock{GameID: g.rec.ID, Move: g.rec.Move, Key: key},
		OrdersHelp: append(g.battle.Help(int(side)),
			"Send `STATUS` to get the latest mail again; `RESIGN` to concede."),
	}
	if turn.Side == int(side) {
		w.Legal = turn.Legal
	}
	return w
}

// systemView is what every mail of another system's game says about it.
func (s *Service) systemView(g *game) templates.Game {
	title, _, _ := strings.Cut(g.battle.Title(), ",")
	v := templates.Game{ID: g.rec.ID, Battle: title, Move: g.rec.Move}
	if sys, ok := s.systems.System(g.battle.ID()); ok {
		v.System = sys.Title()
	}
	for i := range v.Sides {
		side := engine.Side(i)
		v.Sides[i] = templates.SideInfo{Name: g.sideName(side), Player: g.player(side), Standing: g.state.Standing(i)}
	}
	return v
}

// playSystem is work.play for a game of another system.
func (w *work) playSystem(g *game, side engine.Side, b pbem.Block) error {
	lines, nonce, err := splitNonce(orderLines(b))
	var refused *engine.IllegalOrderError
	if errors.As(err, &refused) {
		return w.refuseOrders(g, side, templates.RefusedParse, refused, lines)
	}
	if err != nil {
		return err
	}
	if !hasOrderText(lines) {
		return w.refuse(side, templates.Refusal{Cause: templates.RefusedNoBlock, Reason: "your order block holds no orders"}, "no-block", nil)
	}
	turn := g.state.Turn()
	if turn.Side != int(side) {
		return w.refuse(side, templates.Refusal{Cause: templates.RefusedTurn,
			Reason: fmt.Sprintf("the %s have no decision to make now", g.sideName(side)), Waiting: turn.Waiting}, "not-your-turn", nil)
	}
	if b.Command == pbem.CommandCheck {
		return w.refuse(side, templates.Refusal{Cause: templates.RefusedNoBlock,
			Reason: "CHECK is Men of Iron's: this battle's rules have no what-if check. Send the block without CHECK to carry it out."}, "no-check", lines)
	}
	err = w.s.playSystem(w.tx, g, block{side: side, nonce: nonce, lines: lineMap(lines), messageID: w.id}, systemLines(lines))
	var illegal *system.Illegal
	if errors.As(err, &illegal) {
		r := templates.Refusal{Cause: templates.RefusedIllegal, LineNo: illegal.Line, Line: lineMap(lines)[illegal.Line],
			Reason: illegal.Reason, Rule: illegal.Rule, Legal: illegal.Legal}
		if r.LineNo == 0 {
			r.Waiting = turn.Waiting
		}
		return w.refuse(side, r, "illegal-order", lines)
	}
	if err != nil {
		return err
	}
	w.out.Status = "applied"
	return nil
}

// systemLines are a block's lines for a system, without blank lines and
// comments.
func systemLines(lines []engine.Line) []system.Line {
	var out []system.Line
	for _, l := range lines {
		text := strings.TrimSpace(l.Text)
		if i := strings.IndexByte(text, '#'); i >= 0 {
			text = strings.TrimSpace(text[:i])
		}
		if text != "" {
			out = append(out, system.Line{No: l.No, Text: text})
		}
	}
	return out
}

// systemText is a block's order text in the dice log: the sender's NONCE
// lines, then each order line as systemLines gives it. The batch's rolls
// hang on its hash, and herald verify replays the lines it holds.
func systemText(nonce []string, lines []system.Line) string {
	var sb strings.Builder
	for _, n := range nonce {
		sb.WriteString(n + "\n")
	}
	for _, l := range lines {
		sb.WriteString(l.Text + "\n")
	}
	return sb.String()
}

// playSystem applies a block of another system's game under the game's
// next dice batch and stores what it did, as Service.play does for Men of
// Iron. An illegal block comes back as a *system.Illegal with nothing
// stored and the batch's seed unrevealed.
func (s *Service) playSystem(tx *store.Tx, g *game, b block, lines []system.Line) error {
	batch, err := dice.Begin(g.chain, g.seed, g.sideName(b.side), uint64(g.rec.Move), systemText(b.nonce, lines))
	if err != nil {
		return err
	}
	res, err := g.battle.Play(g.state, int(b.side), lines, batch)
	if err != nil {
		return err
	}
	sum := dice.Digest{EventsSHA256: dice.EventsSHA256(res.Events), StateSHA256: sha256.Sum256(res.State.Encode())}
	up, err := batch.Close(s.key, sum.EventsSHA256, sum.StateSHA256)
	if err != nil {
		return err
	}
	before := g.state
	if err := tx.AppendEvents(g.rec.ID, res.Events, res.State.Encode()); err != nil {
		return err
	}
	if err := saveDice(tx, g.rec.ID, g.header.Line(), up); err != nil {
		return err
	}
	g.state, g.chain, g.seed = res.State, up.Chain, up.Next
	g.rec.Move = res.State.Move() + 1
	if o := res.State.Outcome(); o != nil {
		g.rec.Over, g.rec.Result = true, o.Reason
	}
	if err := tx.PutGame(g.rec); err != nil {
		return err
	}
	return s.announceSystem(tx, g, b, before, res, up)
}

// announceSystem mails both players what a block of another system's
// game did: the game's end, or the result with a block for the player who
// acts next.
func (s *Service) announceSystem(tx *store.Tx, g *game, b block, before system.State, res *system.Result, up *dice.Update) error {
	ref := mailRef{kind: "result", tag: fmt.Sprintf("b%d-", up.Batch), latest: true}
	var mapCID string
	if s.drawsMaps(g) {
		mapCID = fmt.Sprintf("map.%s.%d@%s", g.rec.ID, up.Batch, s.host())
		ref.inline = []mailbox.Part{{Name: mapName(g.rec.ID, g.rec.Move, up.Batch), ContentType: "image/png", ContentID: mapCID}}
		ref.maps = []mapJob{{Scenario: g.battle.ID(), Before: before.Encode(), After: g.state.Encode(), Events: rawEvents(res.Events)}}
	}
	rolls := systemRolls(up.Rolls)
	account := func(side engine.Side) (templates.Account, error) {
		acc := templates.Account{Sender: g.sideName(b.side), Dice: diceView(up, nil, g.rec.ID), MapCID: mapCID}
		acc.Dice.Rolls = rollViews(up.Rolls)
		lines, err := g.battle.Narrate(res.Events, rolls, int(side))
		for _, l := range lines {
			acc.Lines = append(acc.Lines, templates.Narrative{Text: l})
		}
		acc.Dice.Record = diceRecord(g, up, true)
		if side == b.side {
			for _, na := range res.NotApplied {
				acc.NotApplied = append(acc.NotApplied, templates.NotApplied{LineNo: na.Line, Line: b.lines[na.Line], Reason: na.Reason, Rule: na.Rule})
			}
			acc.NotApplied = templates.GroupReasons(acc.NotApplied)
		}
		return acc, err
	}
	if g.rec.Over {
		// Both players get the same end: the sender's account, without
		// the lines of his block not carried out, which are his alone.
		acc, err := account(b.side)
		if err != nil {
			return err
		}
		acc.NotApplied = nil
		return s.gameOver(tx, g, acc, ref, "")
	}
	turn := g.state.Turn()
	for i := range 2 {
		side := engine.Side(i)
		acc, err := account(side)
		if err != nil {
			return err
		}
		r := ref
		r.side = g.sideName(side)
		if side == b.side {
			r.inReplyTo = b.messageID
		}
		v := templates.Result{Game: s.systemView(g), Account: acc, Side: r.side, Next: turn.Label, Waiting: turn.Waiting}
		if turn.Side == i {
			blk := s.orderBlock(g, side, prefill(acc.NotApplied))
			v.ToAct, v.Block, v.Legal = true, &blk, turn.Legal
		}
		if err := s.send(tx, g, v, g.player(side), r); err != nil {
			return err
		}
	}
	// The observers' copy is the account the side that did not send the
	// block reads, without its block (ladder.go).
	acc, err := account(b.side.Other())
	if err != nil {
		return err
	}
	return s.observeResult(tx, g, fmt.Sprintf("b%d", up.Batch), acc.Lines, acc.Dice.Record)
}

// systemRolls are a batch's rolls as the seam hands them to Narrate.
func systemRolls(rolls []dice.Roll) []system.Roll {
	out := make([]system.Roll, len(rolls))
	for i, r := range rolls {
		out[i] = system.Roll{Index: int(r.Index), Purpose: r.Purpose, Faces: r.Faces, Value: r.Value}
		if out[i].Faces == 0 {
			out[i].Faces = 10
		}
	}
	return out
}

// drawsMaps reports whether the game's mails carry pictures: Map draws
// Men of Iron's, Pictures turns on every other system's.
func (s *Service) drawsMaps(g *game) bool {
	if g.sc != nil {
		return s.cfg.Map != nil
	}
	return s.cfg.Pictures
}

// outcome is how the game's battle ended, or nil.
func (g *game) outcome() *system.Outcome { return g.current().Outcome() }

// autoplayer is a game system that can play a side by itself, for herald
// demo and tests: a legal block for the side whose turn it is, chosen with
// seed.
type autoplayer interface {
	Auto(st system.State, side int, seed int64) ([]string, error)
}

// AutoOrders is a block of orders the game's system chooses for the side
// whose turn it is, for a scripted player of a system with a public table
// (Autoplayer.Orders); nil when the game waits for no block of move or
// its system cannot choose.
func (s *Service) AutoOrders(id string, move int) ([]string, error) {
	g, err := s.view(id)
	if err != nil {
		return nil, err
	}
	ap, ok := g.battle.(autoplayer)
	if !ok || g.rec.Over || g.rec.Move != move {
		return nil, nil
	}
	return ap.Auto(g.state, g.state.Turn().Side, int64(move))
}

// rollViews list a batch's rolls for the mail's dice section as the log
// records them: a d10 as read, 0–9; another die's value from 0, with its
// faces.
func rollViews(rolls []dice.Roll) []templates.RollView {
	out := make([]templates.RollView, len(rolls))
	for i, r := range rolls {
		out[i] = templates.RollView{Seq: int(r.Seq), Purpose: r.Purpose, Die: r.Value}
		if r.Faces != 0 && r.Faces != 10 {
			out[i].Purpose = fmt.Sprintf("%s (a %d-faced die logged from 0: %d is its face %d)", r.Purpose, r.Faces, r.Value, r.Value+1)
		}
	}
	return out
}
