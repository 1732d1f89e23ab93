package games

import (
	"crypto/rand"
	"crypto/sha256"
	"encoding/base32"
	"errors"
	"fmt"
	"regexp"
	"strings"

	"herald/engine"
	"herald/pbem"
	"herald/pbem/dice"
	"herald/pbem/mailbox"
	"herald/pbem/store"
	"herald/pbem/system"
	"herald/templates"
)

// NewGame describes a game to create.
type NewGame struct {
	// ID is the game's tag; empty makes one from the battle:
	// "crecy-4f2a".
	ID       string
	Scenario string
	// Players gives each side of the battle its player's address.
	Players []PlayerSpec
	// Organizers may send administrative commands for this game.
	Organizers []string
}

// PlayerSpec is one side's player.
type PlayerSpec struct{ Side, Address string }

var gameID = regexp.MustCompile(`^[a-z0-9][a-z0-9._-]{0,39}$`)

// CreateGame creates a game at the battle's opening position, starts its
// dice log, and queues each player's welcome: his secret key (to him
// alone), the installation's public key and the first dice commitment.
func (s *Service) CreateGame(ng NewGame) (*store.Game, error) {
	var rec *store.Game
	err := s.cfg.Store.Update(func(tx *store.Tx) error {
		var err error
		rec, err = s.createGame(tx, ng)
		return err
	})
	if err != nil {
		return nil, err
	}
	s.log.Info("game created", "game", rec.ID, "scenario", rec.Scenario)
	return rec, nil
}

// createGame is CreateGame inside a transaction: a ladder's mail starts
// its games in the transaction of the mail.
func (s *Service) createGame(tx *store.Tx, ng NewGame) (*store.Game, error) {
	b, err := s.battle(ng.Scenario)
	if err != nil {
		return nil, err
	}
	sc := iron(b)
	if sc == nil {
		return s.createSystem(tx, ng, b)
	}
	st := engine.NewState(sc)
	rec, keys, err := s.newRecord(ng, b, st.Move+1)
	if err != nil {
		return nil, err
	}
	header, up, err := dice.NewGame(s.key, rec.ID, sc.ID, []string{sc.Sides[0].Name, sc.Sides[1].Name}, hiddenDraws(sc)...)
	if err != nil {
		return nil, err
	}
	var hands []dice.Hand
	for _, h := range up.Hidden {
		hands = append(hands, h.Hand)
	}
	st, deal, err := dealHands(sc, st, hands)
	if err != nil {
		return nil, err
	}
	g := &game{rec: rec, battle: b, sc: sc, st: st, header: *header, chain: up.Chain, seed: up.Next, keys: keys}
	err = func() error {
		if err := tx.CreateGame(rec, st.Encode()); err != nil {
			return err
		}
		if err := appendDeal(tx, rec.ID, deal, st); err != nil {
			return err
		}
		if err := saveDice(tx, rec.ID, header.Line(), up); err != nil {
			return err
		}
		if err := saveHidden(tx, rec.ID, up.Hidden); err != nil {
			return err
		}
		for _, p := range rec.Players {
			side, _ := g.side(p.Side)
			w, ref, err := s.welcomeMail(g, side, up.Checkpoint)
			if err != nil {
				return err
			}
			if err := s.send(tx, g, w, p.Address, ref); err != nil {
				return err
			}
		}
		return nil
	}()
	if err != nil {
		return nil, fmt.Errorf("games: create %s: %w", ng.ID, err)
	}
	return rec, nil
}

// newRecord is a new game's record with its players and their keys by
// side, for any system's battle.
func (s *Service) newRecord(ng NewGame, b system.Battle, move int) (*store.Game, [2]string, error) {
	var keys [2]string
	battle := b.ID()
	if ng.ID == "" {
		id, err := newGameID(battle)
		if err != nil {
			return nil, keys, err
		}
		ng.ID = id
	}
	if !gameID.MatchString(ng.ID) {
		return nil, keys, fmt.Errorf("games: game id %q: want lower-case letters, digits, '.', '_' or '-', at most 40", ng.ID)
	}
	if strings.HasPrefix(ng.ID, ladderPrefix) {
		return nil, keys, fmt.Errorf("games: game id %q: ids beginning %q name ladders (docs/ladders.md)", ng.ID, ladderPrefix)
	}
	players, err := checkPlayers(b, ng.Players, s.cfg.Address)
	if err != nil {
		return nil, keys, err
	}
	salt, err := newKeySalt()
	if err != nil {
		return nil, keys, err
	}
	rec := &store.Game{ID: ng.ID, Scenario: battle, Players: players, Organizers: ng.Organizers,
		Created: s.cfg.Now().UTC(), Move: move, KeySalt: salt}
	for i := range players {
		k := s.playerKey(rec, players[i].Side)
		players[i].KeySHA256 = sha256.Sum256([]byte(pbem.CanonicalKey(k)))
		side, _ := sideIndex(b, players[i].Side)
		keys[side] = k
	}
	return rec, keys, nil
}

