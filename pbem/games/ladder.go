package games

import (
	"encoding/json"
	"fmt"
	"math"
	"strings"
	"time"

	"herald/pbem"
	"herald/pbem/ladder"
	"herald/pbem/mailbox"
	"herald/pbem/store"
	"herald/templates"
)

// Ladders and round-robins (docs/ladders.md): pbem/ladder keeps them as
// data; this file stores them, mails their members and observers, and
// gives the read API (Ladders, Ladder) the status page uses.

// ladderPrefix names a ladder where a game id would stand: mail to
// herald+ladder-club@… and blocks "--- herald orders: ladder-club move 0
// ---" are about ladder "club". No game id may begin with it.
const ladderPrefix = "ladder-"

// Ladders lists every ladder of the store, by id. The copies are the
// caller's.
func (s *Service) Ladders() ([]*ladder.Ladder, error) {
	var out []*ladder.Ladder
	err := s.cfg.Store.View(func(tx *store.Tx) error {
		for _, id := range tx.Ladders() {
			l, err := loadLadder(tx, id)
			if err != nil {
				return err
			}
			out = append(out, l)
		}
		return nil
	})
	return out, err
}

// Ladder is one ladder; an error wrapping store.ErrNotFound if there is
// none of that id.
func (s *Service) Ladder(id string) (*ladder.Ladder, error) {
	var l *ladder.Ladder
	err := s.cfg.Store.View(func(tx *store.Tx) error {
		var err error
		l, err = loadLadder(tx, id)
		return err
	})
	return l, err
}

// LadderOfGame is the id of the ladder a game belongs to, "" if none.
func (s *Service) LadderOfGame(game string) (string, error) {
	var id string
	err := s.cfg.Store.View(func(tx *store.Tx) error { id = tx.LadderOfGame(game); return nil })
	return id, err
}

// Downtime is Herald's record of its own outages, which no clock charges.
func (s *Service) Downtime() (*ladder.Downtime, error) {
	var d *ladder.Downtime
	err := s.cfg.Store.View(func(tx *store.Tx) error {
		var err error
		d, err = loadDowntime(tx)
		return err
	})
	return d, err
}

// LadderKey is the key with which addr signs his commands to ladder id
// (organizer or member): HMAC of the installation secret, like a player's
// game key, so that the store keeps none.
func (s *Service) LadderKey(id, addr string) string {
	return formatKey(s.mac("ladder-key", id, baseAddress(addr))[:10])
}

// OrganizerKey is the key with which one of Config.Organizers signs
// CREATE, the command that makes a new ladder by mail; herald ladder key
// prints it for the operator to hand over.
func (s *Service) OrganizerKey(addr string) string {
	return formatKey(s.mac("organizer-key", baseAddress(addr))[:10])
}

// baseAddress is an address in lower case without its plus-tag.
func baseAddress(addr string) string {
	b, _ := pbem.PlusTag(pbem.NormalizeAddress(addr))
	return b
}

func loadLadder(tx *store.Tx, id string) (*ladder.Ladder, error) {
	raw, err := tx.Ladder(id)
	if err != nil {
		return nil, err
	}
	l, err := ladder.Decode(raw)
	if err != nil {
		return nil, fmt.Errorf("games: ladder %s: %w", id, err)
	}
	return l, nil
}

// journal is one line of a ladder's journal.
type journal struct {
	At   time.Time `json:"at"`
	By   string    `json:"by,omitempty"`
	What string    `json:"what"`
}

// saveLadder stores a ladder and journals what was done to it.
func saveLadder(tx *store.Tx, l *ladder.Ladder, at time.Time, by string, what ...string) error {
	if err := tx.PutLadder(l.ID, l.Encode(), l.GameIDs()); err != nil {
		return err
	}
	for _, w := range what {
		raw, err := json.Marshal(journal{At: at.UTC(), By: by, What: w})
		if err != nil {
			return err
		}
		if _, err := tx.AppendLadderLog(l.ID, raw); err != nil {
			return err
		}
	}
	return nil
}

func loadDowntime(tx *store.Tx) (*ladder.Downtime, error) {
	d := &ladder.Downtime{}
	if raw := tx.Downtime(); raw != nil {
		if err := json.Unmarshal(raw, d); err != nil {
			return nil, fmt.Errorf("games: downtime: %w", err)
		}
	}
	return d, nil
}

