package pbem

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

func corpusSeeds(f *testing.F) {
	files, _ := filepath.Glob(filepath.Join("testdata", "mail", "*.eml"))
	for _, file := range files {
		if b, err := os.ReadFile(file); err == nil {
			f.Add(b)
		}
	}
}

// Any bytes: ReadMail never panics, and either reads a mail or says why
// not with a *MailError.
func FuzzReadMail(f *testing.F) {
	corpusSeeds(f)
	f.Fuzz(func(t *testing.T, raw []byte) {
		m, err := ReadMail(raw, ReadOptions{MaxBytes: 1 << 16, Self: []string{"herald@club.example"}})
		if err != nil {
			if _, ok := err.(*MailError); !ok {
				t.Fatalf("error of type %T: %v", err, err)
			}
			return
		}
		if strings.Contains(m.Text, "\r\n") {
			t.Error("Text keeps CRLF")
		}
		FindBlocks(m.Text)
	})
}

// Any text: every block's lines lie between its markers, none is quoted,
// and the KEY line is never among them.
func FuzzFindBlocks(f *testing.F) {
	f.Add("--- herald orders: crecy-4f2a move 17 ---\nKEY K\nACTIVATE Godfrey\n--- end orders ---\n")
	f.Add("> --- herald orders: g move 1 ---\n> END\n> --- end orders ---\n--- herald orders: g move 2 ---\n")
	f.Add("--- herald orders: g move 1 ---\n-- \n--- end orders ---\n")
	f.Fuzz(func(t *testing.T, text string) {
		blocks, problems := FindBlocks(text)
		n := len(strings.Split(strings.ReplaceAll(text, "\r\n", "\n"), "\n"))
		for _, b := range blocks {
			for _, l := range b.Lines {
				if l.No <= b.Begin || l.No > n {
					t.Fatalf("line %d outside block beginning at %d (text of %d lines)", l.No, b.Begin, n)
				}
				if strings.HasPrefix(l.Text, ">") {
					t.Fatalf("quoted line %q in a block", l.Text)
				}
				if keyLine.MatchString(l.Text) && b.Key == "" {
					t.Fatalf("KEY line %q kept as an order", l.Text)
				}
			}
		}
		for _, p := range problems {
			if p.Line < 1 || p.Line > n {
				t.Fatalf("problem at line %d of %d", p.Line, n)
			}
		}
	})
}
