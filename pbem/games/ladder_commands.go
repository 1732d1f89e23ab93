package games

import (
	"errors"
	"fmt"
	"slices"
	"strconv"
	"strings"
	"time"

	"herald/engine"
	"herald/pbem/ladder"
	"herald/pbem/mailbox"
	"herald/pbem/store"
	"herald/templates"
)

// ladderRun carries out a sender's ladder commands (docs/ladders.md,
// "Commands") inside one store transaction, all or nothing: each command
// is first tried on a copy of the ladder, and the games it starts, the
// results it records and the mails it sends are done only when every
// command of the block held. A command refused changes nothing.
type ladderRun struct {
	s   *Service
	tx  *store.Tx
	l   *ladder.Ladder // the copy the commands change
	by  string
	now time.Time
	// cause makes the Message-IDs of the mails the run sends: the
	// Message-ID of the mail that asked, or the CLI's invocation.
	cause string
	says  []string // the answer to the sender, a paragraph a command
	log   []string // the journal's lines
	// effects are done, in order, once every command held.
	effects []func() error
}

// CommandError is a ladder command refused: the line, and why. Nothing
// was changed.
type CommandError struct {
	Line string
	Err  error
}

func (e *CommandError) Error() string { return fmt.Sprintf("%q: %v", e.Line, e.Err) }
func (e *CommandError) Unwrap() error { return e.Err }

// LadderCommand carries out an organizer's or a member's commands on
// ladder id, one a line, as a mail would (without the key: the CLI's
// operator acts as by), and returns what Herald answers. A refused
// command is a *CommandError and changes nothing.
func (s *Service) LadderCommand(id, by string, lines ...string) ([]string, error) {
	var says []string
	now := s.cfg.Now()
	err := s.cfg.Store.Update(func(tx *store.Tx) error {
		l, err := loadLadder(tx, id)
		if err != nil {
			return err
		}
		r := &ladderRun{s: s, tx: tx, l: l, by: baseAddress(by), now: now, cause: fmt.Sprintf("cli:%d", now.UnixNano())}
		if err := r.run(lines); err != nil {
			return err
		}
		says = r.says
		return r.commit()
	})
	if err == nil {
		s.Kick()
	}
	return says, err
}

// run tries every line; the first refused one is the error.
func (r *ladderRun) run(lines []string) error {
	if _, err := r.s.beat(r.tx, r.now); err != nil {
		return err
	}
	n := 0
	for _, line := range lines {
		text, _, _ := strings.Cut(line, "#")
		f := strings.Fields(text)
		if len(f) == 0 {
			continue
		}
		n++
		if err := r.do(strings.ToUpper(f[0]), f[1:]); err != nil {
			return &CommandError{Line: strings.TrimSpace(text), Err: err}
		}
		r.log = append(r.log, strings.Join(f, " "))
	}
	if n == 0 {
		return &CommandError{Err: errors.New("the block holds no command")}
	}
	return nil
}

// commit stores the ladder (before the effects: a result's effects end
// the game, whose end reads the ladder), does the effects and stores the
// ladder again with what they did to it (clocks started).
func (r *ladderRun) commit() error {
	if err := saveLadder(r.tx, r.l, r.now, r.by, r.log...); err != nil {
		return err
	}
	for _, e := range r.effects {
		if err := e(); err != nil {
			return err
		}
	}
	return saveLadder(r.tx, r.l, r.now, r.by)
}

func (r *ladderRun) say(format string, a ...any) { r.says = append(r.says, fmt.Sprintf(format, a...)) }
func (r *ladderRun) then(f func() error)         { r.effects = append(r.effects, f) }

var errUsage = errors.New("usage")

func usage(form string) error { return fmt.Errorf("%w: %s", errUsage, form) }

