package templates

import (
	"flag"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"testing"
	"unicode/utf8"

	"golang.org/x/net/html"
)

var update = flag.Bool("update", false, "rewrite testdata/*.golden from the templates")

// TestGolden renders every sample and compares it with its golden files:
// testdata/<name>.txt.golden (the subject, a blank line, the text part)
// and testdata/<name>.html.golden. Run with -update to rewrite them, then
// read the diff.
func TestGolden(t *testing.T) {
	seen := map[Kind]bool{}
	for _, s := range samples() {
		t.Run(s.name, func(t *testing.T) {
			seen[s.view.Kind()] = true
			m, err := Render(s.view)
			if err != nil {
				t.Fatalf("Render: %v", err)
			}
			golden(t, s.name+".txt.golden", "Subject: "+m.Subject+"\n\n"+m.Text)
			golden(t, s.name+".html.golden", m.HTML)
		})
	}
	for _, k := range Kinds() {
		if !seen[k] {
			t.Errorf("no golden sample of kind %s", k)
		}
	}
}

func golden(t *testing.T, name, got string) {
	t.Helper()
	path := filepath.Join("testdata", name)
	if *update {
		if err := os.WriteFile(path, []byte(got), 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	want, err := os.ReadFile(path)
	if err != nil {
		t.Fatalf("%v (run go test ./templates/ -update to create it)", err)
	}
	if got != string(want) {
		t.Errorf("%s differs from the rendered mail (run with -update and read the diff):\n%s", path, firstDiff(string(want), got))
	}
}

// firstDiff shows the first line where want and got part.
func firstDiff(want, got string) string {
	w, g := strings.Split(want, "\n"), strings.Split(got, "\n")
	for i := 0; i < len(w) || i < len(g); i++ {
		var wl, gl string
		if i < len(w) {
			wl = w[i]
		}
		if i < len(g) {
			gl = g[i]
		}
		if wl != gl {
			return "line " + strconv.Itoa(i+1) + ":\n want: " + wl + "\n  got: " + gl
		}
	}
	return ""
}

// TestTextWidth: every line of every text part is at most Width columns,
// except inside an order block and in the dice section (which hold hashes
// and signatures that are never wrapped).
func TestTextWidth(t *testing.T) {
	for _, s := range samples() {
		m, err := Render(s.view)
		if err != nil {
			t.Fatalf("%s: %v", s.name, err)
		}
		inBlock, inDice := false, false
		for i, l := range strings.Split(m.Text, "\n") {
			switch {
			case isBeginMarker(l):
				inBlock = true
			case l == EndMarker:
				inBlock = false
				continue
			case l == "Dice verification", l == "-----BEGIN HERALD DICE-----":
				inDice = true
			case l == "-- ":
				inDice = false
			case l == "-----END HERALD DICE-----":
				inDice = false
				continue
			}
			if inBlock || inDice {
				continue
			}
			if n := utf8.RuneCountInString(l); n > Width {
				t.Errorf("%s: text line %d has %d columns:\n%s", s.name, i+1, n, l)
			}
		}
	}
}

// TestBlock: both parts carry the order block exactly as OrderBlock.Text
// prints it, and the text part does not wrap it.
func TestBlock(t *testing.T) {
	b := OrderBlock{GameID: "crecy-4f2a", Move: 18, Key: "K7Q2-M9XD-4RTA",
		Prefill: []string{"ACTIVATE Godfrey", "END", "CONTINUE Edward  # a long comment that runs well past the seventy-second column"}}
	want := "--- herald orders: crecy-4f2a move 18 ---\nKEY K7Q2-M9XD-4RTA\nACTIVATE Godfrey\nEND\n" +
		"CONTINUE Edward  # a long comment that runs well past the seventy-second column\n--- end orders ---\n"
	if got := b.Text(); got != want {
		t.Fatalf("Text() = %q, want %q", got, want)
	}
	empty := OrderBlock{GameID: "g", Move: 1, Key: "k"}
	if got, want := empty.Text(), "--- herald orders: g move 1 ---\nKEY k\n\n--- end orders ---\n"; got != want {
		t.Errorf("Text() without prefill = %q, want %q", got, want)
	}

	g := crecy(18)
	m, err := Render(Reminder{Game: g, Side: english, Next: "English to activate", Waiting: waitingEnglishFree,
		Since: "yesterday", Block: OrderBlock{GameID: g.ID, Move: 18, Key: b.Key, Prefill: b.Prefill}})
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(m.Text, "\n"+want) {
		t.Errorf("text part lacks the block as printed by Text:\n%s", m.Text)
	}
	if !strings.Contains(htmlText(t, m.HTML, "pre"), want) {
		t.Errorf("HTML <pre> does not hold the block as printed by Text:\n%s", m.HTML)
	}
}

// htmlText parses doc and returns the text of its elements named tag.
func htmlText(t *testing.T, doc, tag string) string {
	t.Helper()
	n, err := html.Parse(strings.NewReader(doc))
	if err != nil {
		t.Fatal(err)
	}
	var b strings.Builder
	var walk func(*html.Node, bool)
	walk = func(n *html.Node, in bool) {
		if n.Type == html.ElementNode && n.Data == tag {
			in = true
		}
		if in && n.Type == html.TextNode {
			b.WriteString(n.Data)
		}
		for c := n.FirstChild; c != nil; c = c.NextSibling {
			walk(c, in)
		}
	}
	walk(n, false)
	return b.String()
}

// hostile strings stand in for anything a player can put into a mail:
// his name and address, a refused line, a reason quoting it.
var hostile = []string{
	`<script>alert(1)</script>`,
	`"><img src=x onerror=alert(1)>`,
	`Fish & Chips <b>bold</b> 'quoted' "double"`,
	`javascript:alert(1)`,
	"`<b onmouseover=alert(1)>`x` & `y",
}

// TestHostileHTML puts hostile strings into every field a player controls
// and checks that the HTML part holds no element, attribute or URL of
// theirs, that the text is still there once unescaped, and that the text
// part prints it raw.
func TestHostileHTML(t *testing.T) {
	for _, h := range hostile {
		g := crecy(4)
		g.Battle = "Crécy " + h
		g.Sides[0].Name, g.Sides[0].Player = "English"+h, "alice"+h+"@example.org"
		g.Sides[1].Player = h
		acc := move3(true)
		acc.Sender = g.Sides[0].Name
		acc.Lines = append(acc.Lines, Narrative{Text: "The English say " + h, Roll: &RollView{Seq: 9, Purpose: h, Die: 3,
			Mods: []ModView{{DRM: 1, Reason: h, Rule: h}}, Total: 4, Against: h, Result: h}})
		acc.NotApplied[0].Line, acc.NotApplied[0].Reason = h, h
		acc.Dice.Rolls = append(acc.Dice.Rolls, RollView{Seq: 9, Purpose: h, Die: 3})
		acc.Dice.VerifyHint = h
		blk := OrderBlock{GameID: g.ID, Move: 4, Key: "K", Prefill: []string{h}}
		views := []View{
			Welcome{Game: g, Side: g.Sides[0].Name, Player: h, Key: "K", FirstToAct: g.Sides[0].Name,
				Legal: []string{h}, Block: blk, OrdersHelp: []string{h}, PublicKey: h, Commitment: h},
			Result{Game: g, Account: acc, Side: g.Sides[0].Name, Next: h, Waiting: h, ToAct: true, Block: &blk, Legal: []string{h}},
			Decision{Game: g, Account: acc, Side: g.Sides[0].Name, Next: h, Question: h, Legal: []string{h}, Block: blk, StandingHint: h},
			Refusal{Game: g, Side: g.Sides[0].Name, Cause: RefusedParse, LineNo: 1, Line: h, Reason: h, Rule: h, Hint: h,
				Legal: []string{h}, Waiting: h, Block: &blk},
			Reminder{Game: g, Side: g.Sides[0].Name, Next: h, Waiting: h, Since: h, Legal: []string{h}, Block: blk},
			GameOver{Game: g, Account: acc, Side: g.Sides[0].Name, Winner: h, Outcome: h, DiceLog: h},
		}
		for _, v := range views {
			m, err := Render(v)
			if err != nil {
				t.Fatalf("%s with %q: %v", v.Kind(), h, err)
			}
			checkHTML(t, v.Kind(), h, m.HTML)
			if !strings.Contains(m.Text, h) {
				t.Errorf("%s with %q: the text part does not print it raw:\n%s", v.Kind(), h, m.Text)
			}
			if strings.Contains(m.Text, "&lt;") || strings.Contains(m.Text, "&amp;") || strings.Contains(m.Text, "&#") {
				t.Errorf("%s with %q: the text part is HTML-escaped:\n%s", v.Kind(), h, m.Text)
			}
			if strings.ContainsAny(m.Subject, "\r\n") {
				t.Errorf("%s: subject %q holds a line break", v.Kind(), m.Subject)
			}
		}
	}
}

// allowedTags are the elements the templates write; anything else in a
// rendered part came from the data.
var allowedTags = map[string]bool{
	"html": true, "head": true, "meta": true, "title": true, "body": true, "div": true, "p": true,
	"h1": true, "h2": true, "ol": true, "ul": true, "li": true, "table": true, "tbody": true, "tr": true,
	"td": true, "strong": true, "span": true, "code": true, "pre": true, "br": true, "img": true,
}

var allowedAttrs = map[string]bool{
	"lang": true, "charset": true, "name": true, "content": true, "style": true, "role": true,
	"cellpadding": true, "cellspacing": true, "colspan": true, "src": true, "alt": true, "width": true,
}

func checkHTML(t *testing.T, k Kind, h, doc string) {
	t.Helper()
	root, err := html.Parse(strings.NewReader(doc))
	if err != nil {
		t.Fatalf("%s: %v", k, err)
	}
	found := false
	var walk func(*html.Node)
	walk = func(n *html.Node) {
		switch n.Type {
		case html.ElementNode:
			if !allowedTags[n.Data] {
				t.Errorf("%s with %q: element <%s> in the HTML part", k, h, n.Data)
			}
			for _, a := range n.Attr {
				if !allowedAttrs[a.Key] {
					t.Errorf("%s with %q: attribute %s=%q on <%s>", k, h, a.Key, a.Val, n.Data)
				}
				if a.Key == "src" && !strings.HasPrefix(a.Val, "cid:") {
					t.Errorf("%s with %q: <%s src=%q>: only cid: images", k, h, n.Data, a.Val)
				}
				if strings.Contains(a.Val, h) {
					t.Errorf("%s with %q: it reached attribute %s of <%s>", k, h, a.Key, n.Data)
				}
			}
		case html.TextNode:
			found = found || strings.Contains(n.Data, h)
		}
		for c := n.FirstChild; c != nil; c = c.NextSibling {
			walk(c)
		}
	}
	walk(root)
	if !found {
		t.Errorf("%s with %q: the string is not in the HTML text once unescaped", k, h)
	}
	if strings.Contains(doc, "<script") || strings.Contains(doc, "onerror=") && !strings.Contains(doc, "onerror=alert(1)&gt;") {
		t.Errorf("%s with %q: raw markup in the HTML part", k, h)
	}
}

// TestNoExternalResources: no http(s) URL, <link>, <style> or <script> in
// any HTML part, and the map only by cid:.
func TestNoExternalResources(t *testing.T) {
	for _, s := range samples() {
		m, err := Render(s.view)
		if err != nil {
			t.Fatal(err)
		}
		for _, bad := range []string{"http:", "https:", "<link", "<style", "<script", "url("} {
			if strings.Contains(m.HTML, bad) {
				t.Errorf("%s: HTML part contains %q", s.name, bad)
			}
		}
	}
}

func TestMapOnlyWithCID(t *testing.T) {
	r := samples()[4].view.(Result)
	m, err := Render(r)
	if err != nil {
		t.Fatal(err)
	}
	if want := `src="cid:` + r.MapCID + `"`; !strings.Contains(m.HTML, want) {
		t.Errorf("HTML part lacks %s", want)
	}
	if !strings.Contains(m.Text, "map of the battlefield after these orders is attached") {
		t.Errorf("text part does not say the map is attached:\n%s", m.Text)
	}
	r.MapCID = ""
	m, err = Render(r)
	if err != nil {
		t.Fatal(err)
	}
	if strings.Contains(m.HTML, "<img") || strings.Contains(m.Text, "attached") {
		t.Errorf("map mentioned without MapCID")
	}
}

// TestNonActorHasNoBlock: the player who does not act gets no key.
func TestNonActorHasNoBlock(t *testing.T) {
	for _, s := range samples() {
		r, ok := s.view.(Result)
		if !ok || r.ToAct {
			continue
		}
		m, err := Render(r)
		if err != nil {
			t.Fatal(err)
		}
		for _, k := range keys {
			if strings.Contains(m.Text, k) || strings.Contains(m.HTML, k) {
				t.Errorf("%s: a key is in the mail of a player who does not act", s.name)
			}
		}
		if strings.Contains(m.Text, "--- herald orders") {
			t.Errorf("%s: an order block in the mail of a player who does not act", s.name)
		}
	}
}

func TestRenderRefuses(t *testing.T) {
	ok := samples()[4].view.(Result)
	cases := []struct {
		name string
		v    View
		want string
	}{
		{"nil", nil, "Render(nil)"},
		{"nil pointer", (*Result)(nil), "Render(nil)"},
		{"game id", func() View { r := ok; r.ID = "crecy 4f2a]"; return r }(), "game ID"},
		{"no side", func() View { r := ok; r.Side = ""; return r }(), "Side"},
		{"block without ToAct", func() View { r := ok; r.ToAct = false; return r }(), "ToAct"},
		{"ToAct without block", func() View { r := ok; r.Block = nil; return r }(), "ToAct"},
		{"other game", func() View { r := ok; r.Block = &OrderBlock{GameID: "agincourt-1", Move: 4, Key: "K"}; return r }(), "game"},
		{"other move", func() View { r := ok; r.Block = &OrderBlock{GameID: r.ID, Move: 3, Key: "K"}; return r }(), "move 3"},
		{"key with space", func() View { r := ok; r.Block = &OrderBlock{GameID: r.ID, Move: 4, Key: "a b"}; return r }(), "key"},
		{"marker in prefill", func() View {
			r := ok
			r.Block = &OrderBlock{GameID: r.ID, Move: 4, Key: "K", Prefill: []string{EndMarker}}
			return r
		}(), "marker"},
		{"newline in prefill", func() View {
			r := ok
			r.Block = &OrderBlock{GameID: r.ID, Move: 4, Key: "K", Prefill: []string{"END\nPASS"}}
			return r
		}(), "line break"},
		{"bad cid", func() View { r := ok; r.MapCID = `x" onerror="alert(1)`; return r }(), "MapCID"},
		{"plans to the opponent", func() View {
			r := sampleNamed(t, "result-french-waits").(Result)
			r.Side = english
			return r
		}(), "NotApplied"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			_, err := Render(c.v)
			if err == nil || !strings.Contains(err.Error(), c.want) {
				t.Errorf("Render = %v, want an error about %q", err, c.want)
			}
		})
	}
	if _, err := Render(&ok); err != nil {
		t.Errorf("Render(&Result) = %v", err)
	}
}

// TestConcurrent: templates are shared; rendering from many goroutines is
// safe (run with -race).
func TestConcurrent(t *testing.T) {
	var wg sync.WaitGroup
	for range 8 {
		for _, s := range samples() {
			wg.Add(1)
			go func() {
				defer wg.Done()
				if _, err := Render(s.view); err != nil {
					t.Error(err)
				}
			}()
		}
	}
	wg.Wait()
}

// TestRefusalSubjects: every kind of refusal says in its subject what went
// wrong, and keeps the game tag first.
func TestRefusalSubjects(t *testing.T) {
	seen := map[string]RefusalKind{}
	for _, c := range []RefusalKind{RefusedParse, RefusedIllegal, RefusedStale, RefusedTurn, RefusedNoBlock, RefusedKey, RefusedOver} {
		m, err := Render(Refusal{Game: crecy(4), Side: english, Cause: c, LineNo: 2, Line: "END", Reason: "because"})
		if err != nil {
			t.Fatal(err)
		}
		if !strings.HasPrefix(m.Subject, "[crecy-4f2a] Move 4 — ") {
			t.Errorf("%s: subject %q", c, m.Subject)
		}
		if other, dup := seen[m.Subject]; dup {
			t.Errorf("%s and %s have the same subject %q", c, other, m.Subject)
		}
		seen[m.Subject] = c
	}
}

// sampleNamed is one of the samples by its name.
func sampleNamed(t *testing.T, name string) View {
	t.Helper()
	for _, s := range samples() {
		if s.name == name {
			return s.view
		}
	}
	t.Fatalf("no sample %q", name)
	return nil
}
