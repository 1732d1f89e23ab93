package games

import (
	"crypto/subtle"
	"encoding/json"
	"errors"
	"fmt"
	"slices"
	"strconv"
	"strings"

	"herald/pbem"
	"herald/pbem/ladder"
	"herald/pbem/store"
)

// ladderMail carries out a mail about ladder lid (docs/mail-orders.md,
// "Ladder commands"): its block, "--- herald orders: ladder-<id> move 0
// ---", holds the sender's key for the ladder and his commands, one a
// line. The answer says what was done, or which line was refused and
// why, nothing having changed.
func (w *work) ladderMail(lid string, blocks []pbem.Block, problems []pbem.Problem) error {
	w.out.Game = ladderPrefix + lid
	var mine []pbem.Block
	for _, b := range blocks {
		if b.GameID == ladderPrefix+lid && !b.AllQuoted && hasOrderText(b.Lines) {
			mine = append(mine, b)
		}
	}
	switch {
	case len(mine) == 0 && len(problems) > 0:
		return w.notice("no-block", "Your ladder commands were not read", "Herald found the start of a block in your mail but not its end marker, --- end orders ---. Nothing has changed.")
	case len(mine) == 0:
		return w.notice("no-block", "No ladder commands found in your mail", fmt.Sprintf("Herald found no block of commands for ladder %s in your mail. Write them, one a line, in the block of Herald's latest mail about the ladder, with your KEY line.", lid))
	case len(mine) > 1:
		return w.notice("several", "More than one block of ladder commands", "Your mail holds more than one block of ladder commands; send one. Nothing has changed.")
	}
	b := mine[0]
	from := baseAddress(w.m.From)
	var lines []string
	for _, l := range b.Lines {
		lines = append(lines, l.Text)
	}
	if first := firstWord(lines); first == "CREATE" {
		return w.createLadderMail(lid, from, b.Key, lines)
	}
	l, err := loadLadder(w.tx, lid)
	if errors.Is(err, store.ErrNotFound) {
		return w.noLadder(lid)
	}
	if err != nil {
		return err
	}
	if !l.IsOrganizer(from) && !l.IsMember(from) {
		return w.noLadder(lid)
	}
	if r := w.ladderKey(b.Key, w.s.LadderKey(lid, from), "ladder "+lid); r != nil {
		return r()
	}
	w.authed = true
	now := w.s.cfg.Now()
	run := &ladderRun{s: w.s, tx: w.tx, l: l.Clone(), by: from, now: now, cause: w.id}
	if err := run.run(lines); err != nil {
		return w.ladderRefused(lid, from, err)
	}
	if err := run.commit(); err != nil {
		return err
	}
	w.out.Status = "ladder"
	n := ladderNotice(lid, "Done: "+strings.Join(run.log, "; "), run.says...)
	return w.s.sendLadder(w.tx, lid, n, w.m.From, "done", hashTag(w.id), nil)
}

// ladderKey checks a block's key; it returns the refusal to send, nil
// when the key is right.
func (w *work) ladderKey(got, want, what string) func() error {
	if got == "" {
		return func() error {
			return w.notice("no-key", "Your ladder commands have no KEY line", "Every block of ladder commands must carry your key for "+what+" on its KEY line, as in the blocks Herald mails you. Nothing has changed.")
		}
	}
	if subtle.ConstantTimeCompare([]byte(pbem.CanonicalKey(got)), []byte(want)) != 1 {
		n := w.s.limiter.FailGame(w.m.From, what, w.s.cfg.Now())
		w.s.log.Warn("ladder authentication failed", "ladder", what, "from", w.m.From, "failures_this_hour", n)
		return func() error {
			return w.notice("wrong-key", "Wrong key for "+what, "The KEY line of your block is not your key for "+what+". Nothing has changed.")
		}
	}
	return nil
}

