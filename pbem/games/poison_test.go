package games

import (
	"context"
	"fmt"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"herald/pbem"
	"herald/pbem/mailbox"
	"herald/pbem/store"
	"herald/templates"
)

// smtpSend submits a raw mail to Herald through the embedded SMTP server,
// as any stranger on the Internet could, whatever its From says.
func (w *world) smtpSend(raw []byte) {
	w.t.Helper()
	s, err := mailbox.NewSender(mailbox.SenderConfig{Addr: w.emb.SMTPAddr(), HELO: "stranger.test", Timeout: 5 * time.Second, Logger: w.log})
	if err != nil {
		w.t.Fatal(err)
	}
	if err := s.SendRaw(context.Background(), "stranger@localhost", []string{"herald@localhost"}, raw); err != nil {
		w.t.Fatal(err)
	}
}

// latestBlock is the block of the newest mail of a game in a player's
// inbox: what he would copy to answer.
func (w *world) latestBlock(player, game string) pbem.Block {
	w.t.Helper()
	msgs := w.messages(player, "INBOX")
	for i := len(msgs) - 1; i >= 0; i-- {
		m, err := pbem.ReadMail(msgs[i].Raw, pbem.ReadOptions{MaxBytes: 32 << 20})
		if err != nil {
			w.t.Fatal(err)
		}
		if blocks, _ := pbem.FindBlocks(m.Text); len(blocks) == 1 && blocks[0].GameID == game && blocks[0].Key != "" {
			return blocks[0]
		}
	}
	w.t.Fatalf("%s has no mail with a block of %s", player, game)
	return pbem.Block{}
}

// rawMail is a plain-text mail with the From header exactly as given.
func rawMail(from, to, subject, messageID, body string) []byte {
	return []byte("From: " + from + "\r\nTo: " + to + "\r\nSubject: " + subject +
		"\r\nMessage-ID: <" + messageID + ">\r\nDate: Tue, 03 Mar 2026 18:40:00 +0000\r\n" +
		"MIME-Version: 1.0\r\nContent-Type: text/plain; charset=utf-8\r\n\r\n" +
		strings.ReplaceAll(body, "\n", "\r\n"))
}

// Finding 4 (issue 15): From headers that are not strict RFC 5322, as
// real clients write them, are read leniently and answered; a From with no
// address in it is filed as rejected. No mail is left to be retried for
// ever, and no reply carries what a display name smuggled in.
func TestPoisonFromHeaders(t *testing.T) {
	w := newWorld(t, "alice", "bob", "mallory")
	w.start(nil)
	w.newGame("crecy-poison", "alice", "bob")
	w.settle()
	blk := w.latestBlock("bob", "crecy-poison")
	status := templates.OrderBlock{GameID: blk.GameID, Move: blk.Move, Key: blk.Key, Prefill: []string{"STATUS"}}.Text()
	to := "herald+crecy-poison@localhost"
	answered := map[string]string{ // From header: the Message-ID of the mail
		"=?utf-8?q?Bob_@_home?= <bob@localhost>":                      "p2@localhost",
		"=?utf-8?q?Bob=0D=0ABcc:_mallory@localhost?= <bob@localhost>": "p3@localhost",
		"<script>alert(1)</script> <bob@localhost>":                   "p4@localhost",
		"Bob Smith <bob@localhost":                                    "p5@localhost",
	}
	for from, id := range answered {
		w.smtpSend(rawMail(from, to, "Re: [crecy-poison] status", id, status))
	}
	w.smtpSend(rawMail("Bob (no address here)", to, "Re: [crecy-poison] status", "p6@localhost", status))
	orders := templates.OrderBlock{GameID: blk.GameID, Move: blk.Move, Key: blk.Key, Prefill: []string{"ACTIVATE Doria", "END"}}.Text()
	w.smtpSend(rawMail("Bob [work] <bob@localhost>", to, "Re: [crecy-poison] Move 1", "p1@localhost", orders))
	w.settle()

	if n := w.unseen(); n != 0 {
		t.Fatalf("%d mails left unprocessed in Herald's INBOX", n)
	}
	if s, err := w.service().Summary("crecy-poison"); err != nil || s.Chain.Batches != 1 {
		t.Errorf("the orders from \"Bob [work] <bob@localhost>\" were not applied once: %+v %v", s, err)
	}
	replies := map[string]bool{}
	for _, m := range w.messages("bob", "INBOX") {
		pm, err := pbem.ReadMail(m.Raw, pbem.ReadOptions{MaxBytes: 32 << 20})
		if err != nil {
			t.Fatal(err)
		}
		replies[pm.MessageID] = true
		if strings.Contains(strings.ToLower(string(m.Raw)), "bcc:") || strings.Contains(string(m.Raw), "<script>") {
			t.Errorf("a reply to bob carries what a display name held:\n%s", m.Raw)
		}
	}
	for from, id := range answered {
		if !replies["crecy-poison.status."+hashTag(id)+"@localhost"] {
			t.Errorf("no answer to the mail from %q", from)
		}
	}
	if msgs := w.messages("mallory", "INBOX"); len(msgs) != 0 {
		t.Errorf("mallory, named in an encoded display name, got %d mails", len(msgs))
	}
	var filed []string
	for _, m := range w.messages("herald", "Rejected") {
		filed = append(filed, messageIDOf(m.Raw))
	}
	if !strings.Contains(fmt.Sprint(filed), "p6@localhost") {
		t.Errorf("the mail without an address in From is not in Rejected: %v", filed)
	}
}

