package games

import (
	"bytes"
	"errors"
	"image/png"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"herald/engine"
	"herald/pbem/store"
)

// TestPublicLogLeavesOutPrivateEvents: a standing order is the English's
// secret (engine.PrivateTo); the public log tells the French block and
// never the standing order, though the store holds its event.
func TestPublicLogLeavesOutPrivateEvents(t *testing.T) {
	f := newFixture(t)
	f.handle(f.orders(alice, "", "STANDING SEIZE NEVER"))
	f.deliverAll()
	if out := f.handle(f.orders(bob, "", "ACTIVATE Doria", "END")); out.Status != "applied" {
		t.Fatalf("the French block: %+v", out)
	}
	private := 0
	err := f.st.View(func(tx *store.Tx) error {
		return tx.Events(f.game, func(_ uint64, raw []byte) error {
			e, err := engine.UnmarshalEvent(raw)
			if _, ok := engine.PrivateTo(e); ok {
				private++
			}
			return err
		})
	})
	if err != nil {
		t.Fatal(err)
	}
	if private == 0 {
		t.Fatal("the store holds no private event: the test proves nothing")
	}
	lines, err := f.svc.PublicLog(f.game)
	if err != nil {
		t.Fatal(err)
	}
	all := strings.Join(lines, "\n")
	if !strings.Contains(all, "Doria") {
		t.Errorf("the public log does not tell the French activation:\n%s", all)
	}
	for _, secret := range []string{"standing order", "SEIZE NEVER"} {
		if strings.Contains(all, secret) {
			t.Errorf("the public log reveals %q:\n%s", secret, all)
		}
	}
	if _, err := f.svc.PublicLog("no-such-game"); err == nil {
		t.Error("PublicLog of an unknown game: no error")
	}
}

// TestPictureOfEverySystem draws the current picture of a Men of Iron
// game and of another system's game, whether or not mails carry maps.
func TestPictureOfEverySystem(t *testing.T) {
	for _, tc := range []struct {
		name string
		f    func(*testing.T) *fixture
	}{
		{"men-of-iron", func(t *testing.T) *fixture { return newFixture(t) }},
		{"disguised", disguisedFixture},
	} {
		t.Run(tc.name, func(t *testing.T) {
			f := tc.f(t)
			f.svc.cfg.Map = nil // the page draws even when mails have no map
			b, err := f.svc.Picture(f.game)
			if err != nil {
				t.Fatal(err)
			}
			img, err := png.Decode(bytes.NewReader(b))
			if err != nil {
				t.Fatalf("not a PNG: %v", err)
			}
			if r := img.Bounds(); r.Dx() < 100 || r.Dy() < 100 {
				t.Errorf("picture of %v: too small", r)
			}
			if _, err := f.svc.Picture("no-such-game"); err == nil {
				t.Error("Picture of an unknown game: no error")
			}
		})
	}
}

// TestPublicLogOfAnotherSystem: another system's log is cut into its
// blocks by the dice log and narrated.
func TestPublicLogOfAnotherSystem(t *testing.T) {
	f := disguisedFixture(t)
	_, applied := f.playMails(map[string]*Autoplayer{alice: {Address: alice}, bob: {Address: bob}}, 20, 4)
	if applied < 4 {
		t.Fatalf("%d blocks applied, want 4", applied)
	}
	lines, err := f.svc.PublicLog(f.game)
	if err != nil {
		t.Fatal(err)
	}
	if len(lines) < applied {
		t.Errorf("%d lines for %d blocks:\n%s", len(lines), applied, strings.Join(lines, "\n"))
	}
}

// Both players' mails of a block carry the same map: composed at the same
// time by the outbox, it is drawn once, and a drawing that failed is tried
// again.
func TestDrawnMapsDrawOnce(t *testing.T) {
	var d drawnMaps
	var draws atomic.Int32
	release := make(chan struct{})
	slow := func() ([]byte, error) { draws.Add(1); <-release; return []byte("png"), nil }
	key := [32]byte{1}
	var wg sync.WaitGroup
	for range 4 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			if pic, err := d.do(key, slow); err != nil || string(pic.png) != "png" || string(pic.lines) != "cG5n\r\n" {
				t.Errorf("do: %q %q, %v", pic.png, pic.lines, err)
			}
		}()
	}
	time.Sleep(20 * time.Millisecond) // let them all ask
	close(release)
	wg.Wait()
	if n := draws.Load(); n != 1 {
		t.Errorf("drawn %d times, want once", n)
	}
	failing := [32]byte{2}
	d.do(failing, func() ([]byte, error) { return nil, errors.New("no ink") })
	if pic, err := d.do(failing, func() ([]byte, error) { return []byte("again"), nil }); err != nil || string(pic.png) != "again" {
		t.Errorf("after a failure: %q, %v", pic.png, err)
	}
}
