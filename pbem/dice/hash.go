package dice

import (
	"crypto/rand"
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"log/slog"
)

// Hash is 32 public bytes, written as 64 lowercase hex digits: a SHA-256
// digest (an entry's hash, a commitment, the hash of an order block) or a
// seed that has been revealed.
type Hash [32]byte

// String returns the lowercase hex form.
func (h Hash) String() string { return hex.EncodeToString(h[:]) }

// IsZero reports whether all bytes are zero.
func (h Hash) IsZero() bool { return h == Hash{} }

// MarshalText returns the lowercase hex form.
func (h Hash) MarshalText() ([]byte, error) { return hexText(h[:]), nil }

// UnmarshalText reads exactly 64 lowercase hex digits.
func (h *Hash) UnmarshalText(b []byte) error { return parseHex(h[:], b, "hash") }

// ParseHash reads exactly 64 lowercase hex digits.
func ParseHash(s string) (Hash, error) {
	var h Hash
	return h, h.UnmarshalText([]byte(s))
}

// Seed is the secret of one batch: 32 bytes from crypto/rand. Until the
// mail reporting its batch reveals it, only its commitment (SHA-256) may
// leave the installation. String, GoString and LogValue print the
// commitment, never the seed, so a stray fmt or slog call does not leak it;
// MarshalText writes the seed itself, in hex, for the store's secret bucket
// only.
type Seed [32]byte

// NewSeed draws a fresh seed from crypto/rand.
func NewSeed() (Seed, error) {
	var s Seed
	if _, err := rand.Read(s[:]); err != nil {
		return s, fmt.Errorf("dice: new seed: %w", err)
	}
	return s, nil
}

// newSeed is NewSeed, replaced by tests that need reproducible games.
var newSeed = NewSeed

// Commitment is SHA-256 of the seed: what a mail publishes before the seed
// is used.
func (s Seed) Commitment() Hash { return sha256.Sum256(s[:]) }

// String hides the seed: it prints "seed(commit <commitment>)".
func (s Seed) String() string { return "seed(commit " + s.Commitment().String() + ")" }

// GoString hides the seed like String.
func (s Seed) GoString() string { return s.String() }

// LogValue hides the seed like String.
func (s Seed) LogValue() slog.Value { return slog.StringValue(s.String()) }

// MarshalText returns the seed in hex. Only the store's secret bucket may
// hold it.
func (s Seed) MarshalText() ([]byte, error) { return hexText(s[:]), nil }

// UnmarshalText reads exactly 64 lowercase hex digits.
func (s *Seed) UnmarshalText(b []byte) error { return parseHex(s[:], b, "seed") }

// Signature is an Ed25519 signature, written as 128 lowercase hex digits.
type Signature [64]byte

// String returns the lowercase hex form.
func (s Signature) String() string { return hex.EncodeToString(s[:]) }

// MarshalText returns the lowercase hex form.
func (s Signature) MarshalText() ([]byte, error) { return hexText(s[:]), nil }

// UnmarshalText reads exactly 128 lowercase hex digits.
func (s *Signature) UnmarshalText(b []byte) error { return parseHex(s[:], b, "signature") }

// PublicKey is the public half of an installation's Ed25519 key, written
// as 64 lowercase hex digits. It is in every game's first mail and in the
// export's header.
type PublicKey [32]byte

// String returns the lowercase hex form.
func (k PublicKey) String() string { return hex.EncodeToString(k[:]) }

// MarshalText returns the lowercase hex form.
func (k PublicKey) MarshalText() ([]byte, error) { return hexText(k[:]), nil }

// UnmarshalText reads exactly 64 lowercase hex digits.
func (k *PublicKey) UnmarshalText(b []byte) error { return parseHex(k[:], b, "public key") }

// ParsePublicKey reads exactly 64 lowercase hex digits.
func ParsePublicKey(s string) (PublicKey, error) {
	var k PublicKey
	return k, k.UnmarshalText([]byte(s))
}

func hexText(b []byte) []byte {
	out := make([]byte, hex.EncodedLen(len(b)))
	hex.Encode(out, b)
	return out
}

// parseHex decodes exactly len(dst) bytes of lowercase hex: the export's
// canonical form admits no other spelling.
func parseHex(dst, src []byte, what string) error {
	if len(src) != 2*len(dst) {
		return fmt.Errorf("dice: %s: want %d hex digits, got %d", what, 2*len(dst), len(src))
	}
	for i, c := range src {
		if !('0' <= c && c <= '9' || 'a' <= c && c <= 'f') {
			return fmt.Errorf("dice: %s: byte %d is %q, not a lowercase hex digit", what, i, c)
		}
	}
	_, err := hex.Decode(dst, src)
	return err
}
