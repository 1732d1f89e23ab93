package games

import (
	"crypto/hmac"
	"crypto/rand"
	"crypto/sha256"
	"fmt"

	"herald/pbem/store"
)

// metaSecret names the installation secret in the store's meta bucket.
const metaSecret = "installation-secret"

// installationSecret loads the 32 random bytes from which Herald derives
// what it must recognise again without storing it per game or per mail
// (HMAC-SHA256 with a label per use, mac): each player's key, and the
// tag that proves a notice's Message-ID was Herald's own, to the address
// a bounce names. It is made on first use and, like the dice signing
// key, never leaves the store: exports never carry it.
func installationSecret(st *store.Store) ([]byte, error) {
	var secret []byte
	err := st.Update(func(tx *store.Tx) error {
		if secret = tx.Meta(metaSecret); secret != nil {
			if len(secret) != 32 {
				return fmt.Errorf("%d bytes, want 32", len(secret))
			}
			return nil
		}
		secret = make([]byte, 32)
		if _, err := rand.Read(secret); err != nil {
			return err
		}
		return tx.PutMeta(metaSecret, secret)
	})
	if err != nil {
		return nil, fmt.Errorf("games: installation secret: %w", err)
	}
	return secret, nil
}

// mac is HMAC-SHA256 of the installation secret over a label naming its
// use and the parts, each length-prefixed so that no two part lists meet.
func (s *Service) mac(label string, parts ...string) []byte {
	h := hmac.New(sha256.New, s.secret)
	fmt.Fprintf(h, "%d:%s", len(label), label)
	for _, p := range parts {
		fmt.Fprintf(h, "%d:%s", len(p), p)
	}
	return h.Sum(nil)
}
