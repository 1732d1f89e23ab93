package store

import (
	"encoding/binary"
	"encoding/json"
	"fmt"
)

// A state snapshot is stored as the number of events (a uvarint) followed
// by the state's bytes as they are. It was JSON, the state in base64: a
// third larger, and a Crécy state of 2.2 kB so encoded put two to a
// two-page run of bbolt's, where as it is two fit in one page.

func (r StateRecord) encode() []byte {
	return append(binary.AppendUvarint(nil, r.Events), r.State...)
}

// decodeState reads a snapshot stored by encode; ErrNotFound if raw is nil.
func decodeState(raw []byte) (*StateRecord, error) {
	if raw == nil {
		return nil, ErrNotFound
	}
	n, size := binary.Uvarint(raw)
	if size <= 0 {
		return nil, fmt.Errorf("store: decode state: bad event count")
	}
	return &StateRecord{Events: n, State: clone(raw[size:])}, nil
}

// stateFromV1 re-encodes a snapshot stored as JSON (schema 1).
func stateFromV1(raw []byte) ([]byte, error) {
	var r StateRecord
	if err := json.Unmarshal(raw, &r); err != nil {
		return nil, fmt.Errorf("store: decode state: %w", err)
	}
	return r.encode(), nil
}
