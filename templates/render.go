package templates

import (
	"bytes"
	"embed"
	"errors"
	"fmt"
	htmltemplate "html/template"
	"regexp"
	"strings"
	texttemplate "text/template"
	"unicode"
	"unicode/utf8"
)

// Kind names a kind of mail; each has one text and one HTML template file,
// <kind>.txt.tmpl and <kind>.html.tmpl.
type Kind string

const (
	KindWelcome  Kind = "welcome"  // Welcome: the game starts
	KindResult   Kind = "result"   // Result: orders were carried out
	KindDecision Kind = "decision" // Decision: a player must answer mid-turn
	KindRefusal  Kind = "refusal"  // Refusal: orders changed nothing
	KindReminder Kind = "reminder" // Reminder: the game waits too long
	KindGameOver Kind = "gameover" // GameOver: the battle has ended
	KindCheck    Kind = "check"    // Check: what orders would do, nothing changed
	KindNotice   Kind = "notice"   // Notice: an answer about no game's position
)

// Kinds lists every kind of mail.
func Kinds() []Kind {
	return []Kind{KindWelcome, KindResult, KindDecision, KindRefusal, KindReminder, KindGameOver, KindCheck, KindNotice}
}

// View is the data of one mail: Welcome, Result, Decision, Refusal,
// Reminder or GameOver (a closed set).
type View interface {
	Kind() Kind
	view()
}

func (Welcome) Kind() Kind  { return KindWelcome }
func (Result) Kind() Kind   { return KindResult }
func (Decision) Kind() Kind { return KindDecision }
func (Refusal) Kind() Kind  { return KindRefusal }
func (Reminder) Kind() Kind { return KindReminder }
func (GameOver) Kind() Kind { return KindGameOver }
func (Check) Kind() Kind    { return KindCheck }
func (Notice) Kind() Kind   { return KindNotice }

func (Welcome) view()  {}
func (Result) view()   {}
func (Decision) view() {}
func (Refusal) view()  {}
func (Reminder) view() {}
func (GameOver) view() {}
func (Check) view()    {}
func (Notice) view()   {}

// Mail is a rendered mail: its subject, its plain-text part (UTF-8, lines
// of at most Width columns outside order blocks and the dice section) and
// its HTML part (a whole document, inline CSS only, no external
// resources). The daemon adds the addresses, headers and the map PNG under
// the view's MapCID.
type Mail struct {
	Subject string
	Text    string
	HTML    string
}

//go:embed *.tmpl
var files embed.FS

type set struct {
	text *texttemplate.Template
	html *htmltemplate.Template
}

// sets holds the parsed templates of every kind. Parsing at start-up makes
// a broken template a failure of every test, not of a mail in production.
var sets = mustParse()

func mustParse() map[Kind]set {
	m := map[Kind]set{}
	for _, k := range Kinds() {
		t, err := texttemplate.New(string(k)).Funcs(textFuncs).ParseFS(files,
			layoutFor(k, "txt"), "partials.txt.tmpl", string(k)+".txt.tmpl")
		if err != nil {
			panic(fmt.Sprintf("templates: %s: %v", k, err))
		}
		h, err := htmltemplate.New(string(k)).Funcs(htmlFuncs).ParseFS(files,
			layoutFor(k, "html"), "partials.html.tmpl", string(k)+".html.tmpl")
		if err != nil {
			panic(fmt.Sprintf("templates: %s: %v", k, err))
		}
		m[k] = set{text: t, html: h}
	}
	return m
}

// layoutFor names the layout file of a kind: a Notice, which may go to
// someone who plays no game, has its own, without the players' footer.
func layoutFor(k Kind, ext string) string {
	if k == KindNotice {
		return "notice-layout." + ext + ".tmpl"
	}
	return "layout." + ext + ".tmpl"
}

var textFuncs = texttemplate.FuncMap{
	"wrap":     wrap,
	"hang":     hang,
	"heading":  heading,
	"title":    title,
	"inc":      func(i int) int { return i + 1 },
	"cite":     cite,
	"rolls":    rollRange,
	"plural":   plural,
	"against":  against,
	"sentence": sentence,
	"join":     strings.Join,
}

var htmlFuncs = htmltemplate.FuncMap{
	"sentence": sentence,
	"rolls":    rollRange,
	"plural":   plural,
	"code":     codeSpans,
	"join":     strings.Join,
	// cid makes the src of an inline image; html/template would refuse
	// the cid: scheme. The Content-ID is checked by validate.
	"cid": func(id string) htmltemplate.URL { return htmltemplate.URL("cid:" + id) },
}

