package pbem

import (
	"crypto/sha256"
	"crypto/subtle"
	"fmt"
	"strings"

	"herald/engine"
	"herald/pbem/store"
)

// Refusal is a clear, specific answer to mail that cannot be applied.
// Code is stable (tests and logs use it): "wrong-sender", "wrong-key",
// "no-key", "stale-move".
type Refusal struct {
	Code    string
	Message string
	Line    *engine.Line // the offending line, if any
	Legal   []string     // what would be legal, when known
}

func (r *Refusal) Error() string { return "pbem: " + r.Code + ": " + r.Message }

// Sender is who may act: a player of a side, or an organizer.
type Sender struct {
	Side      string
	Organizer bool
}

// Authenticate checks a block's sender: From must be the address of a
// player of the game (plus-tags and case ignored) and the block's KEY must
// be that player's key, so that a forged From alone moves nobody's units.
// An organizer's address authenticates as Organizer without a key, for the
// administrative commands the daemon allows them (docs/mail-orders.md).
// The refusal for a stranger does not say who the players are.
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
		return Sender{}, &Refusal{Code: "wrong-sender",
			Message: fmt.Sprintf("%s is not the address of a player of game %s", m.From, b.GameID)}
	}
	if b.Key == "" {
		return Sender{}, &Refusal{Code: "no-key",
			Message: "the block has no KEY line: every block must carry your secret key, as in the blocks Herald mails you"}
	}
	sum := sha256.Sum256([]byte(CanonicalKey(b.Key)))
	if subtle.ConstantTimeCompare(sum[:], player.KeySHA256[:]) != 1 {
		return Sender{}, &Refusal{Code: "wrong-key",
			Message: fmt.Sprintf("wrong key: the KEY line of the block is not the key of the %s in game %s", player.Side, b.GameID)}
	}
	return Sender{Side: player.Side}, nil
}

// CanonicalKey is a key as Herald issues it: upper case, so that a key
// typed in lower case still works. Herald hashes keys in this form.
func CanonicalKey(k string) string { return strings.ToUpper(strings.TrimSpace(k)) }

// CheckMove refuses a block whose move number is not the game's: a stale
// or repeated block never applies twice.
func CheckMove(b Block, gameMove int) *Refusal {
	switch {
	case b.Move == gameMove:
		return nil
	case b.Move < gameMove:
		return &Refusal{Code: "stale-move", Message: fmt.Sprintf(
			"this block answers move %d, which has already been played; the game is at move %d", b.Move, gameMove)}
	}
	return &Refusal{Code: "stale-move", Message: fmt.Sprintf(
		"this block is for move %d, but the game is only at move %d", b.Move, gameMove)}
}
