package games

import (
	"bytes"
	"crypto/sha256"
	"encoding/json"
	"fmt"
	"io"
	"log/slog"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"herald/engine"
	"herald/pbem"
	"herald/pbem/dice"
	"herald/pbem/mailbox"
	"herald/pbem/store"
	"herald/pbem/system"
	"herald/templates"
)

const (
	heraldAddr = "herald@test.example"
	alice      = "alice@test.example" // the English
	bob        = "bob@test.example"   // the French, who act first at Crécy
)

var epoch = time.Date(2026, 3, 3, 18, 40, 0, 0, time.UTC)

// fixture is a service on a real store file with one game of Crécy.
type fixture struct {
	t     testing.TB
	svc   *Service
	st    *store.Store
	game  string
	keys  map[string]string // by player address, read from the welcomes
	clock time.Time
	n     int // mails sent by the players
	// welcomes are the game's first mails, as they left.
	welcomes []sent
	// systems, when set, are the service's game systems.
	systems []system.System
	// games counts the games autoplay started when one ended.
	games int
}

func newFixture(t testing.TB) *fixture {
	t.Helper()
	g := crecyGame("")
	return newFixtureOf(t, g.Scenario, g.Players...)
}

// crecyGame is a game of Crécy between alice (English) and bob (French).
func crecyGame(id string) NewGame {
	return NewGame{ID: id, Scenario: "crecy", Players: []PlayerSpec{{Side: "English", Address: alice}, {Side: "French", Address: bob}}}
}

// newFixtureOf is a fixture with one game of another battle.
func newFixtureOf(t testing.TB, scenario string, players ...PlayerSpec) *fixture {
	t.Helper()
	return newFixtureWith(t, nil, scenario, players...)
}

// newFixtureWith is a fixture whose service runs the given game systems.
func newFixtureWith(t testing.TB, systems []system.System, scenario string, players ...PlayerSpec) *fixture {
	t.Helper()
	st, err := store.Open(filepath.Join(t.TempDir(), "herald.db"))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { st.Close() })
	f := &fixture{t: t, st: st, keys: map[string]string{}, clock: epoch, systems: systems}
	f.svc = f.service()
	g, err := f.svc.CreateGame(NewGame{ID: scenario + "-test", Scenario: scenario, Players: players})
	if err != nil {
		t.Fatal(err)
	}
	f.game = g.ID
	f.learnKeys()
	f.welcomes = f.deliverAll()
	return f
}

// learnKeys takes each player's key from the welcomes of a game just
// created, in the outbox.
func (f *fixture) learnKeys() {
	f.t.Helper()
	for _, m := range f.outbox() {
		blocks, _ := pbem.FindBlocks(m.mail.Text)
		if len(blocks) != 1 || blocks[0].Key == "" {
			f.t.Fatalf("welcome to %s holds no block with a key:\n%s", m.to, m.mail.Text)
		}
		f.keys[m.to] = blocks[0].Key
	}
}

func (f *fixture) service() *Service {
	svc, err := New(Config{Store: f.st, Address: heraldAddr, Now: func() time.Time { return f.clock }, Systems: f.systems, Pictures: true,
		Logger: slog.New(slog.NewTextHandler(io.Discard, nil))})
	if err != nil {
		f.t.Fatal(err)
	}
	return svc
}

// sent is a mail in the outbox.
type sent struct {
	id   uint64
	to   string
	raw  []byte
	mail *pbem.Mail
}

// outbox lists the mails waiting to be sent, read back as a player's
// client would.
func (f *fixture) outbox() []sent {
	f.t.Helper()
	var out []sent
	err := f.st.View(func(tx *store.Tx) error {
		return tx.Outbox(func(e store.OutboxEntry) error {
			var m outboxMail
			if err := json.Unmarshal(e.Mail, &m); err != nil {
				return err
			}
			raw, err := f.svc.rawOf(m) // its maps drawn, as the outbox does
			if err != nil {
				return fmt.Errorf("outbox entry %d: %w", e.ID, err)
			}
			pm, err := pbem.ReadMail(raw, pbem.ReadOptions{MaxBytes: 10 << 20})
			if err != nil {
				return fmt.Errorf("outbox entry %d: %w", e.ID, err)
			}
			out = append(out, sent{id: e.ID, to: m.To[0], raw: raw, mail: pm})
			return nil
		})
	})
	if err != nil {
		f.t.Fatal(err)
	}
	return out
}

// deliverAll empties the outbox as an SMTP server that accepts everything
// would, and returns what it sent.
func (f *fixture) deliverAll() []sent {
	f.t.Helper()
	out := f.outbox()
	if err := f.st.Update(func(tx *store.Tx) error {
		for _, m := range out {
			if err := tx.Delivered(m.id); err != nil {
				return err
			}
		}
		return nil
	}); err != nil {
		f.t.Fatal(err)
	}
	return out
}

// mailFrom composes a player's mail to Herald.
func (f *fixture) mailFrom(from, subject, body string) []byte {
	f.t.Helper()
	return f.mailFor(f.game, from, subject, body)
}