// ladderRefused answers an authenticated sender whose command was
// refused.
func (w *work) ladderRefused(lid, from string, err error) error {
	var ce *CommandError
	if !errors.As(err, &ce) {
		return err
	}
	w.out.Status, w.out.Rejected = "refused:ladder", true
	n := ladderNotice(lid, "Ladder command refused",
		fmt.Sprintf("Herald refused this command, and nothing in ladder %s has changed (a block's commands are carried out all or none):", lid),
		"  "+ce.Line, sentenceOf(ce.Err.Error()))
	n.Block = w.s.commandBlock(lid, from)
	return w.s.sendLadder(w.tx, lid, n, w.m.From, "refused", hashTag(w.id), nil)
}

// noLadder answers a mail about a ladder that does not exist or in which
// the sender takes no part, in the same words, so that a stranger learns
// nothing of it.
func (w *work) noLadder(lid string) error {
	return w.notice("unknown-ladder", "No such ladder",
		fmt.Sprintf("Herald runs no ladder %q in which %s takes part. Nothing has changed.", lid, w.m.From))
}

func firstWord(lines []string) string {
	for _, l := range lines {
		text, _, _ := strings.Cut(l, "#")
		if f := strings.Fields(text); len(f) > 0 {
			return strings.ToUpper(f[0])
		}
	}
	return ""
}

// createLadderMail carries out CREATE from one of Config.Organizers,
// signed with his organizer key.
func (w *work) createLadderMail(lid, from, key string, lines []string) error {
	if !slices.ContainsFunc(w.s.cfg.Organizers, func(o string) bool { return baseAddress(o) == from }) {
		return w.noLadder(lid)
	}
	if r := w.ladderKey(key, w.s.OrganizerKey(from), "creating ladders"); r != nil {
		return r()
	}
	w.authed = true
	var args []string
	n := 0
	for _, l := range lines {
		text, _, _ := strings.Cut(l, "#")
		if f := strings.Fields(text); len(f) > 0 {
			n++
			args = f[1:]
		}
	}
	var err error
	if n != 1 {
		err = &CommandError{Line: "CREATE", Err: errors.New("CREATE stands alone in its block")}
	} else {
		_, err = w.s.createLadder(w.tx, lid, from, args, w.id)
	}
	if err != nil {
		w.out.Status, w.out.Rejected = "refused:ladder", true
		nt := ladderNotice(lid, "Ladder not created", fmt.Sprintf("Herald did not create ladder %s, and nothing has changed: %s", lid, sentenceOf(err.Error())))
		return w.s.sendLadder(w.tx, lid, nt, w.m.From, "refused", hashTag(w.id), nil)
	}
	w.out.Status = "ladder"
	return nil
}

// CreateLadder makes ladder id, organized by by and the organizers args
// names: args are the kind ("ladder" or "round-robin") and key=value
// settings (docs/ladders.md, "Creating a ladder"). Each organizer is
// mailed his key for the ladder.
func (s *Service) CreateLadder(id, by string, args []string) (*ladder.Ladder, error) {
	var l *ladder.Ladder
	err := s.cfg.Store.Update(func(tx *store.Tx) error {
		var err error
		l, err = s.createLadder(tx, id, baseAddress(by), args, fmt.Sprintf("cli:%d", s.cfg.Now().UnixNano()))
		return err
	})
	if err == nil {
		s.Kick()
	}
	return l, err
}

func (s *Service) createLadder(tx *store.Tx, id, by string, args []string, cause string) (*ladder.Ladder, error) {
	cfg, err := s.ladderConfig(id, by, args)
	if err != nil {
		return nil, err
	}
	now := s.cfg.Now()
	l, err := ladder.New(cfg, now)
	if err != nil {
		return nil, err
	}
	if err := tx.CreateLadder(l.ID, l.Encode()); err != nil {
		if errors.Is(err, store.ErrExists) {
			return nil, fmt.Errorf("ladder %s already exists: %w", l.ID, ladder.ErrInvalid)
		}
		return nil, err
	}
	if err := saveLadder(tx, l, now, by, "CREATE "+strings.Join(args, " ")); err != nil {
		return nil, err
	}
	for _, o := range l.Organizers {
		if err := s.welcomeLadder(tx, l, o, cause); err != nil {
			return nil, err
		}
	}
	return l, nil
}

