package templates

import (
	"strings"
	"unicode/utf8"
)

// Width is the column limit of plain-text mail: prose is wrapped to it.
// Order blocks and hashes are never wrapped, whatever their length.
const Width = 72

// wrap wraps s to Width columns. Newlines in s are kept as line breaks.
func wrap(s string) string { return hang("", "", s) }

// Wrap fills a paragraph to the plain-text parts' Width, for text the
// daemon adds to a rendered mail.
func Wrap(s string) string { return wrap(s) }

// hang wraps s to Width columns, the first line starting with first and
// the others with rest (" 1. " and "    " for a numbered list). A word
// longer than the room left (an address, a hash) gets a line of its own
// and is never broken; nor is a `quoted command`. Columns are counted in
// runes.
func hang(first, rest, s string) string {
	var b strings.Builder
	prefix := first
	for i, para := range strings.Split(s, "\n") {
		if i > 0 {
			b.WriteString("\n")
		}
		b.WriteString(prefix)
		col := utf8.RuneCountInString(prefix)
		start := col
		for _, w := range words(para) {
			n := utf8.RuneCountInString(w)
			if col > start {
				if col+1+n > Width {
					b.WriteString("\n" + rest)
					col = utf8.RuneCountInString(rest)
					start = col
				} else {
					b.WriteString(" ")
					col++
				}
			}
			b.WriteString(w)
			col += n
		}
		prefix = rest
	}
	return b.String()
}

// words splits a paragraph into the units wrap may not break: words, and
// spans quoted in backticks.
func words(para string) []string {
	var out []string
	quoted := false
	for _, f := range strings.Fields(para) {
		if quoted || len(out) > 0 && isCount(f) {
			out[len(out)-1] += " " + f
		} else {
			out = append(out, f)
		}
		if n := strings.Count(f, "`"); n%2 == 1 {
			quoted = !quoted
		}
	}
	return out
}

// isCount reports a number in brackets, maybe followed by a comma or a
// full stop: "(2),". It stays on the line of the word before it, so that
// a list of hexes and costs never breaks "0306 (2)" in two.
func isCount(w string) bool {
	w = strings.TrimRight(w, ",.;")
	if len(w) < 3 || w[0] != '(' || w[len(w)-1] != ')' {
		return false
	}
	for _, r := range w[1 : len(w)-1] {
		if r < '0' || r > '9' {
			return false
		}
	}
	return true
}

// heading underlines a title with dashes, as plain-text mail does.
func heading(title string) string {
	return title + "\n" + strings.Repeat("-", utf8.RuneCountInString(title))
}

// title underlines a mail's title with equals signs.
func title(s string) string {
	return s + "\n" + strings.Repeat("=", utf8.RuneCountInString(s))
}

// tidyText tidies a rendered text part: no trailing blanks (except in the
// signature separator "-- "), no runs of blank lines, no blank lines at
// the start, one newline at the end. Order blocks are left exactly as they
// are.
func tidyText(s string) string {
	var out []string
	inBlock := false
	for _, l := range strings.Split(s, "\n") {
		if inBlock {
			out = append(out, l)
			inBlock = l != EndMarker
			continue
		}
		if isBeginMarker(l) {
			inBlock = true
			out = append(out, l)
			continue
		}
		if l != "-- " {
			l = strings.TrimRight(l, " \t")
		}
		if l == "" && (len(out) == 0 || out[len(out)-1] == "") {
			continue
		}
		out = append(out, l)
	}
	for len(out) > 0 && out[len(out)-1] == "" {
		out = out[:len(out)-1]
	}
	return strings.Join(out, "\n") + "\n"
}
