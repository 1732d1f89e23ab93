package pbem

import (
	"crypto/sha256"
	"strconv"
	"strings"
	"testing"

	"herald/pbem/store"
)

func TestAuthenticate(t *testing.T) {
	key := "K7Q2-M9XD-4RTA-WX3B"
	players := []store.Player{
		{Side: "English", Address: "alice@example.org", KeySHA256: sha256.Sum256([]byte(key))},
		{Side: "French", Address: "Bruno@Example.FR", KeySHA256: sha256.Sum256([]byte("P3VW-8HJN-2CQE-7YTB"))},
	}
	for _, tc := range []struct {
		name, from, key string
		side, code      string
		organizer       bool
	}{
		{"player with his key", "alice@example.org", key, "English", "", false},
		{"key typed in lower case, with spaces", "alice@example.org", " " + strings.ToLower(key), "English", "", false},
		{"plus-tagged From", "alice+pbem@example.org", key, "English", "", false},
		{"upper-case domain and display name", "Alice <ALICE@EXAMPLE.ORG>", key, "English", "", false},
		{"registered in mixed case", "bruno@example.fr", "P3VW-8HJN-2CQE-7YTB", "French", "", false},
		{"forged From with the right key", "mallory@evil.example", key, "", CodeWrongSender, false},
		{"right From, wrong key", "alice@example.org", "K7Q2-M9XD-4RTA-WX3C", "", CodeWrongKey, false},
		{"player with his opponent's key", "bruno@example.fr", key, "", CodeWrongKey, false},
		{"player without key", "alice@example.org", "", "", CodeNoKey, false},
		{"organizer without key", "Ladder+x@Club.example", "", "", "", true},
		{"organizer who plays is a player", "alice@example.org", "", "", CodeNoKey, false},
	} {
		m := &Mail{From: NormalizeAddress(tc.from)}
		who, r := Authenticate(m, Block{GameID: "crecy-4f2a", Key: tc.key}, players, []string{"ladder@club.example", "Alice@example.org"})
		code := ""
		if r != nil {
			code = r.Code
		}
		if code != tc.code || who.Side != tc.side || who.Organizer != tc.organizer {
			t.Errorf("%s: got %+v, %q; want side %q, code %q", tc.name, who, code, tc.side, tc.code)
		}
		if r == nil {
			continue
		}
		// A refusal never tells who plays: no player's address or side.
		for _, secret := range []string{"alice@", "bruno@", "English", "French"} {
			if strings.Contains(r.Message, secret) {
				t.Errorf("%s: the refusal reveals %q: %s", tc.name, secret, r.Message)
			}
		}
	}
}

func TestCheckMove(t *testing.T) {
	if r := CheckMove(Block{Move: 17}, 17); r != nil {
		t.Errorf("current move refused: %v", r)
	}
	for move, says := range map[int]string{16: "has already been played", 18: "no move 18 yet"} {
		r := CheckMove(Block{Move: move}, 17)
		if r == nil || r.Code != CodeStaleMove {
			t.Fatalf("move %d at 17: %v", move, r)
		}
		for _, want := range []string{"this block is for move " + strconv.Itoa(move), "the game is at move 17", says, "reply to Herald's latest mail"} {
			if !strings.Contains(r.Message, want) {
				t.Errorf("move %d at 17: %q does not say %q", move, r.Message, want)
			}
		}
	}
}
