package templates

import (
	"iter"
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
// runes. Runs of blanks between words become one space.
func hang(first, rest, s string) string {
	l := line{rest: rest, restCols: utf8.RuneCountInString(rest)}
	l.b.Grow(len(first) + len(s) + (len(s)/(Width/2)+1)*(len(rest)+1))
	for i := 0; ; i++ {
		para, after, more := strings.Cut(s, "\n")
		if i == 0 {
			l.start(first, utf8.RuneCountInString(first))
		} else {
			l.b.WriteByte('\n')
			l.start(rest, l.restCols)
		}
		for u := range units(para) {
			l.put(u)
		}
		if !more {
			return l.b.String()
		}
		s = after
	}
}

// line is hang's text so far and the column its last line has reached.
type line struct {
	b         strings.Builder
	rest      string
	restCols  int
	col, from int // the column reached; where the line's first word starts
}

// start begins a line with prefix, cols columns wide.
func (l *line) start(prefix string, cols int) {
	l.b.WriteString(prefix)
	l.col, l.from = cols, cols
}

// put writes a unit, its fields joined by one space, on the line or, if it
// does not fit and the line holds a word, on a new one.
func (l *line) put(unit []string) {
	n := len(unit) - 1
	for _, f := range unit {
		n += utf8.RuneCountInString(f)
	}
	if l.col > l.from {
		if l.col+1+n > Width {
			l.b.WriteByte('\n')
			l.start(l.rest, l.restCols)
		} else {
			l.b.WriteByte(' ')
			l.col++
		}
	}
	for i, f := range unit {
		if i > 0 {
			l.b.WriteByte(' ')
		}
		l.b.WriteString(f)
	}
	l.col += n
}

// units yields the units of a paragraph that wrap may not break, each as
// the fields it is made of, in a slice reused for the next: a word, a
// span quoted in backticks, and a number in brackets with the word
// before it (isCount).
func units(para string) iter.Seq[[]string] {
	return func(yield func([]string) bool) {
		var fields [8]string
		unit, quoted := fields[:0], false
		for f := range strings.FieldsSeq(para) {
			if len(unit) > 0 && !quoted && !isCount(f) {
				if !yield(unit) {
					return
				}
				unit = unit[:0]
			}
			unit = append(unit, f)
			if strings.Count(f, "`")%2 == 1 {
				quoted = !quoted
			}
		}
		if len(unit) > 0 {
			yield(unit)
		}
	}
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