// do tries one command on the ladder.
func (r *ladderRun) do(verb string, args []string) error {
	l, by, now := r.l, r.by, r.now
	switch verb {
	case "CHALLENGE":
		if len(args) < 1 || len(args) > 3 {
			return usage("CHALLENGE <member|ANY> [<scenario>] [FIRST|SECOND]")
		}
		to := args[0]
		if strings.EqualFold(to, "ANY") {
			to = ""
		}
		scenario, seat := "", 0
		for _, a := range args[1:] {
			switch strings.ToUpper(a) {
			case "FIRST":
				seat = 0
			case "SECOND":
				seat = 1
			default:
				scenario = strings.ToLower(a)
			}
		}
		c, err := l.Challenge(by, to, scenario, seat, now)
		if err != nil {
			return err
		}
		r.say("Challenge %d: %s to %s, %s, the challenger on the %s side. ACCEPT %d takes it up.", c.N, c.From, nameOpen(c.To), c.Scenario, seatWord(c.FromSeat), c.N)
		if c.To != "" {
			r.then(func() error {
				n := ladderNotice(l.ID, fmt.Sprintf("Challenge %d from %s", c.N, c.From),
					fmt.Sprintf("%s challenges you to %s in ladder %s, playing the %s side. Reply ACCEPT %d or DECLINE %d in a block with your ladder key.", c.From, c.Scenario, l.ID, seatWord(c.FromSeat), c.N, c.N))
				n.Block = r.s.commandBlock(l.ID, c.To)
				return r.s.sendLadder(r.tx, l.ID, n, c.To, "challenge", fmt.Sprint(c.N), nil)
			})
		}
	case "ACCEPT":
		n, err := number(args, "ACCEPT <n>")
		if err != nil {
			return err
		}
		p, err := l.Accept(by, n)
		if err != nil {
			return err
		}
		return r.start(p)
	case "DECLINE":
		n, err := number(args, "DECLINE <n>")
		if err != nil {
			return err
		}
		var c ladder.Challenge
		if i := slices.IndexFunc(l.Challenges, func(c ladder.Challenge) bool { return c.N == n }); i >= 0 {
			c = l.Challenges[i]
		}
		if err := l.Decline(by, n); err != nil {
			return err
		}
		r.say("Challenge %d from %s to %s is withdrawn.", n, c.From, nameOpen(c.To))
		tell := c.From
		if by == c.From {
			tell = c.To
		}
		if tell != "" && tell != by {
			r.then(func() error {
				n := ladderNotice(l.ID, fmt.Sprintf("Challenge %d declined", c.N),
					fmt.Sprintf("%s withdrew challenge %d (%s to %s, %s).", by, c.N, c.From, nameOpen(c.To), c.Scenario))
				return r.s.sendLadder(r.tx, l.ID, n, tell, "declined", fmt.Sprint(c.N), nil)
			})
		}
	case "CHALLENGES":
		if err := r.member(); err != nil {
			return err
		}
		open := l.Open(by)
		if len(open) == 0 {
			r.say("No open challenge for you.")
			break
		}
		var b []string
		for _, c := range open {
			b = append(b, fmt.Sprintf("%d: %s to %s, %s, the challenger on the %s side", c.N, c.From, nameOpen(c.To), c.Scenario, seatWord(c.FromSeat)))
		}
		r.say("Open challenges:\n%s", strings.Join(b, "\n"))
	case "STANDINGS":
		if err := r.member(); err != nil {
			return err
		}
		r.say("Standings of %s:\n%s", l.ID, standingsText(l))
	case "GAMES":
		if err := r.member(); err != nil {
			return err
		}
		r.say("%s", gamesText(l, now, r.downtime()))
	case "CLAIM":
		if len(args) != 2 || !slices.Contains([]string{"WIN", "CONTINUE"}, strings.ToUpper(args[1])) {
			return usage("CLAIM <game> WIN|CONTINUE")
		}
		id, win := strings.ToLower(args[0]), strings.EqualFold(args[1], "WIN")
		if err := l.Claim(by, id, win, now); err != nil {
			return err
		}
		g, _ := l.Game(id)
		if win {
			r.say("Game %s: you win on time.", id)
			r.result(g)
		} else {
			late := g.Seats[g.Clock.ToMove]
			r.say("Game %s goes on: the %s have %s from now.", id, late.Side, dur(g.Clock.Left[g.Clock.ToMove]))
			r.then(func() error {
				return r.s.clockMail(r.tx, g.ID, late.Address, fmt.Sprintf("continue-%d", now.Unix()),
					fmt.Sprintf("Game %s goes on: your opponent let it continue after your time ran out. You have %s for this move, from now.", g.ID, dur(g.Clock.Left[g.Clock.ToMove])))
			})
		}
	case "ADD", "REMOVE", "OBSERVE", "UNOBSERVE":
		if len(args) != 1 {
			return usage(verb + " <address>")
		}
		a := strings.ToLower(args[0])
		var err error
		switch verb {
		case "ADD":
			if err = l.AddMember(by, a, now); err == nil {
				r.say("%s is a member, rated %g.", a, l.Rating.Initial)
				r.then(func() error { return r.s.welcomeLadder(r.tx, r.l, a, r.cause) })
			}
		case "REMOVE":
			if err = l.RemoveMember(by, a); err == nil {
				r.say("%s is no longer a member; his record is kept.", a)
			}
		case "OBSERVE":
			if err = l.AddObserver(by, a); err == nil {
				r.say("%s observes the ladder's games.", a)
			}
		case "UNOBSERVE":
			if err = l.RemoveObserver(by, a); err == nil {
				r.say("%s no longer observes.", a)
			}
		}
		return err
	case "PAIR":
		if len(args) > 1 {
			return usage("PAIR [<scenario>]")
		}
		ps, err := l.PairRound(by, strings.ToLower(strings.Join(args, "")))
		if err != nil {
			return err
		}
		r.say("Round %d paired: %d games.", l.Round, len(ps))
		for _, p := range ps {
			if err := r.start(p); err != nil {
				return err
			}
		}
	case "START":
		if len(args) != 3 {
			return usage("START <scenario> <first side's member> <second side's member>")
		}
		if err := r.organizer(); err != nil {
			return err
		}
		return r.start(ladder.Pairing{Scenario: strings.ToLower(args[0]), First: args[1], Second: args[2]})
	case "ADJUDICATE":
		if len(args) != 2 {
			return usage("ADJUDICATE <game> <side|member|DRAW>")
		}
		id, winner := strings.ToLower(args[0]), args[1]
		if strings.EqualFold(winner, "DRAW") {
			winner = "draw"
		}
		if err := l.Adjudicate(by, id, r.sideName(id, winner), now); err != nil {
			return err
		}
		g, _ := l.Game(id)
		r.say("Game %s: %s.", id, resultWords(g))
		r.result(g)
	case "ABANDON":
		if len(args) != 1 {
			return usage("ABANDON <game>")
		}
		id := strings.ToLower(args[0])
		if err := l.Abandon(by, id, now); err != nil {
			return err
		}
		r.say("Game %s abandoned: no result, no rating change.", id)
		r.then(func() error {
			return r.s.abandonGame(r.tx, l, id, by)
		})
	case "CLOCK":
		if len(args) != 3 {
			return usage("CLOCK <game> <side|member> <time left>")
		}
		left, err := parseDuration(args[2])
		if err != nil {
			return err
		}
		id := strings.ToLower(args[0])
		if err := l.SetClock(by, id, r.sideName(id, args[1]), left, now); err != nil {
			return err
		}
		r.say("Game %s: %s now has %s.", id, args[1], dur(left))
	case "EXPORT":
		if len(args) != 1 {
			return usage("EXPORT <game>")
		}
		if err := r.organizer(); err != nil {
			return err
		}
		id := strings.ToLower(args[0])
		if _, err := l.Game(id); err != nil {
			return err
		}
		r.say("Game %s's dice log is attached to a mail of its own.", id)
		r.then(func() error {
			export, err := exportBytes(r.tx, id)
			if err != nil {
				return err
			}
			n := ladderNotice(l.ID, "Export of game "+id, fmt.Sprintf("The dice log of game %s as it stands, for herald verify (docs/dice.md). It holds no key and no secret not yet revealed.", id))
			return r.s.sendLadder(r.tx, l.ID, n, by, "export", hashTag(r.cause+"\x00"+id),
				[]mailbox.Part{{Name: id + "-dice.jsonl", ContentType: "application/jsonl", Data: export}})
		})
	default:
		return fmt.Errorf("%w: %s is no ladder command (%s)", errUsage, verb, "CHALLENGE, ACCEPT, DECLINE, CHALLENGES, STANDINGS, GAMES, CLAIM; organizers: ADD, REMOVE, OBSERVE, UNOBSERVE, PAIR, START, ADJUDICATE, ABANDON, CLOCK, EXPORT")
	}
	return nil
}

