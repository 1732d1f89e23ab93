package pbem

import "testing"

func TestRoutePrecedence(t *testing.T) {
	self := []string{"Herald@Club.example"}
	block := []Block{{GameID: "crecy-b10c"}}
	disagree := []Block{{GameID: "crecy-b10c"}, {GameID: "poitiers-77c1"}}
	for _, tc := range []struct {
		name    string
		to      []string
		subject string
		blocks  []Block
		id, via string
	}{
		{"address wins over block and subject", []string{"herald+crecy-addr@club.example"}, "[crecy-subj]", block, "crecy-addr", "address"},
		{"address in upper case", []string{"bob@example.org", "HERALD+Crecy-Addr@CLUB.example"}, "", nil, "crecy-addr", "address"},
		{"tag of someone else's address is ignored", []string{"alice+crecy-x@club.example"}, "", block, "crecy-b10c", "block"},
		{"block before subject", []string{"herald@club.example"}, "Re: [crecy-subj] Move 3", block, "crecy-b10c", "block"},
		{"blocks that disagree name no game", []string{"herald@club.example"}, "Re: [crecy-subj] Move 3", disagree, "crecy-subj", "subject"},
		{"subject last", []string{"herald@club.example"}, "Re: [Crecy-Subj] Move 3", nil, "crecy-subj", "subject"},
		{"nothing", []string{"herald@club.example"}, "hello", nil, "", ""},
		{"disagreeing blocks and nothing else", nil, "hello", disagree, "", ""},
	} {
		m := &Mail{To: tc.to, Subject: tc.subject}
		if id, via := Route(m, tc.blocks, self); id != tc.id || via != tc.via {
			t.Errorf("%s: got %q by %q, want %q by %q", tc.name, id, via, tc.id, tc.via)
		}
	}
}

func TestAddresses(t *testing.T) {
	for _, tc := range []struct{ in, norm, base, tag string }{
		{"alice@example.org", "alice@example.org", "alice@example.org", ""},
		{"Alice Archer <Alice@EXAMPLE.Org>", "alice@example.org", "alice@example.org", ""},
		{"<herald+Crecy-4F2A@club.example>", "herald+crecy-4f2a@club.example", "herald@club.example", "crecy-4f2a"},
		{`"Herald, the" <herald+crecy-4f2a+x@club.example>`, "herald+crecy-4f2a+x@club.example", "herald@club.example", "crecy-4f2a+x"},
		{"  not an address ", "not an address", "not an address", ""},
	} {
		if got := NormalizeAddress(tc.in); got != tc.norm {
			t.Errorf("NormalizeAddress(%q) = %q, want %q", tc.in, got, tc.norm)
		}
		if base, tag := PlusTag(tc.in); base != tc.base || tag != tc.tag {
			t.Errorf("PlusTag(%q) = %q, %q, want %q, %q", tc.in, base, tag, tc.base, tc.tag)
		}
	}
}
