package pbem

import (
	"errors"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

// corpus returns the raw mails of testdata/mail.
func corpus(tb testing.TB) [][]byte {
	files, _ := filepath.Glob(filepath.Join("testdata", "mail", "*.eml"))
	var out [][]byte
	for _, file := range files {
		b, err := os.ReadFile(file)
		if err != nil {
			tb.Fatal(err)
		}
		out = append(out, b)
	}
	return out
}

// Any bytes: ReadMail never panics, and either reads a mail or says why
// not with a *MailError; the text has LF line ends and its blocks hold.
func FuzzReadMail(f *testing.F) {
	for _, raw := range corpus(f) {
		f.Add(raw)
	}
	f.Fuzz(func(t *testing.T, raw []byte) {
		m, err := ReadMail(raw, ReadOptions{MaxBytes: 1 << 16, Self: []string{"herald@club.example"}})
		if err != nil {
			var me *MailError
			if !errors.As(err, &me) {
				t.Fatalf("error of type %T: %v", err, err)
			}
			if me.TooLarge != (len(raw) > 1<<16) {
				t.Fatalf("TooLarge %v for %d bytes", me.TooLarge, len(raw))
			}
			return
		}
		if strings.ContainsRune(m.Text, '\r') {
			t.Error("Text keeps CR")
		}
		if m.Size != len(raw) {
			t.Errorf("Size %d of %d bytes", m.Size, len(raw))
		}
		checkBlocks(t, m.Text)
	})
}

// Any text: every block's lines lie strictly between its markers, none is
// quoted, the KEY line is not among them, problems point at real lines.
func FuzzFindBlocks(f *testing.F) {
	f.Add("--- herald orders: crecy-4f2a move 17 ---\nKEY K\nACTIVATE Godfrey\n--- end orders ---\n")
	f.Add("> --- herald orders: g move 1 ---\n> END\n> --- end orders ---\n--- herald orders: g move 2 ---\n")
	f.Add("--- herald orders: g move 1 ---\n-- \n--- end orders ---\n")
	f.Add("--- herald orders: g\nmove 1 ---\n\u00a0> x\nOn Mon, A wrote:\n> y\n\u2014 end orders \u2014\n")
	for _, raw := range corpus(f) {
		if m, err := ReadMail(raw, ReadOptions{}); err == nil {
			f.Add(m.Text)
		}
	}
	f.Fuzz(func(t *testing.T, text string) { checkBlocks(t, text) })
}

func checkBlocks(t *testing.T, text string) {
	blocks, problems := FindBlocks(text)
	n := len(strings.Split(strings.ReplaceAll(text, "\r\n", "\n"), "\n"))
	for _, b := range blocks {
		if b.Begin < 1 || b.End <= b.Begin || b.End > n {
			t.Fatalf("block from line %d to %d in a text of %d lines", b.Begin, b.End, n)
		}
		for _, l := range b.Lines {
			if l.No <= b.Begin || l.No >= b.End {
				t.Fatalf("line %d outside the block from %d to %d", l.No, b.Begin, b.End)
			}
			if strings.HasPrefix(l.Text, ">") {
				t.Fatalf("quoted line %q in a block", l.Text)
			}
			if b.Key != "" && keyLine.MatchString(l.Text) && strings.HasSuffix(l.Text, b.Key) && l.No < firstLine(b) {
				t.Fatalf("KEY line %q kept as an order", l.Text)
			}
		}
		if b.GameID != strings.ToLower(b.GameID) || b.Move < 0 {
			t.Fatalf("block %q move %d", b.GameID, b.Move)
		}
	}
	for _, p := range problems {
		if p.Line < 1 || p.Line > n {
			t.Fatalf("problem at line %d of %d", p.Line, n)
		}
	}
	b, r := OneBlock(blocks, problems)
	if len(blocks) <= 1 && (r == nil) != (len(blocks) == 1) && !(r != nil && (blocks[0].BelowQuote || blocks[0].AllQuoted)) {
		t.Fatalf("OneBlock refusal %v for %d blocks", r, len(blocks))
	}
	if r == nil && !slices.ContainsFunc(blocks, func(x Block) bool { return x.Begin == b.Begin }) {
		t.Fatalf("OneBlock picked a block at line %d that FindBlocks did not find", b.Begin)
	}
	s := FindStray(text)
	for _, l := range s.Orders {
		if l.No < 1 || l.No > n || strings.HasPrefix(l.Text, ">") {
			t.Fatalf("stray order %+v in a text of %d lines", l, n)
		}
	}
}

// firstLine is the number of a block's first kept line, or its end.
func firstLine(b Block) int {
	if len(b.Lines) > 0 {
		return b.Lines[0].No
	}
	return b.End
}
