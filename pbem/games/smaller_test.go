package games

import (
	"bytes"
	"io"
	"strings"
	"testing"

	"github.com/emersion/go-message"

	"herald/pbem"
	"herald/templates"
)

// flat is a mail's text with its lines joined, so that a sentence the
// text part wraps can be looked for.
func flatText(s string) string { return strings.Join(strings.Fields(s), " ") }

// Issue 16, item 8: the "not your turn" answer does not invite sending the
// orders again now. Its block keeps only the standing orders (which may be
// sent at any time) and says so; the other lines are named, to be sent in
// answer to Herald's next mail.
func TestNotYourTurnDoesNotInviteAResend(t *testing.T) {
	f := newFixture(t)
	out := f.handle(f.orders(alice, "", "ACTIVATE Godfrey", "STANDING SEIZE NEVER", "END"))
	if out.Status != "refused:not-your-turn" {
		t.Fatalf("outcome %+v", out)
	}
	r := only(t, f.deliverAll(), alice)
	text := flatText(r.mail.Text)
	for _, want := range []string{
		"Keep your lines 5 and 7 (ACTIVATE Godfrey; END) for later: Herald will mail you when the game waits for the English",
		"not now",
		"This block is for standing orders only, which you may send at any time. Do not send your other orders again now",
	} {
		if !strings.Contains(text, want) {
			t.Errorf("the refusal does not say %q:\n%s", want, r.mail.Text)
		}
	}
	if strings.Contains(text, "To answer, press Reply") || strings.Contains(text, "This block already holds orders. To send them") {
		t.Errorf("the refusal invites a resend:\n%s", r.mail.Text)
	}
	blocks, _ := pbem.FindBlocks(r.mail.Text)
	if len(blocks) != 1 || blockLines(blocks[0]) != "STANDING SEIZE NEVER" {
		t.Errorf("the block holds %q, want the standing order alone", blockLines(blocks[0]))
	}
}

func blockLines(b pbem.Block) string {
	var out []string
	for _, l := range b.Lines {
		if l.Text != "" {
			out = append(out, l.Text)
		}
	}
	return strings.Join(out, "; ")
}

// Issue 16, item 8: a block without a KEY line has its own subject (not
// "wrong key"), and key refusals carry the block's orders over into the
// refusal's block, which has the player's key, for him to check and send.
func TestKeyRefusalsCarryTheOrdersOver(t *testing.T) {
	for _, tc := range []struct {
		name, key, subject, code string
	}{
		{"no KEY line", "-", "orders refused: the block has no KEY line", "refused:no-key"},
		{"wrong key", "AAAA-BBBB-CCCC-DDDD", "orders refused: wrong key", "refused:wrong-key"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			f := newFixture(t)
			raw := f.orders(bob, tc.key, "ACTIVATE Doria", "END")
			if tc.key == "-" {
				raw = []byte(strings.Replace(string(raw), "KEY -\r\n", "", 1))
			}
			before := f.snapshot()
			if out := f.handle(raw); out.Status != tc.code {
				t.Fatalf("outcome %+v, want %s", out, tc.code)
			}
			if f.snapshot() != before {
				t.Error("the game changed")
			}
			r := only(t, f.deliverAll(), bob)
			if !strings.HasSuffix(r.mail.Subject, tc.subject) {
				t.Errorf("subject %q, want it to end %q", r.mail.Subject, tc.subject)
			}
			if tc.key == "-" && strings.Contains(r.mail.Subject, "wrong key") {
				t.Errorf("subject %q says wrong key", r.mail.Subject)
			}
			blocks, _ := pbem.FindBlocks(r.mail.Text)
			if len(blocks) != 1 || blockLines(blocks[0]) != "ACTIVATE Doria; END" || blocks[0].Key != f.keys[bob] {
				t.Fatalf("the refusal's block does not carry the orders over with the key: %+v", blocks)
			}
			if !strings.Contains(flatText(r.mail.Text), "the lines of the block Herald refused: check them") {
				t.Errorf("the refusal does not say what its block holds:\n%s", r.mail.Text)
			}
			// Sending that block back carries the orders out.
			b := blocks[0]
			block := templates.OrderBlock{GameID: b.GameID, Move: b.Move, Key: b.Key, Prefill: []string{"ACTIVATE Doria", "END"}}.Text()
			if out := f.handle(f.mailFrom(bob, "Re: "+r.mail.Subject, block)); out.Status != "applied" {
				t.Errorf("resending the carried-over block: %+v", out)
			}
		})
	}
}

// Issue 16, item 8: the answer to STATUS says at its top, in its subject
// and both parts, that it is the STATUS answer, a copy of the latest mail.
func TestStatusSaysWhatItIs(t *testing.T) {
	f := newFixture(t)
	if out := f.handle(f.orders(bob, "", "STATUS")); out.Status != "status" {
		t.Fatalf("outcome %+v", out)
	}
	r := only(t, f.deliverAll(), bob)
	if !strings.HasSuffix(r.mail.Subject, "(again, for STATUS)") || !strings.HasPrefix(r.mail.Subject, "["+f.game+"]") {
		t.Errorf("subject %q", r.mail.Subject)
	}
	const note = "This is Herald's answer to your STATUS: the latest mail it sent you about this game, sent again as it was first sent on Tuesday 3 March 2026, 18:40 UTC."
	if !strings.HasPrefix(flatText(r.mail.Text), note) {
		t.Errorf("the text part does not open with the note:\n%s", r.mail.Text)
	}
	html := htmlPart(t, r.raw)
	if i, j := strings.Index(html, "answer to your STATUS"), strings.Index(html, "you command the French"); i < 0 || j < 0 || i > j {
		t.Errorf("the note is not at the top of the mail (%d, %d)", i, j)
	}
	if blocks, _ := pbem.FindBlocks(r.mail.Text); len(blocks) != 1 {
		t.Errorf("the STATUS answer holds %d blocks", len(blocks))
	}
}

// htmlPart is the decoded HTML part of a mail.
func htmlPart(t *testing.T, raw []byte) string {
	t.Helper()
	e, err := message.Read(bytes.NewReader(raw))
	if err != nil {
		t.Fatal(err)
	}
	var out string
	e.Walk(func(_ []int, p *message.Entity, _ error) error {
		if typ, _, _ := p.Header.ContentType(); typ == "text/html" && out == "" {
			b, _ := io.ReadAll(p.Body)
			out = string(b)
		}
		return nil
	})
	if out == "" {
		t.Fatal("the mail has no HTML part")
	}
	return out
}
