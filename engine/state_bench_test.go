package engine_test

import (
	"testing"

	"herald/data"
	"herald/engine"
)

// BenchmarkStateEncode encodes Crécy's opening state, as every played
// block stores it (issue 17: a JSON encoding per order mail).
func BenchmarkStateEncode(b *testing.B) {
	sc, err := data.Scenario("crecy")
	if err != nil {
		b.Fatal(err)
	}
	st := engine.NewState(sc)
	b.ReportAllocs()
	for b.Loop() {
		st.Encode()
	}
}
