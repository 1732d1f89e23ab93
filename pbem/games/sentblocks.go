package games

import (
	"encoding/json"

	"herald/pbem"
	"herald/pbem/store"
	"herald/templates"
)

// keptBlocks is how many of the latest blocks Herald mailed about a game
// it remembers, to know them again in a reply that quotes them without
// ">" (pbem.Known.Sent): enough for both players' latest mails and a few
// refusals and checks.
const keptBlocks = 16

// sentBlocksKey names the game's list of sent block fingerprints.
const sentBlocksKey = "sent-blocks"

// rememberBlocks keeps the fingerprints of the blocks of a mail Herald
// sends about game id (never the blocks themselves: they hold keys), read
// from each block's text as its mail prints it.
func rememberBlocks(tx *store.Tx, id string, sent []templates.OrderBlock) error {
	var blocks []pbem.Block
	for _, b := range sent {
		found, _ := pbem.FindBlocks(b.Text())
		blocks = append(blocks, found...)
	}
	if len(blocks) == 0 {
		return nil
	}
	kept, err := sentBlocks(tx, id)
	if err != nil {
		return err
	}
	for _, b := range blocks {
		kept = append(kept, b.Fingerprint())
	}
	if len(kept) > keptBlocks {
		kept = kept[len(kept)-keptBlocks:]
	}
	v, err := json.Marshal(kept)
	if err != nil {
		return err
	}
	return tx.PutMail(id, sentBlocksKey, v)
}

// sentBlocks are the fingerprints rememberBlocks kept, oldest first.
func sentBlocks(tx *store.Tx, id string) ([]string, error) {
	v, err := tx.Mail(id, sentBlocksKey)
	if err != nil || v == nil {
		return nil, err
	}
	var kept []string
	return kept, json.Unmarshal(v, &kept)
}
