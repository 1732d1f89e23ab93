package store

import "encoding/json"

// DiceRecord is where a game's dice log stands: its header line (exactly as
// pbem/dice writes it) and the chain reached by the last batch. The entries
// themselves are in the game's log; the next seed is a secret.
type DiceRecord struct {
	Header []byte          `json:"header"`
	Chain  json.RawMessage `json:"chain"`
}

// Dice returns the game's dice record.
func (t *Tx) Dice(id string) (*DiceRecord, error) {
	b, err := t.bucket(bucketGameValues, id)
	if err != nil {
		return nil, err
	}
	var r DiceRecord
	return &r, getJSON(b, gameKey(id, []byte(valueDice)), &r)
}

// PutDice replaces the game's dice record.
func (t *Tx) PutDice(id string, r DiceRecord) error {
	b, err := t.bucket(bucketGameValues, id)
	if err != nil {
		return err
	}
	return putJSON(b, gameKey(id, []byte(valueDice)), r)
}
