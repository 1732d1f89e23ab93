package store_test

import (
	"fmt"
	"reflect"
	"testing"

	"herald/pbem/store"
)

// Games share their buckets: games whose ids begin alike, created and
// played in turn, each keep their own events, dice log, secrets and mail,
// numbered from 1.
func TestGamesKeepTheirOwnEntries(t *testing.T) {
	s := mustOpen(t)
	ids := []string{"a-b", "a", "ab", "a.b"}
	err := s.Update(func(tx *store.Tx) error {
		for _, id := range ids {
			if err := tx.CreateGame(&store.Game{ID: id}, nil); err != nil {
				return err
			}
		}
		for round := 1; round <= 3; round++ {
			for _, id := range ids {
				event := []byte(fmt.Sprintf("%s-e%d", id, round))
				if err := tx.AppendEvents(id, [][]byte{event}, []byte(id)); err != nil {
					return err
				}
				if n, err := tx.AppendLog(id, []byte(fmt.Sprintf("%s-l%d", id, round))); err != nil || n != uint64(round) {
					return fmt.Errorf("AppendLog(%s) = %d, %v; want %d", id, n, err, round)
				}
				tx.PutSecret(id, "seed", []byte(id))
				tx.PutMail(id, "latest:English", []byte(id))
			}
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	s.View(func(tx *store.Tx) error {
		for _, id := range ids {
			want := []string{"1:" + id + "-e1", "2:" + id + "-e2", "3:" + id + "-e3"}
			if got := entries(t, tx.Events, id); !reflect.DeepEqual(got, want) {
				t.Errorf("Events(%s) = %q, want %q", id, got, want)
			}
			if got := entries(t, tx.Log, id); len(got) != 3 || got[2] != "3:"+id+"-l3" {
				t.Errorf("Log(%s) = %q", id, got)
			}
			st, _ := tx.State(id)
			secret, _ := tx.Secret(id, "seed")
			mail, _ := tx.Mail(id, "latest:English")
			if st.Events != 3 || string(st.State) != id || string(secret) != id || string(mail) != id {
				t.Errorf("%s: state %+v, secret %q, mail %q", id, st, secret, mail)
			}
		}
		if _, err := tx.Secret("a-", "seed"); err == nil {
			t.Error("a game never created has secrets")
		}
		return nil
	})
}

// A game id never holds a NUL, which ends a game's part of the keys.
func TestGameIDWithNULRefused(t *testing.T) {
	s := mustOpen(t)
	err := s.Update(func(tx *store.Tx) error { return tx.CreateGame(&store.Game{ID: "a\x00b"}, nil) })
	if err == nil {
		t.Error("a game id with a NUL was taken")
	}
}