// checkPlayers wants one distinct player per side of the battle, none of
// them Herald itself.
func checkPlayers(b system.Battle, specs []PlayerSpec, self string) ([]store.Player, error) {
	battle, sides := b.ID(), b.Sides()
	if len(specs) != 2 {
		return nil, fmt.Errorf("games: %s needs two players, one per side (%s, %s); got %d",
			battle, sides[0], sides[1], len(specs))
	}
	var out []store.Player
	seen := map[string]bool{}
	for _, p := range specs {
		side, ok := sideIndex(b, p.Side)
		name := sides[side]
		if !ok {
			return nil, fmt.Errorf("games: %s has no side %q (its sides are %s and %s)", battle, p.Side, sides[0], sides[1])
		}
		addr := pbem.NormalizeAddress(p.Address)
		if !strings.Contains(addr, "@") {
			return nil, fmt.Errorf("games: player of the %s: %q is not a mail address", name, p.Address)
		}
		if base, _ := pbem.PlusTag(addr); base == self {
			return nil, fmt.Errorf("games: player of the %s: %s is Herald's own address", name, addr)
		}
		if seen[name] || seen[addr] {
			return nil, errors.New("games: each side needs its own player, each with his own address")
		}
		seen[name], seen[addr] = true, true
		out = append(out, store.Player{Side: name, Address: addr})
	}
	return out, nil
}

// newGameID tags a game with its battle and 50 random bits, ten base32
// letters and digits ("crecy-k3fq7x2mna"): a stranger cannot guess a
// game's tag, and learns nothing by trying (docs/mail-orders.md).
func newGameID(scenario string) (string, error) {
	var b [10]byte
	if _, err := rand.Read(b[:]); err != nil {
		return "", err
	}
	tag := strings.ToLower(base32.StdEncoding.EncodeToString(b[:]))[:10]
	return scenario + "-" + tag, nil
}

// openingMap is the welcome's map of the opening position, drawn after
// the commit (mapjobs.go), or nil when maps are off.
func (s *Service) openingMap(g *game) (*mailbox.Part, *mapJob, error) {
	if !s.drawsMaps(g) {
		return nil, nil, nil
	}
	job, err := g.nowJob()
	if err != nil {
		return nil, nil, fmt.Errorf("games: map of %s: %w", g.rec.ID, err)
	}
	return &mailbox.Part{Name: fmt.Sprintf("%s-move-%d-opening.png", g.rec.ID, g.rec.Move), ContentType: "image/png",
		ContentID: fmt.Sprintf("map.%s.0@%s", g.rec.ID, s.host())}, &job, nil
}

// armyMap is the welcome's map of the recipient's army alone, or nil.
func (s *Service) armyMap(g *game, side engine.Side) (*mailbox.Part, *mapJob) {
	if s.cfg.ArmyMap == nil || g.sc == nil {
		return nil, nil
	}
	name := strings.ToLower(g.sc.SideName(side))
	job := armyJob(g.sc, g.st, side)
	return &mailbox.Part{Name: fmt.Sprintf("%s-move-%d-%s.png", g.rec.ID, g.rec.Move, name), ContentType: "image/png",
		ContentID: fmt.Sprintf("map.%s.0.%d@%s", g.rec.ID, side, s.host())}, &job
}

