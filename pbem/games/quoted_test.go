package games

import (
	"bytes"
	"encoding/base64"
	"fmt"
	"html"
	"io"
	"mime"
	"mime/multipart"
	"mime/quotedprintable"
	"net/mail"
	"strings"
	"testing"
	"time"

	"herald/pbem"
	"herald/pbem/mailbox"
	"herald/templates"
)

// Issue 16, item 2, through the daemon on the embedded IMAP and SMTP
// servers: a player replies above an earlier mail his client quoted
// without ">", under a header Herald does not know (Swedish Outlook, the
// date-first header of Outlook.com in an HTML-only mail). The quoted
// blocks (Herald's own prefilled block, a block for an earlier move) are
// not counted as his: his new block is carried out. When two blocks of
// his own remain, the refusal names the lines of each. These steps fail
// if PickBlock left out no block by what it says (its move, or a
// fingerprint of a block Herald sent); the English Outlook step is also
// caught by the known "From:/Sent:" header.
func TestReplyQuotingAnOlderBlockUnmarked(t *testing.T) {
	const game = "crecy-quoted"
	w := newWorld(t, "alice", "bob")
	w.start(nil)
	w.newGame(game, "alice", "bob")
	w.settle()
	batches := func() int {
		t.Helper()
		s, err := w.service().Summary(game)
		if err != nil {
			t.Fatal(err)
		}
		return int(s.Chain.Batches)
	}
	welcome := w.inbox("bob")[0] // the French act first at Crécy
	herald := welcome.From
	keyOf := func(player string) string {
		t.Helper()
		b, _ := pbem.FindBlocks(w.inbox(player)[0].Text)
		if len(b) != 1 || b[0].Key == "" {
			t.Fatalf("%s's welcome holds no block with a key", player)
		}
		return b[0].Key
	}
	bobKey, aliceKey := keyOf("bob"), keyOf("alice")
	n := 0
	mailOf := func(player, subject, text, htmlBody string) mailbox.Outgoing {
		n++
		return mailbox.Outgoing{From: player + "@localhost", To: []string{herald}, Subject: subject, Date: time.Now().UTC(),
			MessageID: fmt.Sprintf("quoted-%d-%s@localhost", n, player), Text: text, HTML: htmlBody}
	}
	blockText := func(key string, move int, lines ...string) string {
		return templates.OrderBlock{GameID: game, Move: move, Key: key, Prefill: lines}.Text()
	}

	// A refusal, whose block Herald prefilled with the refused lines.
	w.send(mailOf("bob", "Re: "+welcome.Subject, "Here you go.\n\n"+blockText(bobKey, 1, "ACTIVATE Dorja", "END")+"\nBob\n", ""))
	refusal := quotedLatest(t, w, "bob", "refused")
	if b, _ := pbem.FindBlocks(refusal.Text); len(b) != 1 || blockLines(b[0]) != "ACTIVATE Dorja; END" {
		t.Fatalf("the refusal's block is not prefilled with the refused lines: %+v", b)
	}
	swedish := func(above string) string {
		return above + "\nHälsningar\nBob\n\nFrån: Herald <" + herald + ">\nSkickat: den 3 mars 2026 19:40\nTill: bob@localhost\nÄmne: " +
			refusal.Subject + "\n\n" + refusal.Text
	}

	// Two blocks of his own for the current move above the quoted
	// refusal: refused, naming the lines of his two blocks only.
	two := swedish(blockText(bobKey, 1, "ACTIVATE Doria", "END") + "\n" + blockText(bobKey, 1, "ACTIVATE Grimaldi", "END"))
	w.send(mailOf("bob", "SV: "+refusal.Subject, two, ""))
	several := quotedLatest(t, w, "bob", "")
	text := flat(several.Subject + " " + several.Text)
	spans := quotedSpans(two, 2)
	for _, want := range []string{"2 order blocks", fmt.Sprintf("lines %d-%d (move 1)", spans[0][0], spans[0][1]),
		fmt.Sprintf("lines %d-%d (move 1)", spans[1][0], spans[1][1])} {
		if !strings.Contains(text, want) {
			t.Errorf("the refusal of two blocks does not say %q:\n%s\n%s", want, several.Subject, several.Text)
		}
	}
	if got := batches(); got != 0 {
		t.Fatalf("a mail with two blocks of the player's own was carried out (%d batches)", got)
	}

	// Swedish Outlook: his new block above the quoted refusal, whose
	// prefilled block is for the current move too, and is Herald's.
	mine := swedish(blockText(bobKey, 1, "ACTIVATE Doria", "END"))
	w.send(mailOf("bob", "SV: "+refusal.Subject, mine, ""))
	if got := batches(); got != 1 {
		m := quotedLatest(t, w, "bob", "")
		t.Fatalf("the new block above the quoted refusal was not carried out (%d batches); Herald answered %q:\n%s", got, m.Subject, m.Text)
	}
	result := quotedLatest(t, w, "bob", "")
	if strings.Contains(result.Subject, "refused") || !strings.Contains(flat(result.Text), "The French activate Doria") {
		t.Fatalf("Herald answered %q:\n%s", result.Subject, result.Text)
	}

	// Outlook.com, HTML only, with its date-first header: the new block
	// for move 2 above Herald's result (its empty block for move 2), and
	// below that the player's own earlier mail with his block for move 1.
	var own []string
	for _, l := range strings.Split(strings.TrimRight(blockText(bobKey, 2, "PASS"), "\n"), "\n") {
		own = append(own, `<div style="font-family: Calibri, Helvetica, sans-serif; font-size: 12pt;">`+html.EscapeString(l)+`</div>`)
	}
	var earlier []string
	for _, l := range strings.Split(strings.TrimRight(mine, "\n"), "\n") {
		earlier = append(earlier, html.EscapeString(l))
	}
	body := `<html><head><style type="text/css" style="display:none;"> P {margin-top:0;margin-bottom:0;} </style></head><body dir="ltr">` + "\n" +
		strings.Join(own, "\n") + "\n<div><br></div><div>Bob</div><div><br></div>\n" +
		`<hr id="stopSpelling">` + "\nDate: Tue, 3 Mar 2026 20:40:00 +0000<br>\nFrom: " + html.EscapeString(herald) + "<br>\nTo: bob@localhost<br>\nSubject: " +
		html.EscapeString(result.Subject) + "<br>\n<br>\n<div dir=\"ltr\">" + quotedHTMLBody(t, quotedLatestRaw(t, w, "bob")) + "</div>\n" +
		"<br>\nDate: Tue, 3 Mar 2026 19:45:00 +0000<br>\nFrom: bob@localhost<br>\nTo: " + html.EscapeString(herald) + "<br>\nSubject: SV: " +
		html.EscapeString(refusal.Subject) + "<br>\n<br>\n" + strings.Join(earlier, "<br>\n") + "\n</body></html>\n"
	w.send(mailOf("bob", "RE: "+result.Subject, "", body))
	if got := batches(); got != 2 {
		m := quotedLatest(t, w, "bob", "")
		t.Fatalf("the new block above the Outlook.com quote was not carried out (%d batches); Herald answered %q:\n%s", got, m.Subject, m.Text)
	}
	if m := quotedLatest(t, w, "bob", ""); strings.Contains(m.Subject, "refused") {
		t.Fatalf("Herald answered %q:\n%s", m.Subject, m.Text)
	}

	// English Outlook desktop, for the English: the new block above a
	// quoted refusal under "From:/Sent:/To:/Subject:".
	turn := quotedLatest(t, w, "alice", "")
	var activate string
	for _, l := range legalOrders(turn.Text) {
		if strings.HasPrefix(l, "ACTIVATE ") && !strings.HasPrefix(l, "ACTIVATE STANDARD") {
			activate = l
			break
		}
	}
	if activate == "" {
		t.Fatalf("the English are offered no ACTIVATE:\n%s", turn.Text)
	}
	s, err := w.service().Summary(game)
	if err != nil {
		t.Fatal(err)
	}
	move := s.Move
	w.send(mailOf("alice", "Re: "+turn.Subject, blockText(aliceKey, move, "ACTIVATE Nobody", "END")+"\nAlice\n", ""))
	refused := quotedLatest(t, w, "alice", "refused")
	english := blockText(aliceKey, move, activate, "END") + "\nRegards,\nAlice\n\nFrom: Herald <" + herald + ">\nSent: Tuesday, March 3, 2026 8:50 PM\nTo: alice@localhost\nSubject: " +
		refused.Subject + "\n\n" + refused.Text
	w.send(mailOf("alice", "RE: "+refused.Subject, english, ""))
	if got := batches(); got != 3 {
		m := quotedLatest(t, w, "alice", "")
		t.Fatalf("the new block above the English Outlook quote was not carried out (%d batches); Herald answered %q:\n%s", got, m.Subject, m.Text)
	}
	w.checkGame(game, 3)
}

