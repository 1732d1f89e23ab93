package strike_test

import (
	"testing"

	"herald/data"
	"herald/engine/strike"
)

// tables are the embedded house tables (data/strike/tables.yaml).
func tables(t *testing.T) *strike.Tables {
	t.Helper()
	tb, err := data.StrikeTables()
	if err != nil {
		t.Fatal(err)
	}
	return tb
}

// unit makes a unit of a troop type with n stands.
func unit(t *testing.T, tb *strike.Tables, id string, n int) *strike.Unit {
	t.Helper()
	tt, err := tb.Troop(id)
	if err != nil {
		t.Fatal(err)
	}
	return &strike.Unit{Name: id, Type: tt, Stands: n}
}

// used fails unless the script gave every roll and card it holds.
func used(t *testing.T, s *strike.Script) {
	t.Helper()
	if d, c := s.Remaining(); d != 0 || c != 0 {
		t.Errorf("%d rolls and %d cards left unused; log %q", d, c, s.Log)
	}
}