// A mail whose processing fails for a reason of Herald's own is not
// retried for ever either: it is recorded as failed, changes nothing, and
// its sender is told.
func TestFailedMailGetsADisposition(t *testing.T) {
	f := newFixture(t)
	// A record of Herald's own that no longer reads (maps, which once
	// served here, are drawn after the commit since issue 17).
	if err := f.st.Update(func(tx *store.Tx) error { return tx.PutMail(f.game, queuedKey, []byte("{broken")) }); err != nil {
		t.Fatal(err)
	}
	before := f.snapshot()
	raw := f.orders(bob, "", "ACTIVATE Doria", "END")
	out := f.handle(raw)
	if out.Status != "failed" || !out.Rejected {
		t.Fatalf("outcome %+v, want failed and rejected", out)
	}
	if f.snapshot() != before {
		t.Error("the failed mail changed the game")
	}
	if m := only(t, f.deliverAll(), bob); !strings.Contains(m.mail.Text, "Nothing in any game has changed") {
		t.Errorf("the notice of the failure:\n%s", m.mail.Text)
	}
	if again := f.handle(raw); again.Status != "duplicate" {
		t.Errorf("the same mail again: %+v", again)
	}
}

// Finding 8 (issue 15): a mail over max_mail_bytes is answered from its
// header alone; the daemon never fetches its body.
func TestOversizeMailAnsweredFromItsHeader(t *testing.T) {
	w := newWorld(t, "alice", "bob")
	var largest atomic.Int64
	w.start(&mailbox.Hooks{AfterFetch: func(m mailbox.Message) error {
		for n := largest.Load(); int64(len(m.Raw)) > n && !largest.CompareAndSwap(n, int64(len(m.Raw))); n = largest.Load() {
		}
		return nil
	}})
	w.newGame("crecy-big", "alice", "bob")
	w.settle()
	blk := w.latestBlock("bob", "crecy-big")
	film := strings.Repeat("AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA\n", 3<<20/73)
	orders := templates.OrderBlock{GameID: blk.GameID, Move: blk.Move, Key: blk.Key, Prefill: []string{"ACTIVATE Doria"}}.Text()
	w.smtpSend(rawMail("Bob <bob@localhost>", "herald+crecy-big@localhost", "Re: [crecy-big] Move 1", "big@localhost", orders+film))
	w.settle()
	if n := largest.Load(); n > mailbox.MaxHeaderBytes {
		t.Errorf("Herald fetched %d bytes of a mail over its limit", n)
	}
	var notice string
	for _, m := range w.messages("bob", "INBOX") {
		if strings.Contains(messageIDOf(m.Raw), ".notice.") {
			notice = string(m.Raw)
		}
	}
	if !strings.Contains(notice, "your mail is 3 MB") {
		t.Errorf("bob was not told his mail is too large:\n%s", notice)
	}
	if s, _ := w.service().Summary("crecy-big"); s.Chain.Batches != 0 {
		t.Error("the oversize mail's orders were applied")
	}
}

// A batch of mails is carried out in order in few transactions
// (HandleBatch): a copy of a mail of the batch is a duplicate of it; a
// mail that fails rolls its transaction back, and each mail from that
// transaction's first on is then processed alone: the others applied
// once, the failing one recorded as failed and its game unchanged. So
// whether the batch is one transaction or one a mail (Config.BatchWork
// of a nanosecond: the first mail committed before the failing one is
// processed).
func TestBatchWithAFailingMail(t *testing.T) {
	for _, work := range []time.Duration{0, time.Nanosecond} {
		t.Run(fmt.Sprintf("BatchWork=%v", work), func(t *testing.T) { batchWithAFailingMail(t, work) })
	}
}

