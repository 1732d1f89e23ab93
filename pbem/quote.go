package pbem

import (
	"regexp"
	"strings"
	"unicode"

	"herald/engine"
)

// mailLine is a line of a mail's text as FindBlocks reads it: numbered as
// in the text, cleaned (cleanLine), and for a quoted line the text after
// its quote marks, with its depth (0 for a line the sender wrote himself).
type mailLine struct {
	engine.Line
	depth int
}

// readLines are the lines of text that may hold the sender's orders. It
// stops at a signature separator or at the start of a forwarded or
// Outlook-quoted earlier mail, and leaves out the attribution line ("On …
// wrote:") above quoted text. Quoted lines are kept, with their depth:
// the sender may have written his orders between the quoted markers of a
// block (docs/mail-orders.md).
//
// With past, it reads on past the start of a quoted earlier mail, and past
// a signature separator below it (which is the quoted mail's): FindBlocks
// does so when it found nothing above, for the sender who writes below a
// quote his client did not mark. A forwarded mail always ends the reading:
// what it holds is someone's earlier mail, never the sender's answer.
//
// stop is the number of the line where a quoted earlier mail starts, at
// which it stopped (or, with past, which it went past); 0 for none.
func readLines(text string, past bool) (out []mailLine, stop int) {
	lines := engine.SplitLines(text)
	for i := range lines {
		lines[i].Text = cleanLine(lines[i].Text)
	}
	for i, l := range lines {
		switch {
		case stop == 0 && signature(l.Text):
			return out, 0
		case forwarded(l.Text):
			return out, stop
		case stop == 0 && earlierMail(lines, i):
			stop = l.No
			if !past {
				return out, stop
			}
		}
		if d, rest := quoteMarks(l.Text); d > 0 {
			out = append(out, mailLine{engine.Line{No: l.No, Text: rest}, d})
			continue
		}
		if attribution(lines, i) {
			// A client that wraps the attribution puts "On <date>, <name>"
			// on the line before.
			if n := len(out); n > 0 && out[n-1].depth == 0 && !attributionStart.MatchString(strings.TrimSpace(l.Text)) &&
				attributionStart.MatchString(strings.TrimSpace(out[n-1].Text)) {
				out = out[:n-1]
			}
			continue
		}
		out = append(out, mailLine{l, 0})
	}
	return out, stop
}

// quoteMarks counts the quote marks that open a line ("> ", ">>", "> > ")
// and returns the text after them (and after one space).
func quoteMarks(line string) (int, string) {
	d := 0
	rest := strings.TrimLeft(line, " \t")
	for strings.HasPrefix(rest, ">") {
		d++
		rest = strings.TrimLeft(rest[1:], " \t")
	}
	if d == 0 {
		return 0, line
	}
	return d, rest
}

// cleanLine makes every Unicode space (the non-breaking spaces clients
// insert, narrow and ideographic spaces) a space and drops zero-width
// characters and byte order marks, so that markers, keys and orders read
// as typed.
func cleanLine(s string) string {
	for i := 0; i < len(s); i++ {
		if s[i] >= 0x80 || s[i] == '\r' || s[i] == '\v' || s[i] == '\f' {
			return strings.Map(cleanRune, s)
		}
	}
	return s
}

func cleanRune(r rune) rune {
	switch {
	case r == '\u200b' || r == '\u200c' || r == '\u200d' || r == '\u2060' || r == '\ufeff':
		return -1
	case r != '\t' && unicode.IsSpace(r):
		return ' '
	}
	return r
}

// quoted: a line whose first non-blank character is ">".
func quoted(line string) bool {
	return strings.HasPrefix(strings.TrimSpace(line), ">")
}

var (
	// attributionEnd ends the line clients put above a quoted mail, in
	// the languages of the players: "On Tue, 3 Mar 2026 at 18:40, Herald
	// <…> wrote:", "Le … a écrit :", "Am … schrieb …:".
	attributionEnd   = regexp.MustCompile(`(?i)(wrote|a écrit|schrieb[^:]*|escribió|ha scritto|schreef)\s*:$`)
	attributionStart = regexp.MustCompile(`(?i)^(on|le|am|el|il|op)\s`)
)

// attribution reports whether line i introduces quoted text: it ends like
// an attribution and the next line that is not blank is quoted.
func attribution(lines []engine.Line, i int) bool {
	t := strings.TrimSpace(lines[i].Text)
	if !strings.HasSuffix(t, ":") || !attributionEnd.MatchString(t) {
		return false
	}
	for _, l := range lines[i+1:] {
		if t := strings.TrimSpace(l.Text); t != "" {
			return quoted(t)
		}
	}
	return false
}

// separators open an earlier mail below a reply; forwards, a forwarded
// one.
var (
	separators = regexp.MustCompile(`(?i)^(-{3,}\s*(original message|message d'origine|ursprüngliche nachricht|mensaje original)\s*-{3,}|_{20,})$`)
	forwards   = regexp.MustCompile(`(?i)^(-{3,}\s*(forwarded message|message transféré|weitergeleitete nachricht|mensaje reenviado)\s*-{3,}|begin forwarded message:|début du message réexpédié :?|anfang der weitergeleiteten nachricht:)$`)
)

// forwarded: the line starts a forwarded mail.
func forwarded(line string) bool {
	t := strings.TrimSpace(line)
	return t != "" && strings.ContainsRune("-BbDdAa", rune(t[0])) && forwards.MatchString(t)
}

// signature: a signature separator line.
func signature(raw string) bool { return raw == "-- " || raw == "--" }

// earlierMail reports whether line i starts a forwarded or quoted earlier
// mail that its client did not mark with ">".
func earlierMail(lines []engine.Line, i int) bool {
	if t := strings.TrimSpace(lines[i].Text); t != "" && strings.ContainsRune("-_", rune(t[0])) && separators.MatchString(t) {
		return true
	}
	return outlookHeader(lines, i)
}

// outlookHeader recognises the header block Outlook and others put above
// an unquoted earlier mail: "From: …" followed within six lines by
// "Sent: …" or "Date: …", and "To: …" or "Subject: …".
func outlookHeader(lines []engine.Line, i int) bool {
	if !hasFieldPrefix(lines[i].Text, "from", "von", "de", "van") {
		return false
	}
	var date, to bool
	for j := i + 1; j < len(lines) && j <= i+6; j++ {
		date = date || hasFieldPrefix(lines[j].Text, "sent", "date", "gesendet", "envoyé", "enviado", "verzonden", "datum")
		to = to || hasFieldPrefix(lines[j].Text, "to", "subject", "an", "à", "betreff", "objet", "para", "asunto", "aan", "onderwerp")
	}
	return date && to
}

func hasFieldPrefix(line string, names ...string) bool {
	t := strings.ToLower(strings.TrimSpace(strings.ReplaceAll(line, "*", "")))
	for _, n := range names {
		if strings.HasPrefix(t, n+":") || strings.HasPrefix(t, n+" :") {
			return true
		}
	}
	return false
}
