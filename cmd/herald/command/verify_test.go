package command

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"herald/data"
	"herald/engine"
	"herald/pbem/dice"
	"herald/pbem/games"
)

// recordGame plays legal orders on the sample battle with the verifiable
// dice, as the daemon records a game, and returns the export.
func recordGame(t *testing.T, blocks int) []byte {
	t.Helper()
	sc, err := data.Scenario("crecy")
	if err != nil {
		t.Fatal(err)
	}
	key, err := dice.GenerateKey()
	if err != nil {
		t.Fatal(err)
	}
	h, up, err := dice.NewGame(key, "crecy-test", "crecy", []string{sc.Sides[0].Name, sc.Sides[1].Name})
	if err != nil {
		t.Fatal(err)
	}
	entries, chain, seed := up.Entries, up.Chain, up.Next
	st := engine.NewState(sc)
	for i := 0; i < blocks && st.Outcome == nil; i++ {
		var legal []string // the complete orders, not the forms with a blank (MOVE <unit> <hexes>)
		for _, l := range engine.Legal(sc, st) {
			if !strings.Contains(l, "<") {
				legal = append(legal, l)
			}
		}
		orders, err := engine.ParseOrders([]engine.Line{{No: 1, Text: legal[i%len(legal)]}})
		if err != nil {
			t.Fatal(err)
		}
		side := st.Pending.Side
		b, err := dice.Begin(chain, seed, sc.SideName(side), uint64(st.Move+1), engine.CanonicalBlock(orders))
		if err != nil {
			t.Fatal(err)
		}
		res, err := engine.Apply(sc, st, side, orders, b)
		if err != nil {
			t.Fatalf("block %d %v: %v", i, orders, err)
		}
		d, err := games.Digests(res)
		if err != nil {
			t.Fatal(err)
		}
		up, err := b.Close(key, d.EventsSHA256, d.StateSHA256)
		if err != nil {
			t.Fatal(err)
		}
		entries, chain, seed, st = append(entries, up.Entries...), up.Chain, up.Next, res.State
	}
	var buf bytes.Buffer
	if err := dice.WriteExport(&buf, h, entries); err != nil {
		t.Fatal(err)
	}
	return buf.Bytes()
}

func runVerifyOn(t *testing.T, export []byte) (int, string) {
	t.Helper()
	file := filepath.Join(t.TempDir(), "game.jsonl")
	if err := os.WriteFile(file, export, 0o600); err != nil {
		t.Fatal(err)
	}
	var out, errb bytes.Buffer
	code := Main([]string{"verify", file}, strings.NewReader(""), &out, &errb)
	return code, out.String() + errb.String()
}

// An untampered game verifies, including the replay through the engine;
// changing an order block's text (and re-hashing nothing) fails, naming the
// entry.
func TestVerifyRecordedGame(t *testing.T) {
	export := recordGame(t, 60)
	if code, out := runVerifyOn(t, export); code != 0 {
		t.Fatalf("verify exit %d:\n%s", code, out)
	}
	tampered := bytes.Replace(export, []byte(`ACTIVATE Doria`), []byte(`ACTIVATE Dorio`), 1)
	if bytes.Equal(tampered, export) {
		t.Fatal("the first block is not ACTIVATE Doria")
	}
	code, out := runVerifyOn(t, tampered)
	if code != 1 || !strings.Contains(out, "FAILED: dice: entry") {
		t.Errorf("tampered export: exit %d, want 1 naming the entry:\n%s", code, out)
	}
}
