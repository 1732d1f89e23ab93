package games

import (
	"bytes"
	"encoding/base64"
	"image/png"
	"io"
	"mime"
	"mime/multipart"
	"net/mail"
	"regexp"
	"slices"
	"strings"
	"testing"

	"herald/pbem/dice"
)

// strikeFixture is a fixture with a game of the D20 strike system's house
// battle, Mauron 1352 (docs/strike.md).
func strikeFixture(t *testing.T) *fixture {
	t.Helper()
	return newFixtureWith(t, nil, "mauron", PlayerSpec{Side: "French", Address: alice}, PlayerSpec{Side: "English", Address: bob})
}

// playStrike plays the fixture's game by mail to its end, each player's
// blocks chosen by the system (Service.AutoOrders) and written into the
// mail's block as a person would; it returns the mails sent.
func playStrike(t *testing.T, f *fixture) []sent {
	t.Helper()
	players := map[string]*Autoplayer{}
	for _, a := range []string{alice, bob} {
		players[a] = &Autoplayer{Address: a, Orders: f.svc.AutoOrders}
	}
	all, _ := f.playMails(players, 200, 1<<30)
	for _, m := range all {
		if m.mail.Subject == "Your mail could not be processed" || strings.Contains(m.mail.Text, "did not carry out your orders") {
			t.Fatalf("a block the system chose was not applied: %s\n%s", m.mail.Subject, m.mail.Text)
		}
	}
	if !f.summary().Record.Over {
		t.Fatalf("the game did not end: %s", f.summary().Waiting)
	}
	return all
}

// TestStrikeGameByMail plays Mauron by mail to its end until a game has
// drawn a card (a Personality's capture, C. CAPTURING A PERSONALITY):
// every block applied, the table's picture in every result mail, the end
// mailed to both, and the export verifies, in Herald by replaying every
// block through the strike rules with the logged D20s and cards, and in
// the Python verifier; a card changed in the log is caught by both.
func TestStrikeGameByMail(t *testing.T) {
	for game := 1; ; game++ {
		if game > 30 {
			t.Fatal("30 games of Mauron drew no card")
		}
		f := strikeFixture(t)
		mails := playStrike(t, f)
		over, results := 0, 0
		for _, m := range mails {
			switch {
			case strings.Contains(m.mail.Subject, "is over"):
				over++
			case strings.Contains(m.mail.Subject, "Move "):
				results++
				if !hasPNG(t, m.raw) {
					t.Fatalf("game %d: a result mail without the table's picture: %s", game, m.mail.Subject)
				}
			}
		}
		if over != 2 || results == 0 {
			t.Fatalf("game %d: %d end-of-game mails and %d results, want one end to each player", game, over, results)
		}
		rep := f.verifySystem()
		if !rep.Replayed || rep.Blocks == 0 {
			t.Fatalf("game %d: the export was not replayed: %s", game, rep)
		}
		var export bytes.Buffer
		if err := f.svc.Export(f.game, &export); err != nil {
			t.Fatal(err)
		}
		card := regexp.MustCompile(`"faces":54,"value":(\d+)`).FindSubmatchIndex(export.Bytes())
		if card == nil {
			continue
		}
		if py := pythonVerify(t, export.Bytes()); py != "" && !strings.HasPrefix(py, "OK:") {
			t.Errorf("verify-dice.py: %s", py)
		}
		// Another card in the log: a Joker for a King, say.
		v := string(export.Bytes()[card[2]:card[3]])
		other := "53"
		if v == "53" {
			other = "0"
		}
		tampered := slices.Concat(export.Bytes()[:card[2]], []byte(other), export.Bytes()[card[3]:])
		rep, err := dice.Verify(bytes.NewReader(tampered), dice.Options{Replayer: Replayer{}})
		if err == nil {
			t.Fatal("a changed card verifies")
		}
		if py := pythonVerify(t, tampered); py != "" && !strings.HasPrefix(py, "FAILED: "+rep.Failure.Where()) {
			t.Errorf("a changed card: verify-dice.py says %q, herald verify %q", py, rep.Failure.Where())
		}
		t.Logf("game %d drew a card; %s", game, rep.Failure.Where())
		return
	}
}

// hasPNG reports whether a raw mail carries a PNG that decodes.
func hasPNG(t *testing.T, raw []byte) bool {
	t.Helper()
	m, err := mail.ReadMessage(bytes.NewReader(raw))
	if err != nil {
		t.Fatal(err)
	}
	_, params, err := mime.ParseMediaType(m.Header.Get("Content-Type"))
	if err != nil || params["boundary"] == "" {
		return false
	}
	return findPNG(t, multipart.NewReader(m.Body, params["boundary"]))
}

func findPNG(t *testing.T, r *multipart.Reader) bool {
	for {
		p, err := r.NextPart()
		if err != nil {
			return false
		}
		ct, params, _ := mime.ParseMediaType(p.Header.Get("Content-Type"))
		switch {
		case strings.HasPrefix(ct, "multipart/"):
			if findPNG(t, multipart.NewReader(p, params["boundary"])) {
				return true
			}
		case ct == "image/png":
			data, err := io.ReadAll(base64.NewDecoder(base64.StdEncoding, p))
			if err != nil {
				t.Fatal(err)
			}
			if _, err := png.Decode(bytes.NewReader(data)); err == nil {
				return true
			}
		}
	}
}

// TestStrikeRefusalByMail: a strike block the rules refuse is answered
// with the line, the fragment's heading and what would be legal, and
// changes nothing; so is a line the order language does not know.
func TestStrikeRefusalByMail(t *testing.T) {
	f := strikeFixture(t)
	first := f.toAct()
	before := f.snapshot()
	for _, c := range []struct{ line, want string }{
		{"MOVE Kn1 40", "may move at most"},
		{"SHOOT Kn1 AT Lb1", "Kn1"},
		{"DANCE Kn1", "DANCE"},
	} {
		out := f.handle(f.orders(first, "", c.line))
		if out.Status == "applied" {
			t.Fatalf("%q applied", c.line)
		}
		if f.snapshot() != before {
			t.Fatalf("%q changed the game", c.line)
		}
		mails := f.deliverAll()
		if len(mails) != 1 || mails[0].to != first {
			t.Fatalf("%q: %d answers", c.line, len(mails))
		}
		text := mails[0].mail.Text
		if !strings.Contains(text, c.want) || !strings.Contains(text, "line ") {
			t.Errorf("%q: the refusal does not say %q on which line:\n%s", c.line, c.want, text)
		}
		t.Logf("%q refused:\n%s", c.line, text[:min(len(text), 900)])
	}
}
