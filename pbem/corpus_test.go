package pbem

import (
	"errors"
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"
)

var update = flag.Bool("update", false, "rewrite testdata/mail/*.want from the code (review the diff!)")

// extraction is what Herald reads from a mail, in the form of the corpus'
// .want files: the sender, whether it is a robot, the route, every block
// with its non-blank lines, every problem, and the refusal a person's mail
// gets when it holds no single block (OneBlock) or cannot be read.
func extraction(eml string, raw []byte) string {
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
	known := knownFor(eml, m.Subject)
	id, via := Route(m, blocks, []string{"herald@club.example"})
	fmt.Fprintf(&b, "route: %s (%s)\n", id, via)
	if len(blocks) == 0 {
		b.WriteString("no block\n")
	}
	for _, bl := range blocks {
		quoted := ""
		if bl.Quoted && !bl.AllQuoted {
			quoted = " (markers quoted, lines the sender's)"
		}
		if bl.BelowQuote {
			quoted += " (below an unmarked quote)"
		}
		if bl.AllQuoted {
			quoted += " (quoted whole)"
		}
		fmt.Fprintf(&b, "block %s move %d key %s command %s%s\n", bl.GameID, bl.Move, bl.Key, bl.Command, quoted)
		for _, l := range bl.Lines {
			if l.Text != "" {
				fmt.Fprintf(&b, "  %d: %s\n", l.No, l.Text)
			}
		}
	}
	for _, p := range problems {
		fmt.Fprintf(&b, "problem line %d %q: %s\n", p.Line, p.Text, p.Reason)
	}
	picked, r := PickBlock(blocks, problems, known)
	if r != nil && m.Robot == "" && err == nil {
		fmt.Fprintf(&b, "refusal: %s\n", r.Code)
	}
	if r == nil && len(blocks) > 1 {
		fmt.Fprintf(&b, "picked: the block of lines %d-%d\n", picked.Begin, picked.End)
	}
	return b.String()
}

// knownFor is what the daemon would know of the game a corpus mail
// answers: its move, from the subject of the Herald mail it replies to
// ("[crecy-4f2a] Move 18 — …"), and the blocks Herald sent, from the
// sample's .sent file (the text of that Herald mail), if it has one.
func knownFor(eml string, subject string) Known {
	var k Known
	if m := subjectMove.FindStringSubmatch(subject); m != nil {
		k.Move, _ = strconv.Atoi(m[1])
	}
	if sent, err := os.ReadFile(strings.TrimSuffix(eml, ".eml") + ".sent"); err == nil {
		blocks, _ := FindBlocks(string(sent))
		for _, b := range blocks {
			k.Sent = append(k.Sent, b.Fingerprint())
		}
	}
	return k
}

var subjectMove = regexp.MustCompile(`\[[A-Za-z0-9._-]+\]\s*Move (\d+)`)

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
			got := extraction(f, raw)
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

// Issue 16, item 2: replies in the styles of real clients (Outlook on the
// desktop, the web and phones, Outlook.com with the date first, webmails
// and clients in a dozen languages with their own header names,
// attributions and separators, text and HTML-only, in their charsets),
// each quoting Herald's mail with its block, often with an older block of
// the player's below it, or Herald's prefilled block (the sample's .sent).
// The new block, and only it, is taken every time.
func TestReplyStyles(t *testing.T) {
	files, _ := filepath.Glob("testdata/mail/reply-*.eml")
	langs, htmlOnly := map[string]bool{}, 0
	for _, f := range files {
		raw, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		m, err := ReadMail(raw, ReadOptions{})
		if err != nil {
			t.Fatalf("%s: %v", f, err)
		}
		for _, part := range strings.Split(strings.TrimSuffix(filepath.Base(f), ".eml"), "-") {
			if len(part) == 2 {
				langs[part] = true
			}
		}
		if regexp.MustCompile(`(?m)^Content-Type: text/html`).Match(raw) && !strings.Contains(string(raw), "text/plain") {
			htmlOnly++
		}
		blocks, problems := FindBlocks(m.Text)
		k := knownFor(f, m.Subject)
		b, r := PickBlock(blocks, problems, k)
		if r != nil {
			t.Errorf("%s: refused (%s): %s", f, r.Code, r.Message)
			continue
		}
		// The quoted part carries a block: another one, or the one whose
		// quoted markers the player wrote between.
		if n := len(regexp.MustCompile(`(?m)^[> ]*--- herald orders:`).FindAllString(m.Text, -1)); n < 2 && !b.Quoted && !b.BelowQuote {
			t.Errorf("%s: %d begin markers: the quoted part carries no block", f, n)
		}
		var got []string
		for _, l := range b.Lines {
			if l.Text != "" {
				got = append(got, l.Text)
			}
		}
		if strings.Join(got, "; ") != "ACTIVATE Alencon; MOVE MA2 1308; END" || b.Move != k.Move || k.Move != 18 {
			t.Errorf("%s: took the block of move %d (lines %d-%d) %q, not the new one", f, b.Move, b.Begin, b.End, got)
		}
	}
	if len(files) < 30 || len(langs) < 6 || htmlOnly < 6 {
		t.Errorf("%d reply styles in %d languages, %d HTML-only; want at least 30, 6 and 6", len(files), len(langs), htmlOnly)
	}
}
