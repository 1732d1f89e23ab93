package templates

import (
	"strings"
	"testing"
)

// A battle decided by Victory Points (Infidel 2.4, ruling R176) shows each
// army's Victory Points and the Flight Points it has suffered, not a
// Flight Level no Loss Check uses; other battles are unchanged.
func TestArmiesByVictoryPoints(t *testing.T) {
	v := sampleNamed(t, "result-english-acts").(Result)
	for i := range v.Game.Sides {
		v.Game.Sides[i].ByVictoryPoints = true
		v.Game.Sides[i].FlightPoints = 3 * i
		v.Game.Sides[i].VictoryPoints = 3 * (1 - i)
	}
	m, err := Render(v)
	if err != nil {
		t.Fatal(err)
	}
	text := strings.Join(strings.Fields(m.Text), " ") // lines are wrapped
	if !strings.Contains(text, "English (alice@example.org): 3 Victory Points; 0 Flight Points suffered.") ||
		!strings.Contains(text, "French (bruno@example.fr): 0 Victory Points; 3 Flight Points suffered.") || strings.Contains(text, "Flight Level") {
		t.Errorf("text armies:\n%s", m.Text)
	}
	if !strings.Contains(m.HTML, ">Victory Points</td>") || !strings.Contains(m.HTML, ">Flight Points suffered</td>") || strings.Contains(m.HTML, ">Flight Level</td>") {
		t.Errorf("HTML armies lack the Victory Points columns")
	}
}
