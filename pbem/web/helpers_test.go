package web

import (
	"bytes"
	"context"
	"fmt"
	"io"
	"log/slog"
	"net/http/httptest"
	"path/filepath"
	"sort"
	"strings"
	"testing"
	"time"

	"herald/pbem"
	"herald/pbem/games"
	"herald/pbem/ladder"
	"herald/pbem/mailbox"
	"herald/pbem/store"
	"herald/templates"
)

const (
	heraldAddr = "herald@club.example"
	alice      = "alice@club.example"
	bob        = "bob@club.example"
	carol      = "carol@club.example"
	organizer  = "ladders@club.example"
	// hostile is a player address with the characters HTML escapes that
	// a mail address may hold unquoted (Herald mails no address that needs
	// quotes).
	hostile = `o'neil&amp=x@evil.example`
	// hostileMember is a ladder member's address of the same kind.
	hostileMember = `<script>alert("pwned")</script>@evil.example`
)

var epoch = time.Date(2026, 11, 20, 18, 0, 0, 0, time.UTC)

// memLadders keeps pbem/ladder's ladders in memory: the LadderSource the
// tests give the server (the store's comes with ladder persistence).
type memLadders map[string]*ladder.Ladder

func (m memLadders) Ladders() ([]*ladder.Ladder, error) {
	var out []*ladder.Ladder
	for _, l := range m {
		out = append(out, l)
	}
	sort.Slice(out, func(i, j int) bool { return out[i].ID < out[j].ID })
	return out, nil
}

func (m memLadders) Ladder(id string) (*ladder.Ladder, error) {
	if l, ok := m[id]; ok {
		return l, nil
	}
	return nil, fmt.Errorf("ladder %q: %w", id, store.ErrNotFound)
}

// site is a status page over a real service on a real bbolt file: a game
// of Crécy between alice and bob played some blocks by mail with
// games.Autoplayer, a game not started between carol and a hostile
// address, and a ladder holding the first game with a clock.
type site struct {
	t       testing.TB
	svc     *games.Service
	st      *store.Store
	game    string // the game played
	other   string // the game with the hostile player
	ladders memLadders
	srv     *httptest.Server
	now     time.Time
	// held are mails Herald sent that the players have not answered yet.
	held [][2]string
	n    int
}

func newSite(t testing.TB, blocks int) *site {
	t.Helper()
	st, err := store.Open(filepath.Join(t.TempDir(), "herald.db"))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { st.Close() })
	quiet := slog.New(slog.NewTextHandler(io.Discard, nil))
	svc, err := games.New(games.Config{Store: st, Address: heraldAddr, Logger: quiet, Now: func() time.Time { return epoch }})
	if err != nil {
		t.Fatal(err)
	}
	s := &site{t: t, svc: svc, st: st, now: epoch.Add(30 * time.Hour)}
	g, err := svc.CreateGame(games.NewGame{ID: "crecy-ladder-1", Scenario: "crecy",
		Players: []games.PlayerSpec{{Side: "English", Address: alice}, {Side: "French", Address: bob}}})
	if err != nil {
		t.Fatal(err)
	}
	s.game = g.ID
	o, err := svc.CreateGame(games.NewGame{ID: "crecy-friendly", Scenario: "crecy",
		Players: []games.PlayerSpec{{Side: "English", Address: carol}, {Side: "French", Address: hostile}}})
	if err != nil {
		t.Fatal(err)
	}
	s.other = o.ID
	s.play(blocks)
	s.ladders = memLadders{"club": s.clubLadder()}
	srv, err := New(Config{Source: svc, Ladders: s.ladders, Logger: quiet, Now: func() time.Time { return s.now }})
	if err != nil {
		t.Fatal(err)
	}
	s.srv = httptest.NewServer(srv)
	t.Cleanup(s.srv.Close)
	return s
}

// play has alice and bob answer Herald's mails with games.Autoplayer
// until blocks blocks of their game have been applied.
func (s *site) play(blocks int) {
	s.t.Helper()
	players := map[string]*games.Autoplayer{alice: {Address: alice, Battle: "crecy"}, bob: {Address: bob, Battle: "crecy"}}
	applied := 0
	for round := 0; round < 10*blocks+10 && applied < blocks; round++ {
		s.drain()
		mails := s.held
		s.held = nil
		for _, m := range mails {
			p := players[m[0]]
			if p == nil || applied >= blocks {
				continue
			}
			reply, err := p.Reply([]byte(m[1]))
			if err != nil {
				s.t.Fatal(err)
			}
			if reply == nil {
				continue
			}
			raw, err := mailbox.Compose(*reply)
			if err != nil {
				s.t.Fatal(err)
			}
			out, err := s.svc.HandleMail(raw)
			if err != nil {
				s.t.Fatal(err)
			}
			if out.Status == "applied" {
				applied++
			}
		}
	}
	if applied < blocks {
		s.t.Fatalf("%d blocks applied, want %d", applied, blocks)
	}
}

