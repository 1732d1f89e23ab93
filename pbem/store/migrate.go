package store

import (
	"bytes"
	"fmt"
	"strconv"

	bolt "go.etcd.io/bbolt"
)

// The store's schema, in meta/schema: 1 (no key) kept each game in a
// bucket of its own, games/<id>/, with record, state and dice and the
// sub-buckets events, log, secret and mail; 2 keeps the games' entries in
// buckets they share (gamekeys.go).
const schemaVersion = 2

var (
	keySchema = "schema"

	bucketGamesV1 = []byte("games")
)

// v2Place is where a v1 game's entry goes: a bucket, and before the
// entry's own key in it, a prefix (after the game's id and a NUL).
type v2Place struct {
	bucket []byte
	prefix string
}

var (
	v1Subs = map[string]v2Place{ // sub-bucket of a v1 game → where its entries go
		"events": {bucketGameEvents, ""}, "log": {bucketGameLog, ""},
		"secret": {bucketGameValues, secretPrefix}, "mail": {bucketGameValues, mailPrefix}}
	v1Values = map[string]v2Place{ // value of a v1 game → where it goes
		"state": {bucketGameValues, valueState}, "dice": {bucketGameValues, valueDice}}
)

// migrate brings the store to schemaVersion within tx, the transaction
// that opens it: each game of a v1 store is moved into the shared buckets,
// every value as it was (the state snapshot re-encoded, staterecord.go),
// and the v1 bucket removed. A store at the
// version already is left as it is.
func migrate(tx *bolt.Tx) error {
	meta := tx.Bucket(bucketMeta)
	version := 1
	if v := meta.Get([]byte(keySchema)); v != nil {
		n, err := strconv.Atoi(string(v))
		if err != nil {
			return fmt.Errorf("store: schema version %q: %w", v, err)
		}
		version = n
	}
	switch {
	case version == schemaVersion:
		return nil
	case version > schemaVersion:
		return fmt.Errorf("store: schema %d is a newer Herald's (this one knows %d)", version, schemaVersion)
	}
	if old := tx.Bucket(bucketGamesV1); old != nil {
		if err := old.ForEachBucket(func(id []byte) error {
			return migrateGameV1(tx, string(id), old.Bucket(id))
		}); err != nil {
			return err
		}
		if err := tx.DeleteBucket(bucketGamesV1); err != nil {
			return err
		}
	}
	return meta.Put([]byte(keySchema), []byte(strconv.Itoa(schemaVersion)))
}

// migrateGameV1 moves one game's v1 bucket into the shared buckets. Any
// key the v1 layout did not have stops the migration: nothing is dropped
// unseen.
func migrateGameV1(tx *bolt.Tx, id string, g *bolt.Bucket) error {
	if err := checkGameID(id); err != nil {
		return err
	}
	return g.ForEach(func(k, v []byte) error {
		switch {
		case v != nil && string(k) == "record":
			return sharedBucket(tx, bucketGameRecords).Put([]byte(id), v)
		case v != nil:
			return migrateValueV1(tx, id, string(k), v)
		}
		to, ok := v1Subs[string(k)]
		if !ok {
			return fmt.Errorf("store: migrate game %q: unknown bucket %q", id, k)
		}
		return moveEntries(g.Bucket(k), sharedBucket(tx, to.bucket), id, to.prefix)
	})
}

// migrateValueV1 moves a v1 game's state or dice record.
func migrateValueV1(tx *bolt.Tx, id, name string, v []byte) error {
	to, ok := v1Values[name]
	if !ok {
		return fmt.Errorf("store: migrate game %q: unknown value %q", id, name)
	}
	if name == "state" {
		var err error
		if v, err = stateFromV1(v); err != nil {
			return fmt.Errorf("store: migrate game %q: %w", id, err)
		}
	}
	return sharedBucket(tx, to.bucket).Put(gameKey(id, []byte(to.prefix)), v)
}

// moveEntries copies every entry of a v1 game's sub-bucket to the shared
// bucket under the game's keys, each entry's key after prefix.
func moveEntries(from, to *bolt.Bucket, id, prefix string) error {
	return from.ForEach(func(k, v []byte) error {
		if v == nil {
			return fmt.Errorf("store: migrate game %q: unknown bucket %q", id, k)
		}
		return to.Put(gameKey(id, append([]byte(prefix), k...)), bytes.Clone(v))
	})
}