// ladderConfig reads CREATE's arguments: the kind, then key=value.
func (s *Service) ladderConfig(id, by string, args []string) (ladder.Config, error) {
	cfg := ladder.Config{ID: id, Organizers: []string{by}, Rating: ladder.DefaultRating}
	bad := func(format string, a ...any) (ladder.Config, error) {
		return cfg, fmt.Errorf(format+": %w", append(a, ladder.ErrInvalid)...)
	}
	if len(args) == 0 {
		return bad("CREATE wants the kind, %q or %q, then settings", ladder.KindLadder, ladder.KindRoundRobin)
	}
	cfg.Kind = ladder.Kind(strings.ToLower(args[0]))
	var tc ladder.TimeControl
	clock := false
	for _, a := range args[1:] {
		k, v, ok := strings.Cut(a, "=")
		if !ok || v == "" {
			return bad("%q: want key=value", a)
		}
		var err error
		switch strings.ToLower(k) {
		case "scenarios":
			for _, sc := range strings.Split(strings.ToLower(v), ",") {
				if _, e := s.battle(sc); e != nil {
					return bad("scenario %q: Herald has no such battle", sc)
				}
				cfg.Scenarios = append(cfg.Scenarios, sc)
			}
		case "organizers":
			cfg.Organizers = append(cfg.Organizers, strings.Split(v, ",")...)
		case "clock":
			clock = true
			ini, inc, _ := strings.Cut(v, "+")
			if tc.Initial, err = parseDuration(ini); err == nil && inc != "" {
				tc.Increment, err = parseDuration(inc)
			}
		case "cap":
			tc.Cap, err = parseDuration(v)
		case "warning":
			tc.Warning, err = parseDuration(v)
		case "reminders":
			for _, f := range strings.Split(v, ",") {
				x, e := strconv.ParseFloat(f, 64)
				if e != nil {
					return bad("reminders %q: want fractions, e.g. 0.5,0.25", v)
				}
				tc.Reminders = append(tc.Reminders, x)
			}
		case "timeout":
			tc.OnTimeout = ladder.TimeoutRule(strings.ToLower(v))
		case "k":
			cfg.Rating.K, err = strconv.ParseFloat(v, 64)
		case "initial":
			cfg.Rating.Initial, err = strconv.ParseFloat(v, 64)
		case "rate-forfeits", "rate-draws":
			yes := strings.EqualFold(v, "yes") || strings.EqualFold(v, "true")
			if !yes && !strings.EqualFold(v, "no") && !strings.EqualFold(v, "false") {
				return bad("%s=%s: want yes or no", k, v)
			}
			if strings.ToLower(k) == "rate-forfeits" {
				cfg.Rating.RateForfeits = yes
			} else {
				cfg.Rating.RateDraws = yes
			}
		default:
			return bad("%q: no such setting (scenarios, organizers, clock, cap, reminders, warning, timeout, k, initial, rate-forfeits, rate-draws)", k)
		}
		if err != nil {
			return bad("%s=%s: %v", k, v, err)
		}
	}
	if clock {
		if tc.Cap == 0 {
			tc.Cap = tc.Initial
		}
		if tc.OnTimeout == "" {
			tc.OnTimeout = ladder.TimeoutForfeit
		}
		cfg.Clock = &tc
	} else if tc.Cap != 0 || tc.Warning != 0 || tc.Reminders != nil || tc.OnTimeout != "" {
		return bad("cap, reminders, warning and timeout need clock=<allowance>+<increment>")
	}
	return cfg, nil
}

func jsonOf(v any) ([]byte, error) { return json.Marshal(v) }

func joinLines(lines []string) string { return strings.Join(lines, "\n") }
