package pbem

import "testing"

func TestUnflow(t *testing.T) {
	for _, tc := range []struct {
		name, in string
		delsp    bool
		want     string
	}{
		{"soft break joins", "ACTIVATE Godfrey   # the longbowmen go first, before the \nFrench crossbows close\nEND", false,
			"ACTIVATE Godfrey   # the longbowmen go first, before the French crossbows close\nEND"},
		{"delsp removes the added space", "STANDING SEIZE Alencon IF Ed \nward\nEND", true, "STANDING SEIZE Alencon IF Edward\nEND"},
		{"space-stuffing removed", " From the hill\n >not a quote", false, "From the hill\n>not a quote"},
		{"signature separator is no soft break", "-- \nAlice", false, "-- \nAlice"},
		{"quoted lines join at their depth", "> a \n> b\n>> c \n>> d\ne", false, "> a b\n>> c d\ne"},
		{"a change of depth ends a paragraph", "> a \nb", false, "> a \nb"},
		{"soft break at the end", "END ", false, "END "},
	} {
		if got := unflow(tc.in, tc.delsp); got != tc.want {
			t.Errorf("%s:\n got %q\nwant %q", tc.name, got, tc.want)
		}
	}
}
