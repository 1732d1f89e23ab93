// Package dice is Herald's verifiable dice (design principle 3): every roll
// is derived from a seed committed before the orders that consume it were
// written, mixed with those orders' hash, and appended to a hash-chained,
// signed log that either player can check with this package, with
// tools/verify-dice.py, or with a program of their own following
// docs/dice.md, which specifies every byte.
//
// # Basics
//
// A game's dice advance one batch per applied order block (one mail), even
// a block that rolls no die:
//
//	h, u, err := dice.NewGame(key, "ladder-7", "crecy", []string{"English", "French"})
//	// persist h, u (entries, chain, secret u.Next); mail h.PublicKey,
//	// h.Commit and u.Checkpoint to both players.
//
//	b, err := dice.Begin(chain, seed, "French", move, engine.CanonicalBlock(orders))
//	res, err := engine.Apply(sc, st, side, orders, b) // b is the engine's Dice
//	// on error: drop b; nothing was revealed and the seed stays in use.
//	u, err := b.Close(key, dice.EventsSHA256(events), sha256.Sum256(res.State.Encode()))
//	// in the mail's one transaction: append u.Entries (e.Line() under key
//	// e.I), store u.Chain, replace the secret seed with u.Next; the mail
//	// shows u.Rolls (with their seq), u.Seed (revealed), u.Chain.Commit
//	// (the next commitment) and u.Checkpoint (signed length and head).
//
// A Batch rolls d10s (Roll, 0–9) for the Men of Iron engine and, for a
// game system's other dice (system.Dice), a die of 2 to 256 faces
// (RollN, 0 to faces−1: the strike system's D20 is RollN(p, 20)+1, its
// card RollN(p, 54)); RollN(p, 10) is Roll(p), and any other die's faces
// are bound into its derivation and written in its log entry and record.
//
// The log is a seal, then for each batch: a block entry (orders, their
// hash, the digests of the events and state they produced, the batch's
// seed revealed, the next seed's commitment), one roll entry per die, and a
// seal: the installation's Ed25519 signature of the checkpoint reached.
// WriteExport writes header and entries as JSON Lines; Verify checks such
// an export against the checkpoints a player holds, and, given a Replayer,
// replays the orders through the engine. Tally is the per-game dice report
// (face counts and a chi-square test).
//
// Keys: GenerateKey makes the installation key, MarshalPEM and ParseKey
// turn it into bytes and back (PKCS#8 PEM); file I/O is the caller's.
//
// # Caveats
//
// Seed is secret until its batch's mail: Update.Next is left out of JSON
// and Seed prints only its commitment, but the store must still keep it
// apart (its secret bucket) and never export it. Key is a secret too.
//
// The export's lines are canonical: each line must be exactly the encoding
// this package writes (no spaces, fixed member order, ASCII-only strings),
// so that no byte of an export can change without failing verification.
// Do not pretty-print exports or log lines; json.Marshal of an Entry may
// escape <, > and &, so use Entry.Line for the bytes to store.
//
// The scheme stops an operator from choosing rolls after the fact and a
// player from predicting them, but an operator who leaks a seed lets that
// player know the dice before writing orders, and an operator can predict
// forced orders and pick a seed to suit them. docs/dice.md ("Threat model")
// says what the scheme does and does not prevent.
//
// A Batch is not safe for concurrent use; Verify is.
package dice
