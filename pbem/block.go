package pbem

import (
	"fmt"
	"regexp"
	"strconv"
	"strings"

	"herald/engine"
	"herald/templates"
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
	if c >= 0 && int(c) < len(commandNames) {
		return commandNames[c]
	}
	return "Command(" + strconv.Itoa(int(c)) + ")"
}

// Block is one order block a sender wrote.
type Block struct {
	GameID string // lower case
	Move   int
	Key    string // from the first KEY line; "" when missing
	// Lines are the lines between the markers but the KEY line, blank
	// lines and comments kept, numbered as lines of Mail.Text (from 1),
	// trimmed, with non-breaking and other Unicode spaces made spaces.
	// Quoted lines and a wrapped marker's second line are not among them.
	Lines []engine.Line
	// Command is decided by the first line that is not blank or a
	// comment; for CHECK the lines after it are the orders to check.
	Command Command
	Begin   int // line number of the begin marker
	End     int // line number of the end marker
}

// Marker is the block's begin marker as Herald writes it.
func (b Block) Marker() string { return fmt.Sprintf(templates.BeginMarkerFormat, b.GameID, b.Move) }

// Problem is something wrong with a block that keeps it from being read.
type Problem struct {
	Line         int
	Text, Reason string
}

var (
	// Markers are matched tolerantly (docs/mail-orders.md): any case, any
	// run of two or more dashes (typographic dashes count), any spacing,
	// with or without the colon.
	beginMarker = regexp.MustCompile(`^-{2,}\s*(?i:herald)\s+(?i:orders)\s*:?\s*([A-Za-z0-9][A-Za-z0-9._-]*)\s+(?i:move)\s+(\d{1,9})\s*-{2,}$`)
	beginStart  = regexp.MustCompile(`^-{2,}\s*(?i:herald)\s+(?i:orders)\b`)
	endMarker   = regexp.MustCompile(`^-{2,}\s*(?i:end)\s+(?i:orders)\s*-{2,}$`)
	keyLine     = regexp.MustCompile(`^(?i:key)\s*:?\s+(\S+)$`)
)

// FindBlocks returns the blocks the sender wrote in text, and a Problem
// for each begin marker without an end marker. It reads only the sender's
// own lines (ownLines): quoted lines (">" at any depth), everything below
// a signature separator, and forwarded or quoted earlier mails are
// ignored. A begin marker that a client wrapped onto two lines is read.
func FindBlocks(text string) ([]Block, []Problem) {
	var blocks []Block
	var problems []Problem
	var cur *Block
	var curText string // the begin marker as written
	unterminated := func() {
		problems = append(problems, Problem{Line: cur.Begin, Text: curText,
			Reason: fmt.Sprintf("the order block that begins here has no end marker %q", templates.EndMarker)})
	}
	lines := ownLines(text)
	for i := 0; i < len(lines); i++ {
		l := lines[i]
		t := strings.TrimSpace(l.Text)
		if b, wrapped := begin(t, l.No, lines[i+1:]); b != nil {
			if cur != nil {
				unterminated()
			}
			b.Begin = l.No
			cur, curText = b, t
			if wrapped {
				i++
				curText += " " + strings.TrimSpace(lines[i].Text)
			}
			continue
		}
		if cur == nil {
			continue
		}
		if endMarker.MatchString(undash(t)) {
			cur.End = l.No
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

// begin reads a begin marker from line t (number no), or from t and the
// line after it when t is only the marker's start (wrapped reports that).
func begin(t string, no int, next []engine.Line) (b *Block, wrapped bool) {
	t = undash(t)
	m := beginMarker.FindStringSubmatch(t)
	if m == nil && len(next) > 0 && next[0].No == no+1 && beginStart.MatchString(t) {
		m = beginMarker.FindStringSubmatch(t + " " + undash(strings.TrimSpace(next[0].Text)))
		wrapped = m != nil
	}
	if m == nil {
		return nil, false
	}
	move, _ := strconv.Atoi(m[2])
	return &Block{GameID: strings.ToLower(m[1]), Move: move}, wrapped
}

// undash makes the dashes mail clients and phones make of typed "-" and
// "--" plain again (all of them start with the byte 0xE2 in UTF-8).
func undash(s string) string {
	if strings.IndexByte(s, 0xE2) < 0 {
		return s
	}
	return dashes.Replace(s)
}

var dashes = strings.NewReplacer("\u2010", "-", "\u2011", "-", "\u2012", "-", "\u2013", "-",
	"\u2212", "-", "\u2014", "--", "\u2015", "--")

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