// mailFor is mailFrom addressed to another game's address.
func (f *fixture) mailFor(game, from, subject, body string) []byte {
	f.t.Helper()
	f.n++
	raw, err := mailbox.Compose(mailbox.Outgoing{
		From: from, To: []string{"herald+" + game + "@test.example"}, Subject: subject,
		Date: f.clock, MessageID: fmt.Sprintf("m%d.%s", f.n, from), Text: body,
	})
	if err != nil {
		f.t.Fatal(err)
	}
	return raw
}

// orders is a player's mail with an order block for the game's current
// move, with his own key unless key is given.
func (f *fixture) orders(from string, key string, lines ...string) []byte {
	f.t.Helper()
	if key == "" {
		key = f.keys[from]
	}
	b := templates.OrderBlock{GameID: f.game, Move: f.move(), Key: key, Prefill: lines}
	return f.mailFrom(from, "Re: ["+f.game+"] orders", "Here you go.\n\n"+b.Text()+"\nCheers\n")
}

func (f *fixture) handle(raw []byte) Outcome {
	f.t.Helper()
	out, err := f.svc.HandleMail(raw)
	if err != nil {
		f.t.Fatal(err)
	}
	return out
}

func (f *fixture) summary() *Summary {
	f.t.Helper()
	s, err := f.svc.Summary(f.game)
	if err != nil {
		f.t.Fatal(err)
	}
	return s
}

func (f *fixture) move() int { return f.summary().Move }

// snapshot is everything a mail could change in the game: record, state,
// event count and dice log.
func (f *fixture) snapshot() string {
	f.t.Helper()
	var b bytes.Buffer
	err := f.st.View(func(tx *store.Tx) error {
		g, err := tx.Game(f.game)
		if err != nil {
			return err
		}
		json.NewEncoder(&b).Encode(g)
		s, err := tx.State(f.game)
		if err != nil {
			return err
		}
		fmt.Fprintf(&b, "%d %s\n", s.Events, s.State)
		d, err := tx.Dice(f.game)
		if err != nil {
			return err
		}
		b.Write(d.Chain)
		seed, err := tx.Secret(f.game, secretSeed)
		b.Write(seed)
		return err
	})
	if err != nil {
		f.t.Fatal(err)
	}
	return b.String()
}

// verify checks the game's export as herald verify does, replaying every
// block hot-seat through the engine with the logged dice, and that the
// stored snapshot is the state that replay reached and the fold of the
// stored events.
func (f *fixture) verify() *dice.Report {
	f.t.Helper()
	var b bytes.Buffer
	if err := f.svc.Export(f.game, &b); err != nil {
		f.t.Fatal(err)
	}
	pub := f.svc.PublicKey()
	hot := &hotSeat{}
	rep, err := dice.Verify(&b, dice.Options{PublicKey: &pub, Replayer: hot})
	if err != nil {
		f.t.Fatalf("export does not verify: %v", err)
	}
	err = f.svc.cfg.Store.View(func(tx *store.Tx) error {
		rec, err := tx.Game(f.game)
		if err != nil {
			return err
		}
		sc, err := f.svc.scenario(rec.Scenario)
		if err != nil {
			return err
		}
		snap, err := tx.State(f.game)
		if err != nil {
			return err
		}
		want := sha256.Sum256(engine.NewState(sc).Encode())
		if n := len(hot.digests); n > 0 {
			want = hot.digests[n-1].StateSHA256
		}
		if sha256.Sum256(snap.State) != want {
			f.t.Errorf("%s: the stored state is not the state the hot-seat replay of %d blocks reached", f.game, len(hot.digests))
		}
		folded, err := replayEvents(tx, sc, f.game)
		if err != nil {
			return err
		}
		if !bytes.Equal(folded.Encode(), snap.State) {
			f.t.Errorf("%s: the stored state is not the fold of its %d stored events", f.game, snap.Events)
		}
		return nil
	})
	if err != nil {
		f.t.Fatal(err)
	}
	return rep
}

// hotSeat is the export's Replayer, keeping the digests it computed.
type hotSeat struct {
	Replayer
	digests []dice.Digest
}

func (h *hotSeat) Replay(hd dice.Header, blocks []dice.AppliedBlock, rolls dice.RollSource) ([]dice.Digest, error) {
	d, err := h.Replayer.Replay(hd, blocks, rolls)
	h.digests = d
	return d, err
}

// replayEvents loads a game the slow way: every stored event, decoded and
// folded over the opening position.
func replayEvents(tx *store.Tx, sc *engine.Scenario, id string) (*engine.State, error) {
	var events []engine.Event
	err := tx.Events(id, func(_ uint64, b []byte) error {
		e, err := engine.UnmarshalEvent(b)
		events = append(events, e)
		return err
	})
	if err != nil {
		return nil, err
	}
	return engine.Replay(sc, events), nil
}

// only returns the single mail sent to addr, failing otherwise.
func only(t *testing.T, mails []sent, addr string) sent {
	t.Helper()
	var found []sent
	for _, m := range mails {
		if m.to == addr {
			found = append(found, m)
		}
	}
	if len(found) != 1 {
		var subj []string
		for _, m := range mails {
			subj = append(subj, m.to+": "+m.mail.Subject)
		}
		t.Fatalf("want one mail to %s, got %d:\n%s", addr, len(found), strings.Join(subj, "\n"))
	}
	return found[0]
}

func pbemBlocks(m sent) ([]pbem.Block, []pbem.Problem) { return pbem.FindBlocks(m.mail.Text) }
