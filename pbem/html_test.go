package pbem

import (
	"bytes"
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/emersion/go-message"
)

func TestHTMLToText(t *testing.T) {
	for _, tc := range []struct{ name, html, want string }{
		{"br, p and div break lines", "<div>one<br>two</div><div>three</div><p>four</p>five", "one\ntwo\nthree\n\nfour\nfive\n"},
		{"entities and nbsp", "<p>ACTIVATE&nbsp;Alen&ccedil;on &#35; go &amp; win &lt;now&gt;</p>", "\nACTIVATE Alençon # go & win <now>\n"},
		{"white space collapses", "<div>  MOVE\n   MAA1 \t 1207 </div>", "MOVE MAA1 1207\n"},
		{"style, script, head and comments dropped",
			"<html><head><title>t</title><style>p {x:1}</style></head><body><script>alert(1)</script><!-- c --><div>END</div></body></html>", "END\n"},
		{"an unclosed head ends at body", "<head><meta charset=utf-8><body><div>END</div>", "END\n"},
		{"blockquote quoted per level", "<div>mine</div><blockquote>old<blockquote>older</blockquote>old again</blockquote>mine",
			"mine\n> old\n> > older\n> old again\nmine\n"},
		{"Gmail quote div", `<div dir="ltr">x</div><div class="gmail_quote"><div class="gmail_attr">On Tue, Herald wrote:<br></div><blockquote class="gmail_quote">y</blockquote></div>z`,
			"x\n> On Tue, Herald wrote:\n> y\nz\n"},
		{"Gmail quote split where the sender typed into it",
			`<div class="gmail_quote"><div class="gmail_attr">On Tue, Herald wrote:</div><blockquote class="gmail_quote">a<br>b</blockquote><div>mine</div><blockquote class="gmail_quote">c<blockquote>d</blockquote></blockquote></div>`,
			"> On Tue, Herald wrote:\n> a\n> b\nmine\n> c\n> > d\n"},
		{"Yahoo quote div", `<div>x</div><div id="yahoo_quoted_1" class="ydpyahoo_quoted"><div>y</div></div>`, "x\n> y\n"},
		{"pre kept", "<pre>ACTIVATE  Godfrey\nEND</pre>", "ACTIVATE  Godfrey\nEND\n"},
		{"table cells apart, rows on lines", "<table><tr><td>MOVE</td><td>MAA1</td></tr><tr><td>END</td></tr></table>", "MOVE MAA1\nEND\n"},
		{"lists", "<ul><li>END</li><li>PASS</li></ul>", "END\nPASS\n"},
		{"unbalanced end tags", "<div>a</blockquote></div></div>b", "a\nb\n"},
	} {
		if got := htmlToText(strings.NewReader(tc.html)); got != tc.want {
			t.Errorf("%s:\n got %q\nwant %q", tc.name, got, tc.want)
		}
	}
}

// Hostile nesting costs time in proportion to its size, not its square.
func TestHTMLDeepNesting(t *testing.T) {
	s := strings.Repeat("<blockquote><div>x", 50000) + strings.Repeat("</span>", 50000)
	got := htmlToText(strings.NewReader(s))
	if n := strings.Count(got, "\n"); n != 50000 {
		t.Errorf("%d lines", n)
	}
}

// In every multipart/alternative mail of the corpus the HTML part, read
// alone, yields the same orders as the text part Herald prefers.
func TestHTMLPartAgrees(t *testing.T) {
	files, _ := filepath.Glob(filepath.Join("testdata", "mail", "*.eml"))
	n := 0
	for _, f := range files {
		raw, _ := os.ReadFile(f)
		e, err := message.Read(bytes.NewReader(raw))
		if err != nil {
			continue
		}
		parts := map[string]string{}
		e.Walk(func(_ []int, p *message.Entity, _ error) error {
			typ, _, _ := p.Header.ContentType()
			if typ == "text/plain" || typ == "text/html" {
				b, _ := io.ReadAll(p.Body)
				parts[typ] = newlines.Replace(string(b))
			}
			return nil
		})
		if parts["text/plain"] == "" || parts["text/html"] == "" {
			continue
		}
		n++
		plain, _ := FindBlocks(parts["text/plain"])
		html, _ := FindBlocks(htmlToText(strings.NewReader(parts["text/html"])))
		if orders(plain) != orders(html) {
			t.Errorf("%s: text part %q, HTML part %q", f, orders(plain), orders(html))
		}
	}
	if n < 3 {
		t.Errorf("only %d mails with both parts", n)
	}
}

func orders(blocks []Block) string {
	var s []string
	for _, b := range blocks {
		s = append(s, b.Marker(), "KEY "+b.Key)
		for _, l := range b.Lines {
			if l.Text != "" {
				s = append(s, l.Text)
			}
		}
	}
	return strings.Join(s, "|")
}
