package games

import (
	"strings"
	"testing"

	"herald/data"
	"herald/engine"
)

// The mail that asks whether a unit fired at Counter-Charges speaks of its
// type: Ascalon's Knights must go unless restrained (Infidel 13.9), its
// Heavy Cavalry may; a Men of Iron battle keeps its Mounted Men-at-Arms.
func TestCounterChargeQuestionByType(t *testing.T) {
	for _, c := range []struct{ scenario, target, want string }{
		{"ascalon", "KN1", "Your Knights are fired at and must Counter-Charge the firer unless you restrain them"},
		{"ascalon", "HC1", "Your Heavy Cavalry are fired at, and your standing orders ask you whether they Counter-Charge"},
		{"crecy", "", "One of your Mounted Men-at-Arms is fired at"},
	} {
		sc, err := data.Scenario(c.scenario)
		if err != nil {
			t.Fatal(err)
		}
		st := engine.NewState(sc)
		if c.target != "" {
			st.FireAsk = &engine.PendingFire{Firer: "X", Target: c.target}
		}
		q, hint := counterChargeQuestion(&game{sc: sc, st: st}, "KN1 (asked)")
		if !strings.HasPrefix(q, c.want) || hint == "" {
			t.Errorf("%s %s: %q, want it to begin %q", c.scenario, c.target, q, c.want)
		}
	}
}
