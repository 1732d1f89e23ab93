package pbem

import (
	"crypto/sha256"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"herald/pbem/store"
)

func TestRoutePrecedence(t *testing.T) {
	self := []string{"Herald@Club.example"}
	block := []Block{{GameID: "crecy-b10c"}}
	for _, tc := range []struct {
		name    string
		to      []string
		subject string
		blocks  []Block
		id, via string
	}{
		{"address wins", []string{"herald+crecy-addr@club.example"}, "[crecy-subj]", block, "crecy-addr", "address"},
		{"tag of someone else's address is ignored", []string{"alice+crecy-x@club.example"}, "", block, "crecy-b10c", "block"},
		{"block before subject", []string{"herald@club.example"}, "Re: [crecy-subj] Move 3", block, "crecy-b10c", "block"},
		{"subject last", []string{"herald@club.example"}, "Re: [Crecy-Subj] Move 3", nil, "crecy-subj", "subject"},
		{"nothing", []string{"herald@club.example"}, "hello", nil, "", ""},
	} {
		m := &Mail{To: tc.to, Subject: tc.subject}
		if id, via := Route(m, tc.blocks, self); id != tc.id || via != tc.via {
			t.Errorf("%s: got %q by %q, want %q by %q", tc.name, id, via, tc.id, tc.via)
		}
	}
}

func TestAuthenticate(t *testing.T) {
	key := "K7Q2-M9XD-4RTA-WX3B"
	players := []store.Player{
		{Side: "English", Address: "alice@example.org", KeySHA256: sha256.Sum256([]byte(key))},
		{Side: "French", Address: "bruno@example.fr", KeySHA256: sha256.Sum256([]byte("P3VW-8HJN-2CQE-7YTB"))},
	}
	for _, tc := range []struct {
		name, from, key string
		side, code      string
		organizer       bool
	}{
		{"player with his key", "alice@example.org", key, "English", "", false},
		{"key typed in lower case", "alice@example.org", strings.ToLower(key), "English", "", false},
		{"upper-case domain and plus-tag", "Alice+pbem@EXAMPLE.org", key, "English", "", false},
		{"forged From with the right key", "mallory@evil.example", key, "", "wrong-sender", false},
		{"player with his opponent's key", "bruno@example.fr", key, "", "wrong-key", false},
		{"player without key", "alice@example.org", "", "", "no-key", false},
		{"organizer", "ladder@club.example", "", "", "", true},
	} {
		m := &Mail{From: NormalizeAddress(tc.from)}
		who, r := Authenticate(m, Block{GameID: "crecy-4f2a", Key: tc.key}, players, []string{"Ladder@club.example"})
		code := ""
		if r != nil {
			code = r.Code
		}
		if code != tc.code || who.Side != tc.side || who.Organizer != tc.organizer {
			t.Errorf("%s: got %+v, %q; want side %q, code %q", tc.name, who, code, tc.side, tc.code)
		}
		if r != nil && strings.Contains(r.Message, "alice@") {
			t.Errorf("%s: the refusal names a player: %s", tc.name, r.Message)
		}
	}
}

func TestCheckMove(t *testing.T) {
	if r := CheckMove(Block{Move: 17}, 17); r != nil {
		t.Errorf("current move refused: %v", r)
	}
	for _, move := range []int{16, 18} {
		r := CheckMove(Block{Move: move}, 17)
		if r == nil || r.Code != "stale-move" || !strings.Contains(r.Message, "17") {
			t.Errorf("move %d at 17: %v", move, r)
		}
	}
}

func TestLimiter(t *testing.T) {
	l := NewLimiter(3)
	now := time.Date(2026, 3, 3, 18, 0, 0, 0, time.UTC)
	for i := 0; i < 3; i++ {
		if ok, _ := l.Allow("alice@example.org", now); !ok {
			t.Fatalf("mail %d refused", i+1)
		}
	}
	if ok, notify := l.Allow("Alice+x@example.org", now); ok || !notify {
		t.Errorf("fourth mail: ok %v notify %v, want refused with one notice", ok, notify)
	}
	if ok, notify := l.Allow("alice@example.org", now.Add(time.Minute)); ok || notify {
		t.Errorf("fifth mail: ok %v notify %v, want refused silently", ok, notify)
	}
	if ok, _ := l.Allow("bruno@example.fr", now); !ok {
		t.Error("another sender is limited too")
	}
	if ok, _ := l.Allow("alice@example.org", now.Add(61*time.Minute)); !ok {
		t.Error("still refused after an hour")
	}
	for i := 0; i < MaxFailures; i++ {
		l.Fail("mallory@evil.example", now)
	}
	if ok, notify := l.Allow("mallory@evil.example", now); ok || !notify {
		t.Errorf("after %d failed keys: ok %v notify %v", MaxFailures, ok, notify)
	}
}

func TestTooLarge(t *testing.T) {
	raw, err := os.ReadFile(filepath.Join("testdata", "mail", "attachment.eml"))
	if err != nil {
		t.Fatal(err)
	}
	_, err = ReadMail(raw, ReadOptions{MaxBytes: 200})
	me, ok := err.(*MailError)
	if !ok || !me.TooLarge || me.Mail == nil || me.Mail.From != "alice@example.org" || !strings.Contains(me.Reason, "up to 200 bytes") {
		t.Fatalf("got %#v", err)
	}
}

func TestCommands(t *testing.T) {
	for text, want := range map[string]Command{
		"CHECK\nACTIVATE Godfrey":     CommandCheck,
		"# first a comment\n\nstatus": CommandStatus,
		"Resign":                      CommandResign,
		"RESIGN CONFIRM 7f3a9c":       CommandConfirmResign,
		"ACTIVATE Godfrey\nCHECK":     CommandOrders,
	} {
		blocks, _ := FindBlocks("--- herald orders: g move 1 ---\nKEY K\n" + text + "\n--- end orders ---\n")
		if len(blocks) != 1 || blocks[0].Command != want {
			t.Errorf("%q: got %+v, want %v", text, blocks, want)
		}
	}
}

func TestMarkersAreTolerant(t *testing.T) {
	text := "  ---  Herald Orders:  CRECY-4F2A  Move 17  ---  \nkey: abc\nEND\n----- END ORDERS -----\n"
	blocks, problems := FindBlocks(text)
	if len(problems) != 0 || len(blocks) != 1 || blocks[0].GameID != "crecy-4f2a" || blocks[0].Move != 17 || blocks[0].Key != "abc" {
		t.Errorf("got %+v %+v", blocks, problems)
	}
}
