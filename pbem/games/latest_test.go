package games

import (
	"bytes"
	"image/png"
	"io"
	"log/slog"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/emersion/go-message"

	"herald/pbem"
	"herald/pbem/store"
)

// newMapFixture is a fixture whose mails carry the maps Herald draws.
func newMapFixture(t *testing.T) *fixture {
	t.Helper()
	st, err := store.Open(filepath.Join(t.TempDir(), "herald.db"))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { st.Close() })
	f := &fixture{t: t, st: st, keys: map[string]string{}, clock: epoch}
	cfg := Config{Store: st, Address: heraldAddr, Now: func() time.Time { return f.clock },
		Logger: slog.New(slog.NewTextHandler(io.Discard, nil))}
	productionMaps(&cfg)
	f.svc, err = New(cfg)
	if err != nil {
		t.Fatal(err)
	}
	g, err := f.svc.CreateGame(NewGame{ID: "crecy-maps", Scenario: "crecy", Players: []PlayerSpec{{Side: "English", Address: alice}, {Side: "French", Address: bob}}})
	if err != nil {
		t.Fatal(err)
	}
	f.game = g.ID
	for _, m := range f.outbox() {
		blocks, _ := pbem.FindBlocks(m.mail.Text)
		f.keys[m.to] = blocks[0].Key
	}
	return f
}

// keptLatest is what the store keeps of each side's latest mail.
func (f *fixture) keptLatest() map[string][]byte {
	f.t.Helper()
	out := map[string][]byte{}
	if err := f.st.View(func(tx *store.Tx) error {
		for _, side := range []string{"English", "French"} {
			v, err := tx.Mail(f.game, "latest:"+side)
			if err != nil {
				return err
			}
			out[side] = bytes.Clone(v)
		}
		return nil
	}); err != nil {
		f.t.Fatal(err)
	}
	return out
}

// pictures decodes every PNG part of a raw mail.
func pictures(t *testing.T, raw []byte) int {
	t.Helper()
	e, err := message.Read(bytes.NewReader(raw))
	if err != nil {
		t.Fatal(err)
	}
	n := 0
	err = e.Walk(func(_ []int, part *message.Entity, err error) error {
		if err != nil {
			return err
		}
		if ct, _, _ := part.Header.ContentType(); ct == "image/png" {
			if _, err := png.Decode(part.Body); err != nil {
				return err
			}
			n++
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	return n
}

// Issue 17: the store keeps no picture of a mail once it is sent: a
// side's latest mail, kept for STATUS and Remail, holds its text and how
// to draw its maps again, and STATUS draws them.
func TestLatestKeepsNoPicture(t *testing.T) {
	f := newMapFixture(t)
	check := func(when string) {
		t.Helper()
		for side, kept := range f.keptLatest() {
			if bytes.Contains(kept, []byte("iVBORw0KGgo")) || len(kept) > 64<<10 {
				t.Errorf("%s: the %s latest mail is kept with a picture (%d bytes)", when, side, len(kept))
			}
		}
	}
	welcomes := f.deliverAll()
	for _, m := range welcomes {
		if n := pictures(t, m.raw); n != 2 {
			t.Errorf("the welcome to %s has %d maps, want the army's and the field's", m.to, n)
		}
	}
	check("after the welcomes")
	f.handle(f.orders(alice, "", "STATUS"))
	again := f.deliverAll()
	if len(again) != 1 || pictures(t, again[0].raw) != 2 {
		t.Fatalf("STATUS before any move: %d mails, want the welcome again with both maps", len(again))
	}
	f.handle(f.orders(bob, "", "ACTIVATE Doria", "END"))
	f.deliverAll()
	check("after a result")
	f.handle(f.orders(bob, "", "STATUS"))
	again = f.deliverAll()
	if len(again) != 1 || pictures(t, again[0].raw) != 1 {
		t.Fatalf("STATUS after a move: %d mails, want the result again with its map", len(again))
	}
	if text := flat(again[0].mail.Text); !strings.Contains(text, "Its map shows the battlefield as it stands now") {
		t.Errorf("the STATUS answer does not say its map is drawn anew:\n%s", again[0].mail.Text)
	}
}