// cite is "reason (rule)", or the reason alone without a rule.
func cite(reason, rule string) string {
	if rule == "" {
		return reason
	}
	return reason + " (" + rule + ")"
}

// rollRange names a batch's rolls by sequence number: "roll #41",
// "rolls #41-#43".
func rollRange(rs []RollView) string {
	switch len(rs) {
	case 0:
		return ""
	case 1:
		return fmt.Sprintf("roll #%d", rs[0].Seq)
	}
	return fmt.Sprintf("rolls #%d-#%d", rs[0].Seq, rs[len(rs)-1].Seq)
}

// Render renders one mail. It refuses data that would make a wrong mail
// (an order block for another game, a Content-ID that is not a token, a
// sender's unapplied orders in his opponent's copy) with an error that says
// which field is wrong.
func Render(v View) (Mail, error) {
	if v = deref(v); v == nil {
		return Mail{}, errors.New("templates: Render(nil)")
	}
	k := v.Kind()
	if err := validate(v); err != nil {
		return Mail{}, fmt.Errorf("templates: %s: %w", k, err)
	}
	s := sets[k]
	var subj, txt, html bytes.Buffer
	if err := s.text.ExecuteTemplate(&subj, "subject", v); err != nil {
		return Mail{}, fmt.Errorf("templates: %s subject: %w", k, err)
	}
	if err := s.text.ExecuteTemplate(&txt, "layout", v); err != nil {
		return Mail{}, fmt.Errorf("templates: %s text: %w", k, err)
	}
	if err := s.html.ExecuteTemplate(&html, "layout", v); err != nil {
		return Mail{}, fmt.Errorf("templates: %s html: %w", k, err)
	}
	return Mail{
		Subject: strings.Join(strings.Fields(subj.String()), " "),
		Text:    tidyText(txt.String()),
		HTML:    html.String(),
	}, nil
}

// deref turns a pointer to a view into the view.
func deref(v View) View {
	switch p := v.(type) {
	case *Welcome:
		if p == nil {
			return nil
		}
		return *p
	case *Result:
		if p == nil {
			return nil
		}
		return *p
	case *Decision:
		if p == nil {
			return nil
		}
		return *p
	case *Refusal:
		if p == nil {
			return nil
		}
		return *p
	case *Reminder:
		if p == nil {
			return nil
		}
		return *p
	case *GameOver:
		if p == nil {
			return nil
		}
		return *p
	case *Check:
		if p == nil {
			return nil
		}
		return *p
	case *Notice:
		if p == nil {
			return nil
		}
		return *p
	}
	return v
}

var token = regexp.MustCompile(`^[A-Za-z0-9][A-Za-z0-9._-]*$`)

// cidToken: a Content-ID's characters (RFC 2392 msg-id, without <>).
var cidToken = regexp.MustCompile(`^[A-Za-z0-9!#$%&'*+/=?^_{|}~.@-]+$`)

func validate(v View) error {
	var g Game
	var acc *Account
	var side string
	switch v := v.(type) {
	case Welcome:
		g, side = v.Game, v.Side
		for _, cid := range []string{v.MapCID, v.ArmyMapCID} {
			if cid != "" && !cidToken.MatchString(cid) {
				return fmt.Errorf("MapCID %q is not a Content-ID (without <>)", cid)
			}
		}
	case Result:
		g, side, acc = v.Game, v.Side, &v.Account
		if v.ToAct != (v.Block != nil) {
			return fmt.Errorf("ToAct is %v but Block is %v: the player who acts next, and only he, gets a block", v.ToAct, blockState(v.Block))
		}
	case Decision:
		g, side, acc = v.Game, v.Side, &v.Account
	case Refusal:
		g, side = v.Game, v.Side
	case Reminder:
		g, side = v.Game, v.Side
	case GameOver:
		g, side, acc = v.Game, v.Side, &v.Account
	case Check:
		g, side = v.Game, v.Side
	case Notice:
		return validateNotice(v)
	}
	if !token.MatchString(g.ID) {
		return fmt.Errorf("game ID %q: want letters, digits, '.', '_' or '-'", g.ID)
	}
	if side == "" {
		return errors.New("Side (the recipient's side) is empty")
	}
	if acc != nil {
		if acc.MapCID != "" && !cidToken.MatchString(acc.MapCID) {
			return fmt.Errorf("MapCID %q is not a Content-ID (without <>)", acc.MapCID)
		}
		if len(acc.NotApplied) > 0 && acc.Sender != side {
			return fmt.Errorf("NotApplied holds the %s's orders in the %s's copy: they go only to the sender", acc.Sender, side)
		}
		if len(acc.Kept) > 0 && acc.KeptSide != side {
			return fmt.Errorf("Kept holds the %s's orders in the %s's copy: they go only to their owner", acc.KeptSide, side)
		}
	}
	for _, b := range blocksOf(v) {
		if err := checkBlock(g, &b); err != nil {
			return err
		}
	}
	return nil
}