// welcomeMail is a player's first mail and how to send it: the view, its
// maps (drawn after the commit) and, kept as the side's latest, the
// instruction to build it anew rather than a copy (STATUS before the
// first move). opening is the opening seal's checkpoint.
func (s *Service) welcomeMail(g *game, side engine.Side, opening dice.Checkpoint) (templates.Welcome, mailRef, error) {
	var w templates.Welcome
	if g.sc != nil {
		w = s.welcome(g, side, g.keys[side])
	} else {
		w = s.welcomeSystem(g, side, g.keys[side])
	}
	w.DiceRecord = dice.OpeningRecord(&g.header, &dice.Update{Checkpoint: opening}).String()
	ref := mailRef{kind: "welcome", side: g.sideName(side), latest: true, rebuild: "welcome"}
	if army, job := s.armyMap(g, side); army != nil {
		w.ArmyMapCID = army.ContentID
		ref.inline, ref.maps = append(ref.inline, *army), append(ref.maps, *job)
	}
	field, job, err := s.openingMap(g)
	if err != nil {
		return w, ref, err
	}
	if field != nil {
		w.MapCID = field.ContentID
		ref.inline, ref.maps = append(ref.inline, *field), append(ref.maps, *job)
	}
	return w, ref, nil
}

// welcome is a player's first mail: his key, the armies and, for the
// player who acts first, what he may send and a first block Herald has
// checked.
func (s *Service) welcome(g *game, side engine.Side, key string) templates.Welcome {
	w := templates.Welcome{
		Game:       s.sideView(g, side),
		Side:       g.sc.SideName(side),
		Player:     g.player(side),
		Key:        key,
		PublicKey:  s.key.Public().String(),
		Commitment: g.header.Commit.String(),
		FirstToAct: g.sc.SideName(g.st.Pending.Side),
		Block:      templates.OrderBlock{GameID: g.rec.ID, Move: g.rec.Move, Key: key},
		OrdersHelp: ordersHelp(g.sc, side),
	}
	w.Roster = roster(g.sc, g.st, side)
	w.UnitTypes = unitTypes(w.Roster)
	w.BattleRules = engine.BattleRuleNotes(g.sc)
	if g.st.Pending.Side == side {
		w.Legal = engine.Legal(g.sc, g.st)
		w.Example = example(g.sc, g.st)
	}
	return w
}

// ordersHelp is the welcome's advice on writing orders, in the battle's
// own names and its volume's Seizure.
func ordersHelp(sc *engine.Scenario, side engine.Side) []string {
	names := "Gri for Grimaldi, Alencon for Alençon"
	var own []string
	for _, l := range sc.Leaders {
		if l.Side == side {
			own = append(own, l.ID)
		}
	}
	if len(own) > 0 {
		l := sc.Leader(own[0])
		first, _, _ := strings.Cut(l.Name, " ")
		if n := []rune(first); len(n) > 4 {
			names = fmt.Sprintf("%s for %s", string(n[:3]), first)
		}
	}
	return []string{
		"Write one order per line between the two markers of the block; `#` starts a comment. Names may be shortened to any unambiguous prefix and typed without accents: " + names + ".",
		"Standing orders settle the decisions that come up during your opponent's turn without a mail: " + seizeHint(sc, side) + " Without them Herald asks you. Send them at any time.",
		"Send `CHECK` as the first line of a block to see what your orders would do up to the first die roll, without changing anything; `STATUS` to get the latest mail again; `RESIGN` to concede.",
		"The whole order language: docs/orders.md; the mail commands: docs/mail-orders.md.",
	}
}

// seizeHint is how a side's standing orders settle Seizure in its battle:
// against a leader's rating, or only with a Seizure Opportunity counter
// (B&R 6.3), which standing orders never play.
func seizeHint(sc *engine.Scenario, side engine.Side) string {
	if sc.Tables.Rules.SeizureCounters {
		return "`STANDING SEIZE NEVER` lets your opponent roll for Continuity at once; a Seizure is made only by playing one of your Seizure Opportunity counters when Herald asks, `SEIZE <battle> WITH <counter>` (B&R 6.3)."
	}
	mine, theirs := "", ""
	for _, c := range sc.Commands {
		switch {
		case c.Side == side && mine == "":
			mine = engine.CommandWord(sc, c.ID)
		case c.Side != side && theirs == "":
			theirs = engine.CommandWord(sc, c.ID)
		}
	}
	return fmt.Sprintf("`STANDING SEIZE NEVER`, or `STANDING SEIZE %s IF %s`.", mine, theirs)
}