func (r *ladderRun) downtime() *ladder.Downtime {
	d, err := loadDowntime(r.tx)
	if err != nil {
		return &ladder.Downtime{}
	}
	return d
}

// member wants the sender a member or an organizer.
func (r *ladderRun) member() error {
	if r.l.IsMember(r.by) || r.l.IsOrganizer(r.by) {
		return nil
	}
	return fmt.Errorf("ladder %s: %s: %w", r.l.ID, r.by, ladder.ErrUnknownMember)
}

func (r *ladderRun) organizer() error {
	if r.l.IsOrganizer(r.by) {
		return nil
	}
	return fmt.Errorf("ladder %s: %s: %w", r.l.ID, r.by, ladder.ErrNotOrganizer)
}

// sideName reads a side as players write it ("english" for the
// English), or leaves an address or "draw" as it is.
func (r *ladderRun) sideName(game, who string) string {
	g, err := r.l.Game(game)
	if err != nil {
		return who
	}
	for _, st := range g.Seats {
		if strings.EqualFold(st.Side, who) {
			return st.Side
		}
	}
	return who
}

// start records a game of the pairing and, once every command held,
// creates it: its welcomes go to both members, its first player's clock
// starts.
func (r *ladderRun) start(p ladder.Pairing) error {
	b, err := r.s.battle(p.Scenario)
	if err != nil {
		return fmt.Errorf("scenario %q: %w", p.Scenario, ladder.ErrScenario)
	}
	sides := b.Sides()
	id, err := newGameID(p.Scenario)
	if err != nil {
		return err
	}
	if err := r.l.StartPairing(p, id, sides, r.now); err != nil {
		return err
	}
	g, _ := r.l.Game(id)
	r.say("Game %s started: %s, the %s %s, the %s %s.", id, g.Scenario, g.Seats[0].Side, g.Seats[0].Address, g.Seats[1].Side, g.Seats[1].Address)
	r.then(func() error {
		ng := NewGame{ID: id, Scenario: g.Scenario, Organizers: r.l.Organizers, Players: []PlayerSpec{
			{Side: g.Seats[0].Side, Address: g.Seats[0].Address}, {Side: g.Seats[1].Side, Address: g.Seats[1].Address}}}
		if _, err := r.s.createGame(r.tx, ng); err != nil {
			return err
		}
		if g.Clock == nil {
			return nil
		}
		hg, err := r.s.load(r.tx, id)
		if err != nil {
			return err
		}
		return r.l.Asked(id, hg.sideName(engine.Side(hg.current().Turn().Side)), r.now)
	})
	return nil
}

