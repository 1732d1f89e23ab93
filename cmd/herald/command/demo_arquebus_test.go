package command

import "testing"

// TestDemoArquebusBattles: Herald's reconstructions of Fornovo (1495) and
// Pavia (1525), on Arquebus' house tables, play by mail through the
// embedded server to their end, a side's failed Loss Check against its
// Flight Level (Arquebus 3.0), like TestDemoBloodAndRosesBattles: the
// scripted players fire, close with the enemy (across the Taro at
// Fornovo, the Vernavola at Pavia), Charge and Shock. Each mail the
// players answered is read back, and the dice log verifies.
func TestDemoArquebusBattles(t *testing.T) {
	if raceBuild {
		t.Skip("whole battles take minutes under the race detector: .ci/run runs this test without -race")
	}
	for _, tc := range []struct{ scenario, sides string }{
		{"fornovo", "French|Italians"},
		{"pavia", "French|Imperialists"},
	} {
		t.Run(tc.scenario, func(t *testing.T) { demoToItsEnd(t, tc.scenario, tc.sides) })
	}
}