// quotedLatest is the latest mail in a player's inbox; with want, its
// subject must say so.
func quotedLatest(t *testing.T, w *world, player, want string) *pbem.Mail {
	t.Helper()
	got := w.inbox(player)
	m := got[len(got)-1]
	if want != "" && !strings.Contains(m.Subject, want) {
		t.Fatalf("%s's latest mail is %q, want one saying %q:\n%s", player, m.Subject, want, m.Text)
	}
	return m
}

// quotedLatestRaw is the latest mail in a player's inbox as stored.
func quotedLatestRaw(t *testing.T, w *world, player string) []byte {
	t.Helper()
	msgs := w.messages(player, "INBOX")
	return msgs[len(msgs)-1].Raw
}

// quotedSpans are the lines (from 1) of the begin and end markers of the
// first n blocks of text.
func quotedSpans(text string, n int) [][2]int {
	var out [][2]int
	for i, l := range strings.Split(text, "\n") {
		switch {
		case strings.HasPrefix(l, "--- herald orders:"):
			out = append(out, [2]int{i + 1, 0})
		case l == templates.EndMarker && len(out) > 0 && out[len(out)-1][1] == 0:
			out[len(out)-1][1] = i + 1
		}
		if len(out) == n && out[n-1][1] != 0 {
			break
		}
	}
	return out[:n]
}

