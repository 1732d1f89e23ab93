package games

import (
	"slices"
	"testing"
)

// The scripted player declares each unit's attack once: a unit's later
// declaration replaces its earlier one (engine AttackDeclared), so a
// second Charge would silently drop the first.
func TestAttacksOnePerUnit(t *testing.T) {
	legal := []string{
		"CHARGE SK2 AT EM1 0304 0404",
		"CHARGE SK2 AT EL1 0405",
		"SHOCK SK1 AT EM2",
		"SHOCK SK2 AT EL1",
	}
	got := attacks(legal, func(string) bool { return false })
	want := []string{"CHARGE SK2 AT EM1 0304 0404", "SHOCK SK1 AT EM2"}
	if !slices.Equal(got, want) {
		t.Errorf("attacks = %q, want %q", got, want)
	}
}
