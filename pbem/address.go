package pbem

import (
	"net/mail"
	"strings"
)

// NormalizeAddress reduces an address, with or without display name and
// angle brackets, to "local@domain" with the domain in lower case and the
// local part in lower case too: every provider players use treats local
// parts without regard to case, and a player must not be locked out by
// typing "Alice@". A plus-tag is kept. What does not parse as an address
// is returned trimmed and lower-cased.
func NormalizeAddress(addr string) string {
	addr = strings.TrimSpace(addr)
	if a, err := mail.ParseAddress(addr); err == nil {
		addr = a.Address
	}
	return strings.ToLower(strings.Trim(addr, "<>"))
}

// PlusTag splits "herald+crecy-4f2a@host" into its base address
// "herald@host" and the tag "crecy-4f2a". Both are normalised; the tag is
// empty when there is none.
func PlusTag(addr string) (base, tag string) {
	addr = NormalizeAddress(addr)
	local, domain, ok := strings.Cut(addr, "@")
	if !ok {
		return addr, ""
	}
	local, tag, _ = strings.Cut(local, "+")
	return local + "@" + domain, tag
}

// sameMailbox reports whether two addresses reach the same mailbox,
// ignoring plus-tags.
func sameMailbox(a, b string) bool {
	ba, _ := PlusTag(a)
	bb, _ := PlusTag(b)
	return ba != "" && ba == bb
}
