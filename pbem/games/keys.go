package games

import (
	"crypto/rand"
	"encoding/base32"
	"encoding/hex"
	"fmt"

	"herald/engine"
	"herald/pbem/store"
)

// A player's key authenticates his orders, and Herald writes it on the
// KEY line of every block it mails him, so that he need only reply. The
// store keeps no key, nor anything from which one alone can be read: the
// game's record holds each key's SHA-256, which is all verification needs,
// and a random salt; Herald derives the key when it writes a block, as
//
//	HMAC-SHA256(installation secret, "player-key", game id, side, salt)
//
// cut to 80 bits and written as four groups of four base32 characters
// (secret.go, mac). Whoever holds the installation secret (like the dice
// signing key, in the store's meta bucket) can derive every key, as he
// could read them before; a copy of a game's record, an export or a log
// shows none (docs/mail-orders.md, "Keys and senders").

// newKeySalt is a game's key salt: 128 random bits, in hex.
func newKeySalt() (string, error) {
	var b [16]byte
	if _, err := rand.Read(b[:]); err != nil {
		return "", err
	}
	return hex.EncodeToString(b[:]), nil
}

// playerKey is the key of the player of side in game rec.
func (s *Service) playerKey(rec *store.Game, side string) string {
	return formatKey(s.mac("player-key", rec.ID, side, rec.KeySalt)[:10])
}

// formatKey writes 80 bits as a player copies and types them:
// "ABCD-EFGH-IJKL-MNOP".
func formatKey(b []byte) string {
	k := base32.StdEncoding.EncodeToString(b)
	return k[0:4] + "-" + k[4:8] + "-" + k[8:12] + "-" + k[12:16]
}

// legacyKey names where a game created before KeySalt keeps a side's key.
func legacyKey(side engine.Side) string { return fmt.Sprintf("key%d", side) }

// loadKeys gives a loaded game its players' keys: derived, or for an older
// game read from its secrets.
func (s *Service) loadKeys(tx *store.Tx, g *game) error {
	for i := range g.keys {
		side := engine.Side(i)
		if g.rec.KeySalt != "" {
			g.keys[side] = s.playerKey(g.rec, g.sideName(side))
			continue
		}
		k, err := tx.Secret(g.rec.ID, legacyKey(side))
		if err != nil {
			return err
		}
		g.keys[side] = string(k)
	}
	return nil
}
