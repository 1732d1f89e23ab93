package mapimg

import (
	"strings"
	"testing"

	"herald/data"
	"herald/engine"
)

// The legend of a battle decided by Victory Points (Arsuf; Infidel 2.4,
// ruling R176) gives each army its Victory Points, the Flight Points its
// enemy suffered: a Templar unit lost scores 3 for the Ayyubids.
func TestLegendVictoryPoints(t *testing.T) {
	sc, err := data.Scenario("arsuf")
	if err != nil {
		t.Fatal(err)
	}
	st := engine.NewState(sc)
	st.Unit("TK1").Status = engine.Eliminated
	var texts []string
	for _, it := range sideItems(sc, st) {
		texts = append(texts, it.text)
	}
	got := strings.Join(texts, "\n")
	if got != "Crusaders: 0 Victory Points (3 Flight Points suffered)\nAyyubids: 3 Victory Points (0 Flight Points suffered)" {
		t.Errorf("legend:\n%s", got)
	}
}