func validateNotice(n Notice) error {
	if n.GameID != "" && !token.MatchString(n.GameID) {
		return fmt.Errorf("game ID %q: want letters, digits, '.', '_' or '-'", n.GameID)
	}
	if n.About == "" {
		return errors.New("About (the subject) is empty")
	}
	if n.Block != nil {
		return checkBlock(Game{ID: n.GameID, Move: n.Block.Move}, n.Block)
	}
	return nil
}

func blockState(b *OrderBlock) string {
	if b == nil {
		return "nil"
	}
	return "set"
}

func checkBlock(g Game, b *OrderBlock) error {
	if b.GameID != g.ID {
		return fmt.Errorf("order block for game %q in a mail about game %q", b.GameID, g.ID)
	}
	if b.Move != g.Move {
		return fmt.Errorf("order block for move %d in a mail about move %d", b.Move, g.Move)
	}
	if b.Key == "" || strings.ContainsFunc(b.Key, isSpaceOrControl) {
		return fmt.Errorf("order block key %q: want one word", b.Key)
	}
	for i, l := range b.Prefill {
		if strings.ContainsAny(l, "\r\n") {
			return fmt.Errorf("order block line %d %q holds a line break", i+1, l)
		}
		if l == EndMarker || isBeginMarker(l) {
			return fmt.Errorf("order block line %d %q is a block marker", i+1, l)
		}
	}
	return nil
}

func isSpaceOrControl(r rune) bool { return r <= ' ' || r == 0x7f }

func beginMarker(id string, move int) string { return fmt.Sprintf(BeginMarkerFormat, id, move) }

// IsMarker reports whether a line would read as a marker in a block's
// Prefill, which Render refuses.
func IsMarker(l string) bool { return l == EndMarker || isBeginMarker(l) }

func isBeginMarker(l string) bool {
	return strings.HasPrefix(l, "--- herald orders:") && strings.HasSuffix(l, " ---")
}

// against is ", against X", or nothing when X is empty.
func against(x string) string {
	if x == "" {
		return ""
	}
	return ", against " + x
}

// sentence makes a sentence of a reason and its rule: "Godfrey has just
// completed its Activation (4.2)."
func sentence(reason, rule string) string {
	s := strings.TrimSpace(reason)
	if s == "" {
		return ""
	}
	r, n := utf8.DecodeRuneInString(s)
	s = string(unicode.ToUpper(r)) + s[n:]
	end := ""
	if !strings.ContainsAny(s[len(s)-1:], ".?!") {
		end = "."
	}
	if rule != "" {
		s += " (" + rule + ")"
	}
	return s + end
}

// plural is "1 roll", "2 rolls".
func plural(n int, noun string) string {
	if n == 1 {
		return "1 " + noun
	}
	return fmt.Sprintf("%d %ss", n, noun)
}

// codeStyle is how the HTML part shows orders and commands.
const codeStyle = "font-family:Menlo,Consolas,'DejaVu Sans Mono',monospace;font-size:0.9em;background-color:#f1ece0;padding:1px 4px;border-radius:3px;"

// codeSpans escapes s for HTML and shows the spans it quotes in backticks
// (`herald verify`) as code, as the text part shows them in backticks.
// Everything in s is escaped: only the <code> elements are markup.
func codeSpans(s string) htmltemplate.HTML {
	parts := strings.Split(s, "`")
	if len(parts)%2 == 0 { // an unpaired backtick: show it as it is
		return htmltemplate.HTML(htmltemplate.HTMLEscapeString(s))
	}
	var b strings.Builder
	for i, p := range parts {
		p = htmltemplate.HTMLEscapeString(p)
		if i%2 == 1 {
			p = `<code style="` + codeStyle + `">` + p + `</code>`
		}
		b.WriteString(p)
	}
	return htmltemplate.HTML(b.String())
}
