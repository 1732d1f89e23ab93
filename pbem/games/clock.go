package games

import (
	"context"
	"fmt"
	"time"

	"herald/engine"
	"herald/pbem/ladder"
	"herald/pbem/mailbox"
	"herald/pbem/store"
	"herald/templates"
)

// The clocks of ladder games (docs/ladders.md, "Clocks"). A move's time
// runs from the commit of the mail that asked for it to the commit of the
// player's mail that was applied; Herald's own downtime is not charged:
// every tick, and every mail about a ladder game, records a heartbeat
// (ladder.Downtime.Beat), and a gap between two heartbeats longer than
// Config.OutageGrace is an outage, left out of every clock. Reminders,
// warnings and timeouts are computed from the stored clock, the time and
// the downtime alone, so that a restart finds what is due; each is
// recorded (ladder.Notified, ladder.Flag) in the transaction that queues
// its mails, so that each goes out exactly once.

// Tick does what is due at now on every ladder's clocks: it records
// Herald's heartbeat, mails the reminders and warnings due and applies
// the timeouts, in one transaction. It returns how many notices and
// timeouts it handled. Serve runs it every Config.ClockTick.
func (s *Service) Tick(now time.Time) (int, error) {
	n := 0
	err := s.cfg.Store.Update(func(tx *store.Tx) error {
		n = 0
		d, err := s.beat(tx, now)
		if err != nil {
			return err
		}
		oldest := now
		for _, id := range tx.Ladders() {
			l, err := loadLadder(tx, id)
			if err != nil {
				return err
			}
			k, err := s.tickLadder(tx, l, now, d)
			if err != nil {
				return err
			}
			n += k
			for _, g := range l.Games {
				if g.Clock != nil && g.Clock.ToMove >= 0 && g.Clock.AskedAt.Before(oldest) {
					oldest = g.Clock.AskedAt
				}
			}
		}
		d.Prune(oldest)
		return s.putDowntime(tx, d)
	})
	if err != nil {
		return 0, fmt.Errorf("games: clock tick: %w", err)
	}
	if n > 0 {
		s.Kick()
	}
	return n, nil
}

func (s *Service) putDowntime(tx *store.Tx, d *ladder.Downtime) error {
	raw, err := jsonOf(d)
	if err != nil {
		return err
	}
	return tx.PutDowntime(raw)
}

// runClocks ticks every interval until ctx ends, and once at once: a
// restarted daemon first records its outage, then flags what fell due.
func (s *Service) runClocks(ctx context.Context, interval time.Duration) {
	t := time.NewTicker(interval)
	defer t.Stop()
	for {
		if _, err := s.Tick(s.cfg.Now()); err != nil {
			s.log.Error("clocks", "err", err)
		}
		select {
		case <-ctx.Done():
			return
		case <-t.C:
		}
	}
}

// tickLadder mails what is due on one ladder's clocks and applies its
// timeouts, and stores the ladder.
func (s *Service) tickLadder(tx *store.Tx, l *ladder.Ladder, now time.Time, d *ladder.Downtime) (int, error) {
	due := l.Due(now, d)
	for _, n := range due {
		g, err := l.Game(n.Game)
		if err != nil {
			return 0, err
		}
		late, other := g.Seats[n.Seat], g.Seats[1-n.Seat]
		tag := fmt.Sprintf("%d-l%d", g.Clock.AskedAt.Unix(), n.Level)
		switch n.Kind {
		case ladder.Reminder, ladder.Warning:
			if err := l.Notified(n, now, d); err != nil {
				return 0, err
			}
			if err := saveLadder(tx, l, now, "", fmt.Sprintf("%s %d to %s in game %s, %s left", n.Kind, n.Level, late.Address, g.ID, dur(n.Left))); err != nil {
				return 0, err
			}
			what := "A reminder"
			if n.Kind == ladder.Warning {
				what = "A warning: your time is nearly out"
			}
			msg := fmt.Sprintf("%s. Game %s of ladder %s waits for your move as the %s, and your clock has %s left. Reply to Herald's latest mail about the game with your orders; at zero, %s.",
				what, g.ID, l.ID, late.Side, dur(n.Left), timeoutWords(g.Clock.Control.OnTimeout))
			if err := s.clockMail(tx, g.ID, late.Address, tag, msg); err != nil {
				return 0, err
			}
		case ladder.Timeout:
			st, err := l.Flag(n.Game, now, d)
			if err != nil {
				return 0, err
			}
			if err := saveLadder(tx, l, now, "", fmt.Sprintf("timeout of %s in game %s: %s", late.Address, g.ID, st)); err != nil {
				return 0, err
			}
			if err := s.timedOut(tx, l, g, late, other, st, tag); err != nil {
				return 0, err
			}
		}
	}
	return len(due), nil
}