// quotedHTMLBody is what stands inside the <body> of a mail's HTML part,
// as a webmail quotes it.
func quotedHTMLBody(t *testing.T, raw []byte) string {
	t.Helper()
	msg, err := mail.ReadMessage(bytes.NewReader(raw))
	if err != nil {
		t.Fatal(err)
	}
	h := quotedHTMLPart(t, msg.Header.Get("Content-Type"), msg.Header.Get("Content-Transfer-Encoding"), msg.Body)
	if h == "" {
		t.Fatal("Herald's mail has no HTML part")
	}
	if i := strings.Index(strings.ToLower(h), "<body"); i >= 0 {
		h = h[i:]
		h = h[strings.Index(h, ">")+1:]
	}
	if i := strings.LastIndex(strings.ToLower(h), "</body>"); i >= 0 {
		h = h[:i]
	}
	return h
}

func quotedHTMLPart(t *testing.T, contentType, encoding string, body io.Reader) string {
	t.Helper()
	mt, params, err := mime.ParseMediaType(contentType)
	if err != nil {
		t.Fatal(err)
	}
	if strings.HasPrefix(mt, "multipart/") {
		r := multipart.NewReader(body, params["boundary"])
		for {
			p, err := r.NextRawPart()
			if err == io.EOF {
				return ""
			}
			if err != nil {
				t.Fatal(err)
			}
			if h := quotedHTMLPart(t, p.Header.Get("Content-Type"), p.Header.Get("Content-Transfer-Encoding"), p); h != "" {
				return h
			}
		}
	}
	if mt != "text/html" {
		return ""
	}
	var b bytes.Buffer
	switch strings.ToLower(encoding) {
	case "quoted-printable":
		body = quotedprintable.NewReader(body)
	case "base64":
		body = base64.NewDecoder(base64.StdEncoding, body)
	}
	if _, err := b.ReadFrom(body); err != nil {
		t.Fatal(err)
	}
	return b.String()
}
