package pbem

import (
	"mime"
	"net/mail"
	"strings"
	"unicode"

	"github.com/emersion/go-message/charset"
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

// words decodes RFC 2047 encoded words in every charset go-message knows.
var words = &mime.WordDecoder{CharsetReader: charset.Reader}

// ParseSender reads a From header the way mail clients write it, strict
// RFC 5322 or not: "Bob [work] <bob@example.org>", an encoded word with
// an '@' in it, a display name holding '<' or an encoded line break, an
// unclosed angle bracket. It returns the address, normalised
// (NormalizeAddress) and fit to be written in a reply, and the display
// name, decoded, with control characters made spaces and at most 100
// characters. The address is "" when the header holds none that a reply
// could be sent to: such a mail can be filed, never answered.
func ParseSender(v string) (addr, name string) {
	v = unfold(v)
	if list, err := (&mail.AddressParser{WordDecoder: words}).ParseList(v); err == nil && len(list) > 0 {
		if a := NormalizeAddress(list[0].Address); answerable(a) {
			return a, cleanName(list[0].Name)
		}
	}
	// The angle-addr clients put last: "name <addr>", even with a broken
	// name before it or without the closing '>'.
	if i := strings.LastIndexByte(v, '<'); i >= 0 {
		inner, _, _ := strings.Cut(v[i+1:], ">")
		if a := NormalizeAddress(inner); answerable(a) {
			return a, cleanName(decodeName(v[:i]))
		}
	}
	// A bare address among other words: "bob@example.org (Bob)".
	for _, f := range strings.FieldsFunc(v, func(r rune) bool { return unicode.IsSpace(r) || strings.ContainsRune(`<>()[],;"`, r) }) {
		if a := NormalizeAddress(f); answerable(a) {
			return a, ""
		}
	}
	return "", cleanName(decodeName(v))
}

// ParseAddresses reads an address list header (To, Cc) as leniently as
// ParseSender, returning every address a reply could be sent to.
func ParseAddresses(v string) []string {
	v = unfold(v)
	var out []string
	if list, err := (&mail.AddressParser{WordDecoder: words}).ParseList(v); err == nil {
		for _, a := range list {
			if a := NormalizeAddress(a.Address); answerable(a) {
				out = append(out, a)
			}
		}
		return out
	}
	for _, part := range strings.Split(v, ",") {
		if a, _ := ParseSender(part); a != "" {
			out = append(out, a)
		}
	}
	return out
}

// answerable: a bare addr-spec, local@domain, that Compose can write as a
// recipient: it parses alone and as an angle-addr, with nothing lost.
func answerable(a string) bool {
	if a == "" || !strings.Contains(a, "@") || strings.ContainsFunc(a, func(r rune) bool { return unicode.IsSpace(r) || unicode.IsControl(r) }) {
		return false
	}
	p, err := mail.ParseAddress("<" + a + ">")
	return err == nil && strings.EqualFold(p.Address, a) && p.Name == ""
}

// unfold joins a folded header value and turns every other control
// character into a space.
func unfold(v string) string {
	return strings.Map(func(r rune) rune {
		if unicode.IsControl(r) {
			return ' '
		}
		return r
	}, v)
}

// decodeName decodes the encoded words of a display name as it stood
// before the address, dropping the quotes around it.
func decodeName(s string) string {
	s = strings.TrimSpace(s)
	if d, err := words.DecodeHeader(s); err == nil {
		s = d
	}
	return strings.Trim(strings.TrimSpace(s), `"`)
}

// maxName bounds a display name kept for logs and greetings.
const maxName = 100

// cleanName makes a decoded display name safe to show: no control
// characters (an encoded CR LF is a space), single spaces, at most
// maxName characters.
func cleanName(s string) string {
	s = strings.Join(strings.Fields(unfold(s)), " ")
	if r := []rune(s); len(r) > maxName {
		s = string(r[:maxName])
	}
	return s
}
