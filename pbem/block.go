package pbem

import (
	"crypto/sha256"
	"encoding/hex"
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
	// Quoted: the sender's client quoted the markers (and the KEY line)
	// of Herald's block, and he wrote the Lines between them himself.
	Quoted bool
	// BelowQuote: the block stands below the start of an earlier mail
	// its client did not mark with ">" (a "From: … Sent: …" header, an
	// "Original Message" line), read because nothing stood above it. It
	// may be the quoted mail's: PickBlock takes it only when it is not
	// Herald's own block, empty, or for an earlier move.
	BelowQuote bool
	// AllQuoted: the block's orders are quoted too, at the depth of its
	// markers, with none of the sender's own between them. It is what an
	// HTML mail program (Apple Mail, Gmail) makes of orders typed into
	// the quote, or Herald's own block quoted with its prefilled orders;
	// PickBlock takes it only as the one block of a mail, for the game's
	// current move, and when it is not a block Herald sent.
	AllQuoted bool
}

// Marker is the block's begin marker as Herald writes it.
func (b Block) Marker() string { return fmt.Sprintf(templates.BeginMarkerFormat, b.GameID, b.Move) }

// Fingerprint identifies what a block says: its game, move, key and
// orders (spacing and case aside, blank lines and comments left out), so
// that a block Herald sent can be known again when a reply quotes it. It
// is a hash: the daemon keeps fingerprints, not keys.
func (b Block) Fingerprint() string {
	h := sha256.New()
	fmt.Fprintf(h, "%s\x00%d\x00%s", b.GameID, b.Move, strings.ToUpper(strings.TrimSpace(b.Key)))
	for _, l := range b.Lines {
		text, _, _ := strings.Cut(l.Text, "#")
		if f := strings.Fields(strings.ToUpper(text)); len(f) > 0 {
			fmt.Fprintf(h, "\x00%s", strings.Join(f, " "))
		}
	}
	return hex.EncodeToString(h.Sum(nil)[:16])
}

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
// for each begin marker of his own without an end marker. It reads only
// what the sender wrote (readLines): quoted lines (">" at any depth),
// everything below a signature separator, and forwarded or quoted earlier
// mails are ignored (but when nothing stands above a quoted earlier mail
// its client did not mark, what is below it is read: Block.BelowQuote),
// with one exception: a block whose markers his mail
// client quoted, with lines he wrote himself (not quoted) between them, is
// his block of those lines (Block.Quoted). That is what pressing Reply and
// typing between the quoted markers makes. A quoted block whose quoted
// lines hold orders is returned as AllQuoted, for PickBlock to judge. A begin marker that a client
// wrapped onto two lines is read.
func FindBlocks(text string) ([]Block, []Problem) {
	f := scan(text)
	return f.blocks, f.problems
}

// finder is FindBlocks' state while it reads a mail's lines.
type finder struct {
	blocks   []Block
	problems []Problem
	// emptyQuoted are the begin markers of quoted blocks with no line of
	// the sender's between their markers (FindStray).
	emptyQuoted []int
	// quoted are the quoted lines of cur, a quoted block, at its depth.
	quoted  []engine.Line
	cur     *Block
	curText string // the begin marker as written
	depth   int    // the quote depth of cur's begin marker
}

func scan(text string) *finder {
	lines, stop := readLines(text, false)
	f := scanLines(lines)
	if stop > 0 && len(f.blocks) == 0 && len(f.problems) == 0 {
		// Nothing above the quoted earlier mail: the sender may have
		// written below it. PickBlock tells his block from the quote's.
		lines, _ = readLines(text, true)
		f = scanLines(lines)
		for i := range f.blocks {
			f.blocks[i].BelowQuote = f.blocks[i].Begin > stop
		}
	}
	return f
}

func scanLines(lines []mailLine) *finder {
	f := &finder{}
	for i := 0; i < len(lines); i++ {
		l := lines[i]
		if f.cur != nil && l.depth != 0 && l.depth != f.depth {
			continue // inside an own block, quoted text; else another quoted mail
		}
		t := strings.TrimSpace(l.Text)
		if b, wrapped := begin(t, l, lines[i+1:]); b != nil {
			f.open(b, l, t)
			if wrapped {
				i++
				f.curText += " " + strings.TrimSpace(lines[i].Text)
			}
			continue
		}
		if f.cur == nil {
			continue
		}
		if endMarker.MatchString(undash(t)) {
			f.close(l.No)
			continue
		}
		if m := keyLine.FindStringSubmatch(t); m != nil && f.cur.Key == "" {
			f.cur.Key = m[1]
			continue
		}
		if l.depth == 0 {
			f.cur.Lines = append(f.cur.Lines, engine.Line{No: l.No, Text: t})
		} else {
			f.quoted = append(f.quoted, engine.Line{No: l.No, Text: t})
		}
	}
	if f.cur != nil && f.depth == 0 {
		f.unterminated()
	}
	return f
}

// open starts a block at begin marker l. An own block still open is
// unterminated; a quoted one still open was only quoted text.
func (f *finder) open(b *Block, l mailLine, text string) {
	if f.cur != nil && f.depth == 0 {
		f.unterminated()
	}
	b.Begin, b.Quoted = l.No, l.depth > 0
	f.cur, f.curText, f.depth, f.quoted = b, text, l.depth, nil
}

// close ends the open block at line no. A quoted block is the sender's
// only when he wrote something between its markers.
func (f *finder) close(no int) {
	b := f.cur
	f.cur = nil
	if b.Quoted && !hasText(b.Lines) {
		f.emptyQuoted = append(f.emptyQuoted, b.Begin)
		if !hasOrders(f.quoted) {
			return
		}
		b.Lines, b.AllQuoted = f.quoted, true
	}
	b.End = no
	b.Command = command(b.Lines)
	f.blocks = append(f.blocks, *b)
}

func (f *finder) unterminated() {
	f.problems = append(f.problems, Problem{Line: f.cur.Begin, Text: f.curText,
		Reason: fmt.Sprintf("the order block that begins here has no end marker %q", templates.EndMarker)})
}

// hasText: some line is not blank.
func hasText(lines []engine.Line) bool {
	for _, l := range lines {
		if strings.TrimSpace(l.Text) != "" {
			return true
		}
	}
	return false
}

// begin reads a begin marker from t, the text of line l, or from t and
// the line after it when t is only the marker's start (wrapped reports
// that).
func begin(t string, l mailLine, next []mailLine) (b *Block, wrapped bool) {
	t = undash(t)
	m := beginMarker.FindStringSubmatch(t)
	if m == nil && len(next) > 0 && next[0].No == l.No+1 && next[0].depth == l.depth && beginStart.MatchString(t) {
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
