package games

import (
	"fmt"
	"io"
	"log/slog"
	"path/filepath"
	"testing"
	"time"

	"herald/engine"
	"herald/mapimg"
	"herald/pbem/mailbox"
	"herald/pbem/store"
)

// storeGrowth plays games of Crécy by scripted players, every mail with
// maps of a real map's size, delivering each reply as it goes, until
// mails order mails were applied, and returns the store's growth (its
// pages, Store.Size) per applied mail.
func storeGrowth(t *testing.T, mails int) (perMail float64, applied int) {
	t.Helper()
	svc, st, _ := pictureService(t)
	clock := epoch
	f := &fixture{t: t, svc: svc, st: st, keys: map[string]string{}, clock: clock}
	players := map[string]*Autoplayer{alice: {Address: alice}, bob: {Address: bob}}
	start := int64(-1)
	for game := 1; applied < mails; game++ {
		g, err := svc.CreateGame(crecyGame(fmt.Sprintf("crecy-growth%d", game)))
		if err != nil {
			t.Fatal(err)
		}
		f.game = g.ID
		for applied < mails {
			replies := 0
			for _, m := range f.deliverAll() {
				if start < 0 {
					start = storeSize(t, st) // after the first welcomes went out
				}
				reply, err := players[m.to].Reply(m.raw)
				if err != nil || reply == nil {
					continue
				}
				raw, err := mailbox.Compose(*reply)
				if err != nil {
					t.Fatal(err)
				}
				if out := f.handle(raw); out.Status == "applied" {
					applied++
				}
				replies++
			}
			if replies == 0 {
				break // the battle is over
			}
		}
	}
	f.deliverAll()
	return float64(storeSize(t, st)-start) / float64(applied), applied
}

// pictureService is a service on a store file of its own whose every map
// is the bytes of a real one, drawn once: the growth tests count bytes.
func pictureService(t *testing.T) (*Service, *store.Store, string) {
	t.Helper()
	sc, st0 := crecyOpening(t)
	picture, err := mapimg.PNG(sc, st0, mapimg.ForMail(nil))
	if err != nil {
		t.Fatal(err)
	}
	path := filepath.Join(t.TempDir(), "herald.db")
	st, err := store.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { st.Close() })
	svc, err := New(Config{Store: st, Address: heraldAddr, Now: func() time.Time { return epoch },
		Logger: slog.New(slog.NewTextHandler(io.Discard, nil)),
		Map: func(*engine.Scenario, *engine.State, *engine.State, []engine.Event) ([]byte, error) {
			return picture, nil
		},
		ArmyMap: func(*engine.Scenario, *engine.State, engine.Side) ([]byte, error) { return picture, nil }})
	if err != nil {
		t.Fatal(err)
	}
	return svc, st, path
}

// storeSize is the bytes the store's pages take: not the file's size,
// which bbolt doubles ahead of need (to 16 MiB), so that growths measured
// by it came in steps of powers of two.
func storeSize(t *testing.T, st *store.Store) int64 {
	t.Helper()
	n, err := st.Size()
	if err != nil {
		t.Fatal(err)
	}
	return n
}

func crecyOpening(t *testing.T) (*engine.Scenario, *engine.State) {
	t.Helper()
	f := newFixture(t)
	g, err := f.svc.Summary(f.game)
	if err != nil {
		t.Fatal(err)
	}
	var sc *engine.Scenario
	var st *engine.State
	if err := f.st.View(func(tx *store.Tx) error {
		lg, err := f.svc.load(tx, g.ID)
		if err != nil {
			return err
		}
		sc, st = lg.sc, lg.st
		return nil
	}); err != nil {
		t.Fatal(err)
	}
	return sc, st
}

// Issue 17: the store grows by what a game must keep (events, state,
// dice log, the mails kept for STATUS without their pictures), not by the
// maps and mails it sent: a 300-mail game with maps on grows the store
// file by at most 8 kB per applied mail (docs/performance.md).
func TestStoreGrowthPerMail(t *testing.T) {
	if testing.Short() || raceBuild {
		t.Skip("plays 300 mails: run without -short and -race (.ci/run does)")
	}
	perMail, applied := storeGrowth(t, 300)
	t.Logf("%d mails applied: the store grew by %.0f bytes per mail", applied, perMail)
	if perMail > 8<<10 {
		t.Errorf("the store grew by %.0f bytes per applied mail, budget 8192", perMail)
	}
}

// Issue 17: a fresh game, welcomes sent with their maps, grows the store
// by what the game keeps, not by copies of its welcomes (rebuilt for
// STATUS), and the games share the store's pages: at most 8 kB, issue
// 17's budget (docs/performance.md).
func TestStoreGrowthPerGame(t *testing.T) {
	if testing.Short() || raceBuild {
		t.Skip("makes 300 games: run without -short and -race (.ci/run does)")
	}
	svc, st, _ := pictureService(t)
	f := &fixture{t: t, svc: svc, st: st, clock: epoch}
	const games = 300
	var start int64
	for i := range games + 1 {
		if _, err := svc.CreateGame(crecyGame(fmt.Sprintf("crecy-fresh%d", i))); err != nil {
			t.Fatal(err)
		}
		f.deliverAll()
		if i == 0 {
			start = storeSize(t, st) // the store's own first pages apart
		}
	}
	perGame := float64(storeSize(t, st)-start) / games
	t.Logf("%d fresh games: the store grew by %.0f bytes per game", games, perGame)
	if perGame > 8<<10 {
		t.Errorf("the store grew by %.0f bytes per fresh game, budget 8192", perGame)
	}
}
