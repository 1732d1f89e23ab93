package dice_test

import (
	"bytes"
	"crypto/sha256"
	"fmt"
	"log"

	"herald/pbem/dice"
)

// A game's dice from its creation to verification. The engine is left out:
// the Batch is what engine.Apply would be given as its Dice.
func Example() {
	key, err := dice.GenerateKey() // once per installation; store key.MarshalPEM()
	if err != nil {
		log.Fatal(err)
	}
	header, opening, err := dice.NewGame(key, "ladder-7", "crecy", []string{"English", "French"})
	if err != nil {
		log.Fatal(err)
	}
	// Store opening.Entries, opening.Chain and the secret opening.Next;
	// the first mail shows header.PublicKey, header.Commit and
	// opening.Checkpoint.
	entries := opening.Entries
	chain, seed := opening.Chain, opening.Next
	mailed := []dice.Checkpoint{opening.Checkpoint}

	// One mail: an order block from the French.
	orders := "ACTIVATE Doria\nEND\nCONTINUE Grimaldi\n"
	batch, err := dice.Begin(chain, seed, "French", 1, orders)
	if err != nil {
		log.Fatal(err)
	}
	v, _ := batch.Roll("Continuity DR: Grimaldi (AR 2)") // engine.Apply(…, batch) does this
	events := [][]byte{fmt.Appendf(nil, `{"event":"ContinuityRolled","data":{"die":%d}}`, v)}
	u, err := batch.Close(key, dice.EventsSHA256(events), sha256.Sum256([]byte("the new state")))
	if err != nil {
		log.Fatal(err)
	}
	entries = append(entries, u.Entries...)
	mailed = append(mailed, u.Checkpoint)
	fmt.Printf("roll %d: %s\n", u.Rolls[0].Seq, u.Rolls[0].Purpose)

	// A player checks the export against the checkpoints in his mail.
	var export bytes.Buffer
	if err := dice.WriteExport(&export, header, entries); err != nil {
		log.Fatal(err)
	}
	rep, err := dice.Verify(&export, dice.Options{Checkpoints: mailed, PublicKey: &header.PublicKey})
	fmt.Println(err == nil, rep.Entries, rep.Batches, rep.Rolls, rep.Seals, rep.Checkpoints)
	// Output:
	// roll 1: Continuity DR: Grimaldi (AR 2)
	// true 4 1 1 2 2
}