// beat records that Herald is alive at now (ladder.Downtime.Beat) and
// returns the downtime, outages included.
func (s *Service) beat(tx *store.Tx, now time.Time) (*ladder.Downtime, error) {
	d, err := loadDowntime(tx)
	if err != nil {
		return nil, err
	}
	if out, ok := d.Beat(now, s.cfg.OutageGrace); ok {
		s.log.Warn("Herald was down; no clock is charged for it", "from", out.From, "to", out.To)
	}
	raw, err := json.Marshal(d)
	if err != nil {
		return nil, err
	}
	return d, tx.PutDowntime(raw)
}

// sendLadder queues a mail about a ladder from its address,
// herald+ladder-<id>@…, so that a reply reaches the ladder.
func (s *Service) sendLadder(tx *store.Tx, id string, v templates.View, to, kind, tag string, attach []mailbox.Part) error {
	rec, _, err := templates.Keep(v)
	if err != nil {
		return err
	}
	o, err := s.envelope(tx, nil, to, mailRef{kind: kind, tag: tag, attach: attach})
	if err != nil {
		return err
	}
	o.From = fmt.Sprintf("%s <%s>", s.cfg.Name, s.gameAddress(ladderPrefix+id))
	o.MessageID = fmt.Sprintf("%s%s.%s.%s@%s", ladderPrefix, id, kind, tag, s.host())
	return s.enqueue(tx, ladderPrefix+id, outboxMail{Mail: &o, View: &rec})
}

// ladderNotice is a Notice about a ladder, tagged [ladder-<id>].
func ladderNotice(id, about string, paragraphs ...string) templates.Notice {
	return templates.Notice{GameID: ladderPrefix + id, About: about, Paragraphs: paragraphs}
}

// commandBlock is an empty block to send ladder commands with.
func (s *Service) commandBlock(id, addr string) *templates.OrderBlock {
	return &templates.OrderBlock{GameID: ladderPrefix + id, Move: 0, Key: s.LadderKey(id, addr)}
}

// welcomeLadder mails a new organizer or member his key for the ladder
// and the commands he may send.
func (s *Service) welcomeLadder(tx *store.Tx, l *ladder.Ladder, addr, cause string) error {
	role, help := "a member", memberHelp
	if l.IsOrganizer(addr) {
		role, help = "an organizer", organizerHelp+"\n"+memberHelp
	}
	n := ladderNotice(l.ID, "Welcome to ladder "+l.ID,
		fmt.Sprintf("You are %s of %s %s (%s). Send ladder commands to %s in a block like the one below, one command a line; its KEY line is your key for this ladder: keep it to yourself.",
			role, l.Kind, l.ID, describeLadder(l), s.gameAddress(ladderPrefix+l.ID)),
		help)
	n.Block = s.commandBlock(l.ID, addr)
	return s.sendLadder(tx, l.ID, n, addr, "welcome", hashTag(cause+"\x00"+addr), nil)
}

const memberHelp = "Members' commands:\n" +
	"  CHALLENGE <member|ANY> [<scenario>] [FIRST|SECOND]\n" +
	"  ACCEPT <n>   DECLINE <n>   CHALLENGES\n" +
	"  CLAIM <game> WIN|CONTINUE   (after your opponent's time ran out)\n" +
	"  STANDINGS   GAMES"

const organizerHelp = "Organizers' commands:\n" +
	"  ADD <address>   REMOVE <address>\n" +
	"  OBSERVE <address>   UNOBSERVE <address>\n" +
	"  PAIR [<scenario>]   START <scenario> <first side's member> <second side's member>\n" +
	"  ADJUDICATE <game> <side|member|DRAW>   ABANDON <game>\n" +
	"  CLOCK <game> <side|member> <time left, e.g. 36h or 2d>\n" +
	"  EXPORT <game>"

// describeLadder says what a ladder plays and how.
func describeLadder(l *ladder.Ladder) string {
	parts := []string{"scenarios " + strings.Join(l.Scenarios, ", ")}
	if c := l.Clock; c != nil {
		parts = append(parts, fmt.Sprintf("clock %s + %s a move, at most %s; at zero: %s", dur(c.Initial), dur(c.Increment), dur(c.Cap), c.OnTimeout))
	} else {
		parts = append(parts, "no clock")
	}
	parts = append(parts, fmt.Sprintf("Elo K %g, newcomers %g", l.Rating.K, l.Rating.Initial))
	return strings.Join(parts, "; ")
}

