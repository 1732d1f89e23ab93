package games

import (
	"bytes"
	"crypto/sha256"
	"fmt"
	"strings"
	"testing"
	"time"

	bolt "go.etcd.io/bbolt"

	"herald/pbem"
	"herald/pbem/store"
	"herald/templates"
)

// Finding 9 (issue 15): after a game played by mail, its STATUS
// answered, every reply delivered, no key of either player is anywhere
// in the store, in any bucket, key or value; yet every block Herald mails
// a player still carries his key.
func TestNoPlayerKeyAtRest(t *testing.T) {
	w := newWorld(t, "alice", "bob")
	w.start(nil)
	w.newGame("crecy-rest", "alice", "bob")
	seen := map[string]bool{}
	for range 4 {
		w.settle()
		w.play(seen, false)
	}
	w.settle()
	keys := map[string]string{}
	for _, p := range []string{"alice", "bob"} {
		keys[p] = pbem.CanonicalKey(w.latestBlock(p, "crecy-rest").Key)
	}
	// STATUS from the player to act, whose latest mail has a block.
	toAct := "bob"
	if msgs := w.messages("alice", "INBOX"); bytes.Contains(msgs[len(msgs)-1].Raw, []byte("--- herald orders:")) {
		toAct = "alice"
	}
	blk := w.latestBlock(toAct, "crecy-rest")
	status := templates.OrderBlock{GameID: blk.GameID, Move: blk.Move, Key: blk.Key, Prefill: []string{"STATUS"}}.Text()
	w.smtpSend(rawMail(toAct+"@localhost", "herald+crecy-rest@localhost", "status", "status-1@localhost", status))
	w.settle()
	statusKey := ""
	for p, k := range keys {
		for _, m := range w.messages(p, "INBOX") {
			pm, err := pbem.ReadMail(m.Raw, pbem.ReadOptions{MaxBytes: 32 << 20})
			if err != nil {
				t.Fatal(err)
			}
			blocks, _ := pbem.FindBlocks(pm.Text)
			if len(blocks) > 0 && pbem.CanonicalKey(blocks[0].Key) != k {
				t.Errorf("a block mailed to %s carries %q, not his key", p, blocks[0].Key)
			}
			if len(blocks) > 0 && strings.Contains(pm.MessageID, ".status.") {
				statusKey = blocks[0].Key
			}
		}
	}
	if statusKey != keys[toAct] {
		t.Errorf("the STATUS answer's block carries the key %q, want %s's", statusKey, toAct)
	}
	if err := w.kill(); err != nil {
		t.Fatal(err)
	}
	db, err := bolt.Open(w.dbPath, 0o600, &bolt.Options{ReadOnly: true, Timeout: time.Second})
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	n := 0
	err = db.View(func(tx *bolt.Tx) error {
		return tx.ForEach(func(name []byte, b *bolt.Bucket) error {
			return walkBucket(b, string(name), func(path string, k, v []byte) {
				n++
				for p, key := range keys {
					for _, form := range []string{key, strings.ToLower(key), strings.ReplaceAll(key, "-", "")} {
						if bytes.Contains(k, []byte(form)) || bytes.Contains(v, []byte(form)) {
							t.Errorf("%s's key is in the store at %s/%s", p, path, k)
						}
					}
				}
			})
		})
	})
	if err != nil || n < 20 {
		t.Fatalf("walked %d entries of the store: %v", n, err)
	}
}

// walkBucket calls fn for every key and value under b, nested buckets
// included.
func walkBucket(b *bolt.Bucket, path string, fn func(path string, k, v []byte)) error {
	return b.ForEach(func(k, v []byte) error {
		if v == nil {
			if sub := b.Bucket(k); sub != nil {
				return walkBucket(sub, path+"/"+string(k), fn)
			}
		}
		fn(path, k, v)
		return nil
	})
}

// A game created before keys were derived keeps them among its secrets,
// and goes on with them.
func TestLegacyGameKeepsItsStoredKeys(t *testing.T) {
	f := newFixture(t)
	legacy := map[string]string{alice: "LEGA-CYAL-ICEK-EY00", bob: "LEGA-CYBO-BKEY-0000"}
	err := f.st.Update(func(tx *store.Tx) error {
		rec, err := tx.Game(f.game)
		if err != nil {
			return err
		}
		rec.KeySalt = ""
		for i, p := range rec.Players {
			rec.Players[i].KeySHA256 = sha256.Sum256([]byte(legacy[p.Address]))
			side := 0
			if p.Side == "French" {
				side = 1
			}
			if err := tx.PutSecret(f.game, fmt.Sprintf("key%d", side), []byte(legacy[p.Address])); err != nil {
				return err
			}
		}
		return tx.PutGame(rec)
	})
	if err != nil {
		t.Fatal(err)
	}
	if out := f.handle(f.orders(bob, f.keys[bob], "ACTIVATE Doria", "END")); out.Status != "refused:wrong-key" {
		t.Errorf("the derived key opened a legacy game: %+v", out)
	}
	f.deliverAll()
	if out := f.handle(f.orders(bob, legacy[bob], "ACTIVATE Doria", "END")); out.Status != "applied" {
		t.Fatalf("the stored key of a legacy game: %+v", out)
	}
	n := 0
	for _, m := range f.deliverAll() {
		if blocks, _ := pbemBlocks(m); len(blocks) > 0 {
			n++
			if blocks[0].Key != legacy[m.to] {
				t.Errorf("the block to %s carries %q, want his stored key", m.to, blocks[0].Key)
			}
		}
	}
	if n == 0 {
		t.Error("no result mail carries a block")
	}
}
