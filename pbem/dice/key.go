package dice

import (
	"crypto/ed25519"
	"crypto/rand"
	"crypto/x509"
	"encoding/pem"
	"errors"
	"fmt"
)

// Key is an installation's Ed25519 signing key. It signs every checkpoint
// of every game the installation runs; its public half is in each game's
// first mail and export header.
//
// The key is stored as PKCS#8 PEM ("PRIVATE KEY"), the form openssl reads
// (openssl pkey -in key.pem -pubout); reading and writing the file is the
// caller's business.
type Key struct {
	priv ed25519.PrivateKey
}

// GenerateKey makes a new installation key from crypto/rand.
func GenerateKey() (*Key, error) {
	_, priv, err := ed25519.GenerateKey(rand.Reader)
	if err != nil {
		return nil, fmt.Errorf("dice: generate key: %w", err)
	}
	return &Key{priv: priv}, nil
}

// KeyFromSeed returns the key whose RFC 8032 private seed is seed (32
// bytes). Tests and the worked example in docs/dice.md use it; an
// installation uses GenerateKey.
func KeyFromSeed(seed []byte) (*Key, error) {
	if len(seed) != ed25519.SeedSize {
		return nil, fmt.Errorf("dice: key seed is %d bytes, want %d", len(seed), ed25519.SeedSize)
	}
	return &Key{priv: ed25519.NewKeyFromSeed(seed)}, nil
}

// ParseKey reads a key written by MarshalPEM (PKCS#8 PEM holding an Ed25519
// key).
func ParseKey(b []byte) (*Key, error) {
	blk, _ := pem.Decode(b)
	if blk == nil {
		return nil, errors.New("dice: key: no PEM block found")
	}
	if blk.Type != "PRIVATE KEY" {
		return nil, fmt.Errorf("dice: key: PEM block is %q, want \"PRIVATE KEY\" (PKCS#8)", blk.Type)
	}
	k, err := x509.ParsePKCS8PrivateKey(blk.Bytes)
	if err != nil {
		return nil, fmt.Errorf("dice: key: %w", err)
	}
	priv, ok := k.(ed25519.PrivateKey)
	if !ok {
		return nil, fmt.Errorf("dice: key: a %T, want an Ed25519 key", k)
	}
	return &Key{priv: priv}, nil
}

// MarshalPEM returns the key as PKCS#8 PEM. The result is a secret: write
// it to a file only its owner can read.
func (k *Key) MarshalPEM() ([]byte, error) {
	der, err := x509.MarshalPKCS8PrivateKey(k.priv)
	if err != nil {
		return nil, fmt.Errorf("dice: key: %w", err)
	}
	return pem.EncodeToMemory(&pem.Block{Type: "PRIVATE KEY", Bytes: der}), nil
}

// Public returns the public half.
func (k *Key) Public() PublicKey {
	var p PublicKey
	copy(p[:], k.priv.Public().(ed25519.PublicKey))
	return p
}

// sign signs a checkpoint: (game, length, head), laid out by HeadMessage.
func (k *Key) sign(game string, length uint64, head Hash) Signature {
	var s Signature
	copy(s[:], ed25519.Sign(k.priv, HeadMessage(game, length, head)))
	return s
}

// VerifyCheckpoint reports whether sig is pub's signature of the
// checkpoint (game, length, head).
func VerifyCheckpoint(pub PublicKey, game string, length uint64, head Hash, sig Signature) bool {
	return ed25519.Verify(pub[:], HeadMessage(game, length, head), sig[:])
}
