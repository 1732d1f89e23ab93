package dice

import (
	"crypto/hmac"
	"crypto/sha256"
	"encoding/binary"
	"fmt"
	"hash"
)

// The byte layouts below are specified in docs/dice.md ("Byte formats");
// keep the two in step (TestWorkedExample checks the document's numbers).

// Domain tags: the first field of every message, so that a signature or a
// MAC made for one purpose can never be taken for another.
const (
	rollDomain   = "herald/dice/roll/v1"
	rollDomainV2 = "herald/dice/roll/v2"
	// rollDomainN tags the message of a version 2 roll of a die that is
	// not a d10 (RollMessageN): its own domain, and the faces in the
	// message, so that a roll logged with other faces never reproduces.
	rollDomainN = "herald/dice/roll/v2/faces"
	headDomain  = "herald/dice/head/v1"
)

// appendU64 appends v as 8 bytes, big-endian.
func appendU64(b []byte, v uint64) []byte { return binary.BigEndian.AppendUint64(b, v) }

// appendField appends a field: its length in bytes as a u64, then the bytes.
func appendField(b []byte, f string) []byte { return append(appendU64(b, uint64(len(f))), f...) }

func appendFieldBytes(b, f []byte) []byte { return append(appendU64(b, uint64(len(f))), f...) }

// RollMessage is the message whose HMAC decides a roll:
//
//	field("herald/dice/roll/v1") field(game) u64(batch) u64(index)
//	field(purpose) field(ordersSHA256) u64(attempt)
//
// where u64 is 8 bytes big-endian and field(x) is u64(len(x)) followed by
// the bytes of x (strings as UTF-8).
func RollMessage(game string, batch, index uint64, purpose string, ordersSHA256 Hash, attempt uint64) []byte {
	b := make([]byte, 0, 8*7+len(rollDomain)+len(game)+len(purpose)+32)
	return rollMessage(b, game, batch, index, purpose, ordersSHA256, attempt)
}

func rollMessage(b []byte, game string, batch, index uint64, purpose string, ordersSHA256 Hash, attempt uint64) []byte {
	b = appendField(b, rollDomain)
	b = appendField(b, game)
	b = appendU64(b, batch)
	b = appendU64(b, index)
	b = appendField(b, purpose)
	b = appendFieldBytes(b, ordersSHA256[:])
	return appendU64(b, attempt)
}

// RollMessageV2 is the message whose HMAC decides a roll in a game of
// format version 2:
//
//	field("herald/dice/roll/v2") field(game) u64(batch) u64(index)
//	field(purpose) field(blockSHA256) u64(after.Length) field(after.Head)
//	u64(attempt)
//
// blockSHA256 is the SHA-256 of the sender's own block (SenderBlock of the
// batch's order text), not of the standing orders queued before it, and
// after is the checkpoint the batch follows: the one signed by the seal
// before its block, shown in the mail the sender answered. So a roll
// depends on nothing but the committed seed, the history both players saw,
// and what the sender wrote; nobody can add anything later that changes it.
func RollMessageV2(game string, batch, index uint64, purpose string, blockSHA256 Hash, after Checkpoint, attempt uint64) []byte {
	return rollMessageV2(nil, game, batch, index, purpose, blockSHA256, after, attempt)
}

func rollMessageV2(b []byte, game string, batch, index uint64, purpose string, blockSHA256 Hash, after Checkpoint, attempt uint64) []byte {
	b = rollFieldsV2(b, rollDomainV2, game, batch, index, purpose, blockSHA256, after)
	return appendU64(b, attempt)
}

// rollFieldsV2 are the fields of a version 2 roll's message under its
// domain tag, before what ends it (the faces of RollMessageN, the
// attempt).
func rollFieldsV2(b []byte, domain, game string, batch, index uint64, purpose string, blockSHA256 Hash, after Checkpoint) []byte {
	b = appendField(b, domain)
	b = appendField(b, game)
	b = appendU64(b, batch)
	b = appendU64(b, index)
	b = appendField(b, purpose)
	b = appendFieldBytes(b, blockSHA256[:])
	b = appendU64(b, after.Length)
	return appendFieldBytes(b, after.Head[:])
}

// The faces a die may have (Batch.RollN): a value is picked from one byte
// of a MAC. A d10 (10 faces) is the die Men of Iron rolls; the strike
// system rolls a D20 (20) and draws cards from a 54-card deck (54).
const (
	MinFaces = 2
	MaxFaces = 256
	d10      = 10
)

// RollMessageN is the message whose HMAC decides a version 2 roll of a
// die of faces faces other than 10 (a d10's is RollMessageV2):
//
//	field("herald/dice/roll/v2/faces") field(game) u64(batch) u64(index)
//	field(purpose) field(blockSHA256) u64(after.Length) field(after.Head)
//	u64(faces) u64(attempt)
//
// the fields of RollMessageV2 under their own domain tag, with the faces
// before the attempt.
func RollMessageN(game string, batch, index uint64, purpose string, blockSHA256 Hash, after Checkpoint, faces int, attempt uint64) []byte {
	return rollMessageN(nil, game, batch, index, purpose, blockSHA256, after, faces, attempt)
}