// result ends a game the ladder decided (adjudication, claim) and mails
// the standings, once every command held.
func (r *ladderRun) result(g *ladder.Game) {
	id := g.ID
	r.then(func() error {
		lg, err := r.l.Game(id)
		if err != nil {
			return err
		}
		winner := ""
		for _, st := range lg.Seats {
			if st.Address == lg.Result.Winner {
				winner = st.Side
			}
		}
		if err := r.s.endGame(r.tx, id, winner, "ladder "+r.l.ID+": "+resultWords(lg)); err != nil {
			return err
		}
		return r.s.mailStandings(r.tx, r.l, lg)
	})
}

// endGame ends a ladder game that its battle did not end: the record is
// over with why, and both players (and the observers) get the game-over
// mail with the whole dice log. The ladder must already record it over.
func (s *Service) endGame(tx *store.Tx, id, winner, why string) error {
	g, err := s.load(tx, id)
	if err != nil {
		return err
	}
	if g.rec.Over {
		return nil
	}
	g.rec.Over, g.rec.Result = true, why
	if err := tx.PutGame(g.rec); err != nil {
		return err
	}
	acc := templates.Account{Lines: []templates.Narrative{{Text: sentenceOf(why)}}}
	return s.gameOver(tx, g, acc, mailRef{tag: "ladder-"}, winner)
}

