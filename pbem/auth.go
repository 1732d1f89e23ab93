package pbem

import (
	"crypto/sha256"
	"crypto/subtle"
	"fmt"
	"strings"

	"herald/pbem/store"
)

// Sender is who may act in a game: the player of a side, or an organizer.
type Sender struct {
	Side      string
	Organizer bool
}

// Authenticate checks a block's sender: From must be the address of a
// player of the game (plus-tags and case ignored) and the block's KEY must
// hash (SHA-256, compared in constant time) to that player's KeySHA256, so
// that a forged From alone moves nobody's units. An organizer's address
// that is no player's authenticates as Organizer without a key; the daemon
// lets organizers send STATUS only (docs/mail-orders.md).
//
// The refusals: "wrong-sender" (it says only that the address is no
// player of the game, never who the players are), "no-key", "wrong-key".
func Authenticate(m *Mail, b Block, players []store.Player, organizers []string) (Sender, *Refusal) {
	var player *store.Player
	for i := range players {
		if sameMailbox(m.From, players[i].Address) {
			player = &players[i]
			break
		}
	}
	if player == nil {
		for _, o := range organizers {
			if sameMailbox(m.From, o) {
				return Sender{Organizer: true}, nil
			}
		}
		return Sender{}, &Refusal{Code: CodeWrongSender,
			Message: fmt.Sprintf("%s is not the address of a player of game %s", m.From, b.GameID)}
	}
	if b.Key == "" {
		return Sender{}, &Refusal{Code: CodeNoKey,
			Message: "the block has no KEY line: every block must carry your secret key, as in the blocks Herald mails you"}
	}
	sum := sha256.Sum256([]byte(CanonicalKey(b.Key)))
	if subtle.ConstantTimeCompare(sum[:], player.KeySHA256[:]) != 1 {
		return Sender{}, &Refusal{Code: CodeWrongKey,
			Message: fmt.Sprintf("wrong key: the KEY line of the block is not your key for game %s", b.GameID)}
	}
	return Sender{Side: player.Side}, nil
}

// CanonicalKey is a key as Herald issues and hashes it: trimmed and in
// upper case, so that a key typed in lower case still works.
func CanonicalKey(k string) string { return strings.ToUpper(strings.TrimSpace(k)) }

// CheckMove refuses ("stale-move") a block whose move number is not the
// game's, naming both, so that a stale or repeated block never applies
// twice.
func CheckMove(b Block, gameMove int) *Refusal {
	if b.Move == gameMove {
		return nil
	}
	why := "move %[1]d has already been played"
	if b.Move > gameMove {
		why = "there is no move %[1]d yet"
	}
	return &Refusal{Code: CodeStaleMove, Message: fmt.Sprintf(
		"this block is for move %d; the game is at move %d ("+why+") — reply to Herald's latest mail, whose block carries the current move",
		b.Move, gameMove)}
}
