package pbem

import (
	"errors"
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

var update = flag.Bool("update", false, "rewrite testdata/mail/*.want from the code (review the diff!)")

// extraction is what Herald reads from a mail, in the form of the corpus'
// .want files: the sender, whether it is a robot, the route, every block
// with its non-blank lines, every problem, and the refusal a person's mail
// gets when it holds no single block (OneBlock) or cannot be read.
func extraction(raw []byte) string {
	var b strings.Builder
	m, err := ReadMail(raw, ReadOptions{Self: []string{"herald@club.example"}})
	var me *MailError
	if errors.As(err, &me) {
		fmt.Fprintf(&b, "error: %s\nrefusal: %s\n", me.Reason, ReadRefusal(err).Code)
		m = me.Mail
	}
	if m == nil {
		return b.String()
	}
	fmt.Fprintf(&b, "from: %s\nsubject: %s\n", m.From, m.Subject)
	if m.Robot != "" {
		fmt.Fprintf(&b, "robot: %s\n", m.Robot)
	}
	blocks, problems := FindBlocks(m.Text)
	id, via := Route(m, blocks, []string{"herald@club.example"})
	fmt.Fprintf(&b, "route: %s (%s)\n", id, via)
	if len(blocks) == 0 {
		b.WriteString("no block\n")
	}
	for _, bl := range blocks {
		fmt.Fprintf(&b, "block %s move %d key %s command %s\n", bl.GameID, bl.Move, bl.Key, bl.Command)
		for _, l := range bl.Lines {
			if l.Text != "" {
				fmt.Fprintf(&b, "  %d: %s\n", l.No, l.Text)
			}
		}
	}
	for _, p := range problems {
		fmt.Fprintf(&b, "problem line %d %q: %s\n", p.Line, p.Text, p.Reason)
	}
	if _, r := OneBlock(blocks, problems); r != nil && m.Robot == "" && err == nil {
		fmt.Fprintf(&b, "refusal: %s\n", r.Code)
	}
	return b.String()
}

// Every message of the corpus, as a mail client writes it, extracts
// exactly the intended orders, or the intended nothing.
func TestCorpus(t *testing.T) {
	files, err := filepath.Glob("testdata/mail/*.eml")
	if err != nil || len(files) < 20 {
		t.Fatalf("corpus: %d files, %v", len(files), err)
	}
	for _, f := range files {
		t.Run(filepath.Base(f), func(t *testing.T) {
			raw, err := os.ReadFile(f)
			if err != nil {
				t.Fatal(err)
			}
			got := extraction(raw)
			want := strings.TrimSuffix(f, ".eml") + ".want"
			if *update {
				os.WriteFile(want, []byte(got), 0o644)
				return
			}
			w, err := os.ReadFile(want)
			if err != nil {
				t.Fatal(err)
			}
			if got != string(w) {
				t.Errorf("extraction of %s:\n--- got\n%s--- want\n%s", f, got, w)
			}
		})
	}
}