func rollMessageN(b []byte, game string, batch, index uint64, purpose string, blockSHA256 Hash, after Checkpoint, faces int, attempt uint64) []byte {
	b = rollFieldsV2(b, rollDomainN, game, batch, index, purpose, blockSHA256, after)
	b = appendU64(b, uint64(faces))
	return appendU64(b, attempt)
}

// checkFaces refuses a die the log cannot roll.
func checkFaces(faces int) error {
	if faces < MinFaces || faces > MaxFaces {
		return fmt.Errorf("a die of %d faces: a die has %d to %d", faces, MinFaces, MaxFaces)
	}
	return nil
}

// Derive computes a roll of format version 1: mac = HMAC-SHA256(key =
// seed, RollMessage(…, attempt)); the value is the first byte of mac below
// 250, modulo 10. 250 is the largest multiple of 10 a byte holds, so every
// face is equally likely (rejection sampling, no modulo bias). If all 32
// bytes are 250 or more (probability about 10^-52) the next attempt is
// tried.
func Derive(seed [32]byte, game string, batch, index uint64, purpose string, ordersSHA256 Hash) int {
	return newDeriver(seed).derive(game, batch, index, purpose, ordersSHA256)
}

// DeriveV2 computes a roll of format version 2, from RollMessageV2 as
// Derive does from RollMessage.
func DeriveV2(seed [32]byte, game string, batch, index uint64, purpose string, blockSHA256 Hash, after Checkpoint) int {
	return newDeriver(seed).deriveV2(game, batch, index, purpose, blockSHA256, after)
}

// DeriveN computes a version 2 roll of a die of faces faces, a number
// from 0 to faces−1. A d10 (faces 10) is exactly DeriveV2. Any other die
// takes its MAC from RollMessageN and its value from the first byte of the
// MAC below the largest multiple of faces a byte holds, 256 − 256 mod
// faces, modulo faces (rejection sampling, as a d10's below 250); if all
// 32 bytes are too high, the next attempt is tried.
func DeriveN(seed [32]byte, game string, batch, index uint64, purpose string, blockSHA256 Hash, after Checkpoint, faces int) (int, error) {
	if err := checkFaces(faces); err != nil {
		return 0, fmt.Errorf("dice: %w", err)
	}
	return newDeriver(seed).deriveN(game, batch, index, purpose, blockSHA256, after, faces), nil
}

// deriver keeps one HMAC state per seed so a batch's rolls reuse it.
type deriver struct {
	mac hash.Hash
	buf []byte
	sum []byte
}

func newDeriver(seed [32]byte) *deriver {
	return &deriver{mac: hmac.New(sha256.New, seed[:])}
}

func (d *deriver) derive(game string, batch, index uint64, purpose string, ordersSHA256 Hash) int {
	return d.first(d10, func(b []byte, attempt uint64) []byte {
		return rollMessage(b, game, batch, index, purpose, ordersSHA256, attempt)
	})
}

func (d *deriver) deriveV2(game string, batch, index uint64, purpose string, blockSHA256 Hash, after Checkpoint) int {
	return d.first(d10, func(b []byte, attempt uint64) []byte {
		return rollMessageV2(b, game, batch, index, purpose, blockSHA256, after, attempt)
	})
}

// deriveN is a version 2 roll of a die of faces faces (checked by the
// caller): a d10's by deriveV2, any other's from RollMessageN.
func (d *deriver) deriveN(game string, batch, index uint64, purpose string, blockSHA256 Hash, after Checkpoint, faces int) int {
	if faces == d10 {
		return d.deriveV2(game, batch, index, purpose, blockSHA256, after)
	}
	return d.first(faces, func(b []byte, attempt uint64) []byte {
		return rollMessageN(b, game, batch, index, purpose, blockSHA256, after, faces, attempt)
	})
}

// first tries attempts 0, 1, … of message until a MAC yields a face of a
// die of faces faces.
func (d *deriver) first(faces int, message func(b []byte, attempt uint64) []byte) int {
	for attempt := uint64(0); ; attempt++ {
		d.buf = message(d.buf[:0], attempt)
		d.mac.Reset()
		d.mac.Write(d.buf)
		d.sum = d.mac.Sum(d.sum[:0])
		if v, ok := pickN(d.sum, faces); ok {
			return v
		}
	}
}

// pick returns the first byte of mac below 250, modulo 10: a d10's face.
func pick(mac []byte) (int, bool) { return pickN(mac, d10) }

// pickN returns the first byte of mac below 256 − 256 mod faces (the
// largest multiple of faces a byte holds), modulo faces.
func pickN(mac []byte, faces int) (int, bool) {
	limit := 256 - 256%faces
	for _, c := range mac {
		if int(c) < limit {
			return int(c) % faces, true
		}
	}
	return 0, false
}

// HeadMessage is the message an installation signs for a checkpoint:
//
//	field("herald/dice/head/v1") field(game) u64(length) field(head)
//
// with head the 32 raw bytes of the chain head after length entries.
func HeadMessage(game string, length uint64, head Hash) []byte {
	b := make([]byte, 0, 8*4+len(headDomain)+len(game)+32)
	b = appendField(b, headDomain)
	b = appendField(b, game)
	b = appendU64(b, length)
	return appendFieldBytes(b, head[:])
}