// dur writes a duration to the minute: "71h59m", "30m", "2h".
func dur(d time.Duration) string {
	d = max(d.Round(time.Minute), 0)
	h, m := int(d/time.Hour), int(d%time.Hour/time.Minute)
	switch {
	case h == 0:
		return fmt.Sprintf("%dm", m)
	case m == 0:
		return fmt.Sprintf("%dh", h)
	}
	return fmt.Sprintf("%dh%02dm", h, m)
}

// standingsText is the ladder's standings, a line a member.
func standingsText(l *ladder.Ladder) string {
	var b strings.Builder
	for _, st := range l.Standings() {
		fmt.Fprintf(&b, "%d. %s: %d (won %d, drawn %d, lost %d", st.Rank, st.Address, int(math.Round(st.Rating)), st.Won, st.Drawn, st.Lost)
		if st.Forfeits > 0 {
			fmt.Fprintf(&b, ", %d on time", st.Forfeits)
		}
		if st.InPlay > 0 {
			fmt.Fprintf(&b, "; %d in play", st.InPlay)
		}
		b.WriteString(")\n")
	}
	if b.Len() == 0 {
		return "No members yet."
	}
	return strings.TrimSuffix(b.String(), "\n")
}

// mailStandings mails the standings to every active member after a
// result (tag: the game's id), once: the Message-ID is the result's.
func (s *Service) mailStandings(tx *store.Tx, l *ladder.Ladder, g *ladder.Game) error {
	r := g.Result
	what := fmt.Sprintf("Game %s (%s, %s v %s): %s", g.ID, g.Scenario, g.Seats[0].Address, g.Seats[1].Address, resultWords(g))
	if r.Rated {
		what += fmt.Sprintf("; ratings %+.1f and %+.1f", r.Change[0], r.Change[1])
	} else {
		what += "; not rated"
	}
	for _, m := range l.Active() {
		n := ladderNotice(l.ID, "Standings after game "+g.ID, what+".", standingsText(l))
		if err := s.sendLadder(tx, l.ID, n, m.Address, "standings", g.ID+"-"+hashTag(m.Address), nil); err != nil {
			return err
		}
	}
	return nil
}

// resultWords says how a finished ladder game ended.
func resultWords(g *ladder.Game) string {
	r := g.Result
	winner := ""
	for _, st := range g.Seats {
		if st.Address == r.Winner {
			winner = fmt.Sprintf("the %s (%s)", st.Side, st.Address)
		}
	}
	switch {
	case r.Outcome == ladder.Abandoned:
		return "abandoned by " + r.By
	case r.Outcome == ladder.Forfeited:
		return winner + " won on time"
	case r.Outcome == ladder.Adjudicated && winner == "":
		return "adjudicated a draw by " + r.By
	case r.Outcome == ladder.Adjudicated:
		return winner + " won by " + r.By + "'s adjudication"
	case winner == "":
		return "a draw"
	}
	return winner + " won"
}

// observeResult mails the ladder's observers a dedicated copy of a
// block's result: the narrative without any event private to a side (a
// Seizure counter held, a standing order), the dice record as the side
// that did not send the block got it, and no order block, so no key.
func (s *Service) observeResult(tx *store.Tx, g *game, tag string, lines []templates.Narrative, record string) error {
	l, err := s.ladderOf(tx, g.rec.ID)
	if l == nil || err != nil || len(l.Observers) == 0 {
		return err
	}
	text := make([]string, 0, len(lines))
	for _, n := range lines {
		t := n.Text
		if n.Roll != nil {
			t = fmt.Sprintf("%s [die %d]", t, n.Roll.Die)
		}
		if strings.TrimSpace(t) != "" {
			text = append(text, t)
		}
	}
	paras := []string{fmt.Sprintf("Game %s of ladder %s, move %d. You observe it: this copy carries no key and no side's secrets.", g.rec.ID, l.ID, g.rec.Move)}
	if len(text) > 0 {
		paras = append(paras, strings.Join(text, "\n"))
	}
	if record != "" {
		paras = append(paras, "Dice record:\n"+record)
	}
	for _, o := range l.Observers {
		n := templates.Notice{GameID: g.rec.ID, About: "Observer's copy: move " + fmt.Sprint(g.rec.Move), Paragraphs: paras}
		if err := s.send(tx, g, n, o, mailRef{kind: "observer", tag: tag + "-" + hashTag(o)}); err != nil {
			return err
		}
	}
	return nil
}

// ladderOf is the ladder a game belongs to, nil if none.
func (s *Service) ladderOf(tx *store.Tx, game string) (*ladder.Ladder, error) {
	id := tx.LadderOfGame(game)
	if id == "" {
		return nil, nil
	}
	return loadLadder(tx, id)
}
