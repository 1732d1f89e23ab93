package pbem

import (
	"regexp"
	"strconv"
	"strings"

	"herald/engine"
)

// Command is what a block asks for (docs/mail-orders.md).
type Command int

const (
	CommandOrders        Command = iota // orders to carry out
	CommandCheck                        // CHECK: say what the orders would do, change nothing
	CommandStatus                       // STATUS: send the latest mail again
	CommandResign                       // RESIGN: ask to concede
	CommandConfirmResign                // RESIGN CONFIRM <code>: concede
)

var commandNames = [...]string{"orders", "CHECK", "STATUS", "RESIGN", "RESIGN CONFIRM"}

func (c Command) String() string {
	if int(c) < len(commandNames) {
		return commandNames[c]
	}
	return "Command(" + strconv.Itoa(int(c)) + ")"
}

// Block is one order block a sender wrote.
type Block struct {
	GameID string
	Move   int
	Key    string // from the KEY line; "" when missing
	// Lines are the lines between the markers but the KEY line, blank
	// lines and comments included, numbered as lines of Mail.Text.
	Lines []engine.Line
	// Command is decided by the first line that is not blank or a
	// comment; for CHECK the lines after it are the orders to check.
	Command Command
	Begin   int // line number of the begin marker
}

// Problem is something wrong with a block that keeps it from being read.
type Problem struct {
	Line         int
	Text, Reason string
}

var (
	// Markers are matched tolerantly: any case, any run of dashes and
	// spaces (clients turn spaces into non-breaking ones, which Text
	// readers have made spaces already).
	beginMarker = regexp.MustCompile(`(?i)^-{2,}\s*herald\s+orders\s*:?\s*([a-z0-9][a-z0-9._-]*)\s+move\s+(\d{1,9})\s*-{2,}$`)
	endMarker   = regexp.MustCompile(`(?i)^-{2,}\s*end\s+orders\s*-{2,}$`)
	keyLine     = regexp.MustCompile(`(?i)^key\s*:?\s+(\S+)$`)
)

// FindBlocks returns the blocks the sender wrote in text (see the package
// documentation for what is ignored), and the problems of blocks that
// could not be read.
func FindBlocks(text string) ([]Block, []Problem) {
	var blocks []Block
	var problems []Problem
	var cur *Block
	unterminated := func() {
		problems = append(problems, Problem{Line: cur.Begin, Text: strings.TrimSpace(lineAt(text, cur.Begin)),
			Reason: `the order block that begins here has no end marker "--- end orders ---"`})
	}
	for _, l := range ownLines(text) {
		t := strings.TrimSpace(l.Text)
		if m := beginMarker.FindStringSubmatch(t); m != nil {
			if cur != nil {
				unterminated()
			}
			move, _ := strconv.Atoi(m[2])
			cur = &Block{GameID: strings.ToLower(m[1]), Move: move, Begin: l.No}
			continue
		}
		if cur == nil {
			continue
		}
		if endMarker.MatchString(t) {
			cur.Command = command(cur.Lines)
			blocks = append(blocks, *cur)
			cur = nil
			continue
		}
		if m := keyLine.FindStringSubmatch(t); m != nil && cur.Key == "" {
			cur.Key = m[1]
			continue
		}
		cur.Lines = append(cur.Lines, engine.Line{No: l.No, Text: t})
	}
	if cur != nil {
		unterminated()
	}
	return blocks, problems
}

// command reads what a block asks for from its first meaningful line.
func command(lines []engine.Line) Command {
	for _, l := range lines {
		text, _, _ := strings.Cut(l.Text, "#")
		f := strings.Fields(strings.ToUpper(text))
		switch {
		case len(f) == 0:
			continue
		case len(f) == 1 && f[0] == "CHECK":
			return CommandCheck
		case len(f) == 1 && f[0] == "STATUS":
			return CommandStatus
		case len(f) == 1 && f[0] == "RESIGN":
			return CommandResign
		case len(f) >= 2 && f[0] == "RESIGN" && f[1] == "CONFIRM":
			return CommandConfirmResign
		}
		return CommandOrders
	}
	return CommandOrders
}

// ownLines are the lines of text the sender wrote himself: it stops at a
// signature separator or at the start of a forwarded or Outlook-quoted
// earlier mail, and leaves out quoted lines.
func ownLines(text string) []engine.Line {
	lines := engine.SplitLines(text)
	var out []engine.Line
	for i, l := range lines {
		if endsOwnText(lines, i) {
			break
		}
		if t := strings.TrimLeft(l.Text, " \t"); strings.HasPrefix(t, ">") {
			continue
		}
		out = append(out, l)
	}
	return out
}

// separators open an earlier mail below a reply or a forward.
var separators = regexp.MustCompile(`(?i)^(-{3,}\s*(original message|forwarded message|message d'origine|ursprüngliche nachricht|mensaje original)\s*-{3,}|begin forwarded message:|_{20,})$`)

// endsOwnText reports whether line i starts what the sender did not write.
func endsOwnText(lines []engine.Line, i int) bool {
	raw := strings.TrimRight(lines[i].Text, "\r")
	if raw == "-- " || raw == "--" {
		return true // signature separator
	}
	t := strings.TrimSpace(raw)
	if separators.MatchString(t) {
		return true
	}
	return outlookHeader(lines, i)
}

// outlookHeader recognises the header block Outlook and others put above
// an unquoted earlier mail: "From: …" followed within a few lines by
// "Sent: …" or "Date: …", and "To: …" or "Subject: …".
func outlookHeader(lines []engine.Line, i int) bool {
	if !hasFieldPrefix(lines[i].Text, "from", "von", "de") {
		return false
	}
	var date, to bool
	for j := i + 1; j < len(lines) && j <= i+6; j++ {
		date = date || hasFieldPrefix(lines[j].Text, "sent", "date", "gesendet", "envoyé")
		to = to || hasFieldPrefix(lines[j].Text, "to", "subject", "an", "à", "betreff", "objet")
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

func lineAt(text string, no int) string {
	lines := strings.Split(text, "\n")
	if no >= 1 && no <= len(lines) {
		return lines[no-1]
	}
	return ""
}