func timeoutWords(r ladder.TimeoutRule) string {
	switch r {
	case ladder.TimeoutAdjudicate:
		return "an organizer of the ladder decides the game"
	case ladder.TimeoutOpponent:
		return "your opponent may claim the game or let it go on"
	}
	return "you lose the game on time"
}

// timedOut mails what a timeout did: the end of the game (forfeit), or
// the question to the organizers or to the opponent.
func (s *Service) timedOut(tx *store.Tx, l *ladder.Ladder, g *ladder.Game, late, other ladder.Seat, st ladder.Status, tag string) error {
	switch st {
	case ladder.Over:
		why := fmt.Sprintf("the %s (%s) ran out of time: the %s win on time", late.Side, late.Address, other.Side)
		if err := s.endGame(tx, g.ID, other.Side, why); err != nil {
			return err
		}
		return s.mailStandings(tx, l, g)
	case ladder.AwaitingAdjudication:
		for _, o := range l.Organizers {
			n := ladderNotice(l.ID, "Adjudicate game "+g.ID,
				fmt.Sprintf("In game %s of ladder %s the %s (%s) ran out of time. The ladder's rule leaves the result to its organizers: send ADJUDICATE %s <side|DRAW>, or CLOCK %s %s <time> to let the game go on.",
					g.ID, l.ID, late.Side, late.Address, g.ID, g.ID, late.Side))
			n.Block = s.commandBlock(l.ID, o)
			if err := s.sendLadder(tx, l.ID, n, o, "adjudicate", g.ID+"-"+tag+"-"+hashTag(o), nil); err != nil {
				return err
			}
		}
		for _, p := range []string{late.Address, other.Address} {
			if err := s.clockMail(tx, g.ID, p, tag, fmt.Sprintf("In game %s the %s ran out of time. The game waits for an organizer of ladder %s to decide it; no orders are taken meanwhile.", g.ID, late.Side, l.ID)); err != nil {
				return err
			}
		}
	case ladder.AwaitingClaim:
		n := ladderNotice(l.ID, "Your opponent's time ran out in game "+g.ID,
			fmt.Sprintf("In game %s the %s (%s) ran out of time. It is your choice: CLAIM %s WIN ends the game, won by you on time; CLAIM %s CONTINUE lets it go on, your opponent's time starting again at %s.",
				g.ID, late.Side, late.Address, g.ID, g.ID, dur(graceOf(g.Clock.Control))))
		n.Block = s.commandBlock(l.ID, other.Address)
		if err := s.sendLadder(tx, l.ID, n, other.Address, "claim", g.ID+"-"+tag, nil); err != nil {
			return err
		}
		return s.clockMail(tx, g.ID, late.Address, tag, fmt.Sprintf("Your time ran out in game %s. Your opponent may claim the game or let it go on; no orders are taken until then.", g.ID))
	}
	return nil
}

func graceOf(tc ladder.TimeControl) time.Duration {
	if tc.Increment > 0 {
		return tc.Increment
	}
	return tc.Initial / 10
}

// clockMail mails a player a notice about his game's clock, from the
// game's address; tag makes its Message-ID, once per clock event.
func (s *Service) clockMail(tx *store.Tx, game, to, tag, text string) error {
	g, err := s.load(tx, game)
	if err != nil {
		return err
	}
	n := templates.Notice{GameID: game, About: "Your clock in game " + game, Paragraphs: []string{text}}
	return s.send(tx, g, n, to, mailRef{kind: "clock", tag: tag + "-" + hashTag(to)})
}