func batchWithAFailingMail(t *testing.T, work time.Duration) {
	f := newFixture(t)
	if work > 0 {
		f.svc.cfg.BatchWork = work
	}
	f.deliverAll()
	if _, err := f.svc.CreateGame(crecyGame("crecy-two")); err != nil {
		t.Fatal(err)
	}
	var key2 string
	for _, m := range f.deliverAll() {
		if blocks, _ := pbem.FindBlocks(m.mail.Text); m.to == bob && len(blocks) == 1 && blocks[0].GameID == "crecy-two" {
			key2 = blocks[0].Key
		}
	}
	if err := f.st.Update(func(tx *store.Tx) error { return tx.PutMail("crecy-two", queuedKey, []byte("{broken")) }); err != nil {
		t.Fatal(err)
	}
	good := f.orders(bob, "", "ACTIVATE Doria", "END")
	block2 := templates.OrderBlock{GameID: "crecy-two", Move: 1, Key: key2, Prefill: []string{"ACTIVATE Doria", "END"}}.Text()
	bad := f.mailFor("crecy-two", bob, "Re: [crecy-two] orders", block2)
	before := f.snapshot()
	vs := f.svc.HandleBatch(context.Background(), []mailbox.Message{{Raw: good}, {Raw: bad}, {Raw: good}})
	want := []mailbox.Disposition{mailbox.Processed, mailbox.Rejected, mailbox.Processed}
	for i, v := range vs {
		if v.Err != nil || v.Disposition != want[i] {
			t.Errorf("mail %d: %+v, want %v", i, v, want[i])
		}
	}
	if s := f.summary(); s.Chain.Batches != 1 || f.snapshot() == before {
		t.Errorf("the good mail was not applied once: %+v", s.Chain)
	}
	if s, err := f.svc.Summary("crecy-two"); err != nil || s.Chain.Batches != 0 {
		t.Errorf("the failing mail changed its game: %+v %v", s, err)
	}
	failed := false // not refused: its processing failed
	for _, m := range f.deliverAll() {
		failed = failed || m.to == bob && strings.Contains(m.mail.Text, "Nothing in any game has changed")
	}
	if !failed {
		t.Error("bob was not told that his mail's processing failed")
	}
	// Without a failure, the same outcomes.
	g := newFixture(t)
	if work > 0 {
		g.svc.cfg.BatchWork = work
	}
	g.deliverAll()
	good = g.orders(bob, "", "ACTIVATE Doria", "END")
	vs = g.svc.HandleBatch(context.Background(), []mailbox.Message{{Raw: good}, {Raw: good}})
	if vs[0].Disposition != mailbox.Processed || vs[1].Disposition != mailbox.Processed || g.summary().Chain.Batches != 1 {
		t.Errorf("a batch of a mail and its copy: %+v, %d batches applied", vs, g.summary().Chain.Batches)
	}
	if n := len(g.deliverAll()); n != 2 {
		t.Errorf("%d replies to a mail and its copy, want the two result mails", n)
	}
}

// A batch's transaction goes on processing mails until Config.BatchWork
// has passed, or twice the last commit's time if that is more (a slow
// disk's fsync): a mail to a transaction when either is a nanosecond,
// the whole batch in one when the last commit took an hour.
func TestBatchWorkBudget(t *testing.T) {
	for _, tc := range []struct {
		name       string
		commitTook time.Duration
		want       int
	}{
		{"fast commits", 0, 1},
		{"slow commits", time.Hour, 3},
	} {
		f := newFixture(t)
		f.svc.cfg.BatchWork = time.Nanosecond
		f.svc.commitTook.Store(int64(tc.commitTook))
		var ms []mailbox.Message
		for _, lines := range [][]string{{"ACTIVATE Doria", "END"}, {"PASS"}, {"END"}} {
			ms = append(ms, mailbox.Message{Raw: f.orders(bob, "", lines...)})
		}
		outs, err := f.svc.processSome(f.svc.readAll(ms))
		if err != nil || len(outs) != tc.want {
			t.Errorf("%s: %d mails in the first transaction (%v), want %d", tc.name, len(outs), err, tc.want)
		}
		if took := time.Duration(f.svc.commitTook.Load()); took <= 0 || took >= time.Hour {
			t.Errorf("%s: the commit's time recorded as %v", tc.name, took)
		}
	}
}