// abandonGame ends a game an organizer called off: the record is over,
// its hidden draws are revealed as at any end, and the players and the
// observers are told, with the whole dice log; there is no winner.
func (s *Service) abandonGame(tx *store.Tx, l *ladder.Ladder, id, by string) error {
	g, err := s.load(tx, id)
	if err != nil || g.rec.Over {
		return err
	}
	g.rec.Over, g.rec.Result = true, "abandoned by "+by+", an organizer of ladder "+l.ID
	if err := tx.PutGame(g.rec); err != nil {
		return err
	}
	if err := s.revealHidden(tx, g); err != nil {
		return err
	}
	export, err := exportBytes(tx, id)
	if err != nil {
		return err
	}
	attach := []mailbox.Part{{Name: id + "-dice.jsonl", ContentType: "application/jsonl", Data: export}}
	n := templates.Notice{GameID: id, About: "Game " + id + " abandoned",
		Paragraphs: []string{fmt.Sprintf("%s, an organizer of ladder %s, has called game %s off: it has no result and moves no rating. Nothing more is taken for it.", by, l.ID, id),
			"The whole dice log is attached, every secret of the game now revealed, for herald verify."}}
	for i := range 2 {
		side := engine.Side(i)
		if err := s.send(tx, g, n, g.player(side), mailRef{kind: "gameover", tag: "abandoned-", side: g.sideName(side), attach: attach}); err != nil {
			return err
		}
	}
	for _, o := range l.Observers {
		if err := s.send(tx, g, n, o, mailRef{kind: "observer", tag: "over-" + hashTag(o), attach: attach}); err != nil {
			return err
		}
	}
	return nil
}

func number(args []string, form string) (int, error) {
	if len(args) != 1 {
		return 0, usage(form)
	}
	n, err := strconv.Atoi(args[0])
	if err != nil || n <= 0 {
		return 0, fmt.Errorf("%q is not a challenge's number: %w", args[0], errUsage)
	}
	return n, nil
}

func nameOpen(to string) string {
	if to == "" {
		return "any member"
	}
	return to
}

func seatWord(seat int) string {
	if seat == 1 {
		return "second"
	}
	return "first"
}

// parseDuration reads "36h", "90m", "2d" or "1d12h".
func parseDuration(s string) (time.Duration, error) {
	s = strings.ToLower(strings.TrimSpace(s))
	var days time.Duration
	if d, rest, ok := strings.Cut(s, "d"); ok {
		n, err := strconv.Atoi(d)
		if err != nil || n < 0 {
			return 0, fmt.Errorf("time %q: want e.g. 36h, 90m, 2d or 1d12h: %w", s, errUsage)
		}
		days, s = time.Duration(n)*24*time.Hour, rest
	}
	if s == "" {
		return days, nil
	}
	d, err := time.ParseDuration(s)
	if err != nil || d < 0 {
		return 0, fmt.Errorf("time %q: want e.g. 36h, 90m, 2d or 1d12h: %w", s, errUsage)
	}
	return days + d, nil
}

// gamesText lists a ladder's games and their clocks.
func gamesText(l *ladder.Ladder, now time.Time, d *ladder.Downtime) string {
	if len(l.Games) == 0 {
		return "Ladder " + l.ID + " has no games yet."
	}
	var b []string
	for _, g := range l.Games {
		line := fmt.Sprintf("%s: %s, the %s %s v the %s %s: %s", g.ID, g.Scenario, g.Seats[0].Side, g.Seats[0].Address, g.Seats[1].Side, g.Seats[1].Address, g.Status)
		if g.Status == ladder.Over {
			line += ", " + resultWords(&g)
		} else if c := g.Clock; c != nil {
			for i, st := range g.Seats {
				left := c.Left[i]
				if c.ToMove == i {
					left = c.LeftAt(now, d)
				}
				line += fmt.Sprintf("; %s %s", st.Side, dur(left))
				if c.ToMove == i {
					line += " (to move)"
				}
			}
		}
		b = append(b, line)
	}
	return "Games of " + l.ID + ":\n" + strings.Join(b, "\n")
}