// ladderGate is run for a mail about game id before its game is read:
// for a ladder game it records Herald's heartbeat and does what is due
// on the ladder's clocks first (a player whose time ran out before his
// mail was read has lost on time), and notes the move, so that
// ladderAfter can tell whether the mail played one.
func (w *work) ladderGate(id string) error {
	lid := w.tx.LadderOfGame(id)
	if lid == "" {
		return nil
	}
	if rec, err := w.tx.Game(id); err == nil {
		w.ladderMove = rec.Move
	}
	now := w.s.cfg.Now()
	d, err := w.s.beat(w.tx, now)
	if err != nil {
		return err
	}
	l, err := loadLadder(w.tx, lid)
	if err != nil {
		return err
	}
	_, err = w.s.tickLadder(w.tx, l, now, d)
	return err
}

// ladderPaused says why a ladder game takes no orders: it waits for a
// decision after a timeout; "" if it takes them.
func (w *work) ladderPaused(g *game) (string, error) {
	l, err := w.s.ladderOf(w.tx, g.rec.ID)
	if l == nil || err != nil {
		return "", err
	}
	lg, err := l.Game(g.rec.ID)
	if err != nil {
		return "", err
	}
	switch lg.Status {
	case ladder.AwaitingAdjudication:
		return "a clock of this ladder game ran out, and the game waits for an organizer of ladder " + l.ID + " to decide it", nil
	case ladder.AwaitingClaim:
		return "a clock of this ladder game ran out, and the game waits for the choice of the player who did not run out of time", nil
	}
	return "", nil
}

// ladderAfter runs in the transaction of a mail once it was processed:
// when it applied a move in a ladder game, the mover's clock stops
// (charged from the mail that asked him, with the increment) and the
// clock of the player the game now waits for starts.
func (w *work) ladderAfter() error {
	g := w.g
	if g == nil || w.out.Status != "applied" || g.rec.Move == w.ladderMove {
		return nil
	}
	l, err := w.s.ladderOf(w.tx, g.rec.ID)
	if l == nil || err != nil {
		return err
	}
	lg, err := l.Game(g.rec.ID)
	if err != nil || lg.Status != ladder.Playing || lg.Clock == nil {
		return err
	}
	now := w.s.cfg.Now()
	d, err := loadDowntime(w.tx)
	if err != nil {
		return err
	}
	side, ok := w.playerSide()
	if !ok {
		return nil
	}
	c := lg.Clock
	if c.ToMove >= 0 && lg.Seats[c.ToMove].Side == g.sideName(side) {
		if err := l.Moved(g.rec.ID, now, d); err != nil {
			return err
		}
	}
	if !g.rec.Over && c.ToMove < 0 {
		if err := l.Asked(g.rec.ID, g.sideName(engine.Side(g.current().Turn().Side)), now); err != nil {
			return err
		}
	}
	return saveLadder(w.tx, l, now, "")
}

// ladderGameOver runs when a game's battle ends (gameOver): for a ladder
// game not yet over in the ladder, it records the result and rates it,
// mails the standings to the members, and mails the observers the end
// with the whole dice log, everything now revealed.
func (s *Service) ladderGameOver(tx *store.Tx, g *game, acc templates.Account, winner string, attach []mailbox.Part) error {
	l, err := s.ladderOf(tx, g.rec.ID)
	if l == nil || err != nil {
		return err
	}
	lg, err := l.Game(g.rec.ID)
	if err != nil {
		return err
	}
	if lg.Status != ladder.Over {
		w := winner
		if w == "" {
			w = "draw" // the battle's outcome is a draw (system.Outcome)
		}
		now := s.cfg.Now()
		if err := l.Finish(g.rec.ID, w, now); err != nil {
			return err
		}
		if err := saveLadder(tx, l, now, "", fmt.Sprintf("game %s over: %s", g.rec.ID, g.rec.Result)); err != nil {
			return err
		}
		if lg, err = l.Game(g.rec.ID); err != nil {
			return err
		}
		if err := s.mailStandings(tx, l, lg); err != nil {
			return err
		}
	}
	var text []string
	for _, n := range acc.Lines {
		text = append(text, n.Text)
	}
	for _, o := range l.Observers {
		n := templates.Notice{GameID: g.rec.ID, About: "Observer's copy: the game is over",
			Paragraphs: []string{fmt.Sprintf("Game %s of ladder %s is over: %s (%s).", g.rec.ID, l.ID, resultWords(lg), g.rec.Result),
				joinLines(text), "The whole dice log is attached, every secret of the game now revealed."}}
		if err := s.send(tx, g, n, o, mailRef{kind: "observer", tag: "over-" + hashTag(o), attach: attach}); err != nil {
			return err
		}
	}
	return nil
}