// drain delivers Herald's outbox into held.
func (s *site) drain() {
	s.t.Helper()
	_, err := s.svc.DrainOutbox(context.Background(), func(_ context.Context, _ string, to []string, raw []byte) error {
		s.held = append(s.held, [2]string{to[0], string(raw)})
		return nil
	})
	if err != nil {
		s.t.Fatal(err)
	}
}

// keyOf is a player's key, from the order block of Herald's first mail
// to him.
func (s *site) keyOf(player string) string {
	s.t.Helper()
	s.drain()
	for _, m := range s.held {
		if m[0] != player {
			continue
		}
		mail, err := pbem.ReadMail([]byte(m[1]), pbem.ReadOptions{})
		if err != nil {
			s.t.Fatal(err)
		}
		if blocks, _ := pbem.FindBlocks(mail.Text); len(blocks) == 1 && blocks[0].Key != "" {
			return blocks[0].Key
		}
	}
	s.t.Fatalf("no mail to %s with his key", player)
	return ""
}

// send mails Herald a player's order block for the game's move.
func (s *site) send(from, key string, move int, lines ...string) games.Outcome {
	s.t.Helper()
	s.n++
	b := templates.OrderBlock{GameID: s.game, Move: move, Key: key, Prefill: lines}
	raw, err := mailbox.Compose(mailbox.Outgoing{From: from, To: []string{"herald+" + s.game + "@club.example"},
		Subject: "Re: [" + s.game + "] orders", Date: epoch, MessageID: fmt.Sprintf("t%d@club.example", s.n), Text: b.Text()})
	if err != nil {
		s.t.Fatal(err)
	}
	out, err := s.svc.HandleMail(raw)
	if err != nil {
		s.t.Fatal(err)
	}
	return out
}

// clubLadder is a ladder with a clock: alice and bob play the game by
// mail, carol beat the hostile member in a game played elsewhere.
func (s *site) clubLadder() *ladder.Ladder {
	s.t.Helper()
	l, err := ladder.New(ladder.Config{ID: "club", Kind: ladder.KindLadder, Organizers: []string{organizer},
		Scenarios: []string{"crecy"}, Rating: ladder.DefaultRating,
		Clock: &ladder.TimeControl{Initial: 72 * time.Hour, Increment: 24 * time.Hour, Cap: 120 * time.Hour, OnTimeout: ladder.TimeoutForfeit}}, epoch)
	if err != nil {
		s.t.Fatal(err)
	}
	must := func(err error) {
		s.t.Helper()
		if err != nil {
			s.t.Fatal(err)
		}
	}
	for _, m := range []string{alice, bob, carol, hostileMember} {
		must(l.AddMember(organizer, m, epoch))
	}
	must(l.Start(organizer, ladder.Pairing{Scenario: "crecy", First: alice, Second: bob}, s.game, [2]string{"English", "French"}, epoch))
	// The clock runs for the side the game waits for; the other side
	// moved once, after 5 hours.
	sum, err := s.svc.Summary(s.game)
	if err != nil {
		s.t.Fatal(err)
	}
	toMove, other := "English", "French"
	if strings.HasPrefix(sum.Waiting, "waiting for the French") {
		toMove, other = other, toMove
	}
	must(l.Asked(s.game, other, epoch))
	must(l.Moved(s.game, epoch.Add(5*time.Hour), nil))
	must(l.Asked(s.game, toMove, epoch.Add(6*time.Hour)))
	must(l.Start(organizer, ladder.Pairing{Scenario: "crecy", First: carol, Second: hostileMember}, "crecy-elsewhere", [2]string{"English", "French"}, epoch))
	must(l.Finish("crecy-elsewhere", carol, epoch.Add(20*time.Hour)))
	return l
}

// export is the played game's export, as herald game export writes it.
func (s *site) export() []byte {
	s.t.Helper()
	var b bytes.Buffer
	if err := s.svc.Export(s.game, &b); err != nil {
		s.t.Fatal(err)
	}
	return b.Bytes()
}
