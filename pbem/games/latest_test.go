package games

import (
	"bytes"
	"encoding/json"
	"fmt"
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
	"herald/templates"
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
	g, err := f.svc.CreateGame(crecyGame("crecy-maps"))
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

// A store written by an earlier version keeps its queued mails composed
// (Raw) or rendered (Mail with its bodies), and its latest mails rendered,
// without the key: after the upgrade the first are sent as they were and
// STATUS sends the second again with the key written back.
func TestMailsKeptByEarlierVersions(t *testing.T) {
	f := newFixture(t)
	f.deliverAll()
	f.handle(f.orders(bob, "", "ACTIVATE Doria", "END"))
	results := f.deliverAll()
	var first sent
	for _, m := range results {
		if m.to == bob {
			first = m
		}
	}
	composed := []byte("From: herald@localhost\r\nTo: " + bob + "\r\nSubject: queued before the upgrade\r\nMessage-Id: <old-1@herald>\r\n\r\nOld bytes.\r\n")
	err := f.st.Update(func(tx *store.Tx) error {
		raw, err := tx.Mail(f.game, "latest:French")
		if err != nil {
			return err
		}
		var kept latestMail
		if err := json.Unmarshal(raw, &kept); err != nil || kept.View == nil {
			return fmt.Errorf("kept latest %s: %v", raw, err)
		}
		r, err := templates.RenderRecord(*kept.View, nil)
		if err != nil {
			return err
		}
		kept.Mail.Subject, kept.Mail.Text, kept.Mail.HTML, kept.View = r.Subject, r.Text, r.HTML, nil
		old, _ := json.Marshal(kept)
		if err := tx.PutMail(f.game, "latest:French", old); err != nil {
			return err
		}
		entry, _ := json.Marshal(outboxMail{From: heraldAddr, To: []string{bob}, Raw: composed})
		_, err = tx.Enqueue(entry, f.game+"/"+bob, f.clock)
		return err
	})
	if err != nil {
		t.Fatal(err)
	}
	f.handle(f.orders(bob, "", "STATUS"))
	again := f.deliverAll()
	if len(again) != 2 || !bytes.Equal(again[0].raw, composed) {
		t.Fatalf("%d mails; the composed one first and unchanged: %v", len(again), len(again) > 0 && bytes.Equal(again[0].raw, composed))
	}
	status := again[1].mail
	if !strings.HasSuffix(status.Subject, "(again, for STATUS)") || !strings.Contains(status.Text, first.mail.Text) {
		t.Errorf("STATUS did not send the rendered latest mail again:\n%s\n%s", status.Subject, status.Text)
	}
	blocks, _ := pbem.FindBlocks(status.Text)
	if len(blocks) != 1 || blocks[0].Key != f.keys[bob] {
		t.Errorf("the block sent again carries %+v, not the key", blocks)
	}
}
