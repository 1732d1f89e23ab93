package pbem

import "testing"

// From headers as real clients write them, strict or not.
func TestParseSender(t *testing.T) {
	for _, c := range []struct{ from, addr, name string }{
		{"Bob <Bob@Example.org>", "bob@example.org", "Bob"},
		{"bob@example.org", "bob@example.org", ""},
		{"Bob [work] <bob@example.org>", "bob@example.org", "Bob [work]"},
		{"=?utf-8?q?Bob_@_home?= <bob@example.org>", "bob@example.org", "Bob @ home"},
		{"=?utf-8?q?Bob=0D=0ABcc:_x@evil.example?= <bob@example.org>", "bob@example.org", "Bob Bcc: x@evil.example"},
		{"<script>alert(1)</script> <bob@example.org>", "bob@example.org", "<script>alert(1)</script>"},
		{"Bob Smith <bob@example.org", "bob@example.org", "Bob Smith"},
		{"bob@example.org (Bob)", "bob@example.org", "Bob"},
		{"\"Müller, Jörg\" <jorg@example.de>", "jorg@example.de", "Müller, Jörg"},
		{"=?iso-8859-1?q?M=FCller?= <m@example.de>", "m@example.de", "Müller"},
		{"Bob\r\n <bob@example.org>", "bob@example.org", "Bob"},
		{"Bob (no address here)", "", "Bob (no address here)"},
		{"", "", ""},
		{"<bob @example.org>", "", "<bob @example.org>"},
		{"Bob <bob@example.org>\r\nBcc: x@evil.example", "bob@example.org", "Bob"},
	} {
		addr, name := ParseSender(c.from)
		if addr != c.addr || name != c.name {
			t.Errorf("ParseSender(%q) = %q, %q; want %q, %q", c.from, addr, name, c.addr, c.name)
		}
	}
}
