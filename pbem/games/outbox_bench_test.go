package games

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"path/filepath"
	"testing"
	"time"

	"herald/pbem/mailbox"
	"herald/pbem/store"
)

// The outbox's and the bare loop's benchmarks (docs/performance.md, "Mail
// daemon"); run them with the others of the package:
//
//	go test -run '^$' -bench 'OutboxDrain|BareMailLoop|MailEndToEnd' -benchtime 1x -count 6 ./pbem/games/

// BenchmarkOutboxDrain measures a backlog of 2,000 replies (a thousand
// games, a reply to each player, the sample battle's welcomes as the
// mails) leaving the outbox: "drain" calls DrainOutbox with
// mailbox.Sender on the embedded SMTP server over loopback until the
// outbox is empty, which covers reading the due mails, SMTP, and
// recording the deliveries in the store; "smtp" submits the same 2,000
// mails with the same Sender and nothing else, the rate SMTP accepts
// them at.
func BenchmarkOutboxDrain(b *testing.B) {
	const backlog = 2000
	w := newWorld(b, "alice", "bob")
	w.manual = true
	w.start(nil)
	w.newGame("crecy-drain", "alice", "bob")
	var welcomes []store.OutboxEntry
	err := w.st.View(func(tx *store.Tx) error {
		return tx.Outbox(func(e store.OutboxEntry) error { welcomes = append(welcomes, e); return nil })
	})
	if err != nil || len(welcomes) != 2 {
		b.Fatalf("%d welcomes, %v", len(welcomes), err)
	}
	report := func(b *testing.B) {
		b.ReportMetric(float64(b.N*backlog)/b.Elapsed().Seconds(), "mails/s")
		b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N*backlog), "ns/mail")
		b.ReportMetric(0, "ns/op")
	}
	b.Run("drain", func(b *testing.B) {
		for b.Loop() {
			b.StopTimer()
			err := w.st.Update(func(tx *store.Tx) error {
				for i := range backlog / len(welcomes) {
					for j, e := range welcomes {
						if _, err := tx.Enqueue(e.Mail, fmt.Sprintf("crecy-d%04d/%d", i, j), time.Now()); err != nil {
							return err
						}
					}
				}
				return nil
			})
			if err != nil {
				b.Fatal(err)
			}
			b.StartTimer()
			for sent := 0; sent < backlog; {
				n, err := w.service().DrainOutbox(context.Background(), w.sender.SendRaw)
				if err != nil {
					b.Fatal(err)
				}
				if n == 0 {
					b.Fatalf("the drain stopped with %d of %d mails sent", sent, backlog)
				}
				sent += n
			}
		}
		report(b)
	})
	b.Run("smtp", func(b *testing.B) {
		var mails []outboxMail
		for _, e := range welcomes {
			var m outboxMail
			if err := json.Unmarshal(e.Mail, &m); err != nil {
				b.Fatal(err)
			}
			raw, err := w.svc.rawOf(m) // composed once: the SMTP side alone is timed
			if err != nil {
				b.Fatal(err)
			}
			m.Raw = raw
			mails = append(mails, m)
		}
		for b.Loop() {
			for i := range backlog {
				m := mails[i%len(mails)]
				if err := w.sender.SendRaw(context.Background(), m.From, m.To, m.Raw); err != nil {
					b.Fatal(err)
				}
			}
		}
		report(b)
	})
}

// BenchmarkBareMailLoop is the floor under BenchmarkMailEndToEnd: the
// same rounds (one order mail for each of 20 games) through the same
// embedded IMAP and SMTP servers on loopback, with no engine, no
// rendering and no outbox. mailbox.Intake (IDLE, \Seen, the move to
// Processed) hands each mail to a handler that makes one bbolt commit on
// a real file (the mail's processed mark) and hands two replies, the
// bytes of a real result mail, to a send loop that submits them with
// mailbox.Sender on sendConnections goroutines, as the daemon's outbox
// loop answers both players alongside the intake, that many at once.
// MailEndToEnd's ns/mail over this one's is the cost of processing.
func BenchmarkBareMailLoop(b *testing.B) {
	const games = 20
	f := newFixture(b)
	order := f.orders(bob, "", "ACTIVATE Doria", "END")
	if out := f.handle(order); out.Status != "applied" {
		b.Fatalf("outcome %+v", out)
	}
	results := f.outbox()
	if len(results) != 2 {
		b.Fatalf("%d result mails, want 2", len(results))
	}
	var names []string
	for i := range games {
		names = append(names, fmt.Sprintf("en%02d", i), fmt.Sprintf("fr%02d", i))
	}
	w := newWorld(b, names...)
	st, err := store.Open(filepath.Join(b.TempDir(), "bare.db"))
	if err != nil {
		b.Fatal(err)
	}
	defer st.Close()
	in, err := mailbox.NewIntake(mailbox.IntakeConfig{Addr: w.emb.IMAPAddr(), Username: "herald", Password: "h",
		Logger: w.log, PollInterval: 50 * time.Millisecond})
	if err != nil {
		b.Fatal(err)
	}
	sender, err := mailbox.NewSender(mailbox.SenderConfig{Addr: w.emb.SMTPAddr(), HELO: "herald.test", Logger: w.log})
	if err != nil {
		b.Fatal(err)
	}
	defer sender.Close()
	type reply struct {
		to  string
		raw []byte
	}
	replies := make(chan reply, 4*games)
	sendLoop := make(chan error, sendConnections)
	for range sendConnections {
		go func() {
			var first error
			for r := range replies {
				if err := sender.SendRaw(context.Background(), "herald@localhost", []string{r.to}, r.raw); err != nil && first == nil {
					first = err
				}
			}
			sendLoop <- first
		}()
	}
	defer func() {
		close(replies)
		for range sendConnections {
			if err := <-sendLoop; err != nil {
				b.Error(err)
			}
		}
	}()
	handle := func(ctx context.Context, m mailbox.Message) (mailbox.Disposition, error) {
		err := st.Update(func(tx *store.Tx) error {
			return tx.MarkProcessed(m.MessageID, store.Processed{Outcome: "applied", At: time.Now()})
		})
		if err != nil {
			return 0, err
		}
		var game, round int
		if _, err := fmt.Sscanf(m.MessageID, "bare-%d-%d@", &game, &round); err != nil {
			return 0, fmt.Errorf("bare loop: Message-ID %q: %w", m.MessageID, err)
		}
		for i, r := range results {
			replies <- reply{to: fmt.Sprintf("%s%02d@localhost", []string{"en", "fr"}[i], game), raw: r.raw}
		}
		return mailbox.Processed, nil
	}
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan error, 1)
	go func() { done <- in.Run(ctx, handle) }()
	defer func() { cancel(); <-done }()

	oldID := []byte("<" + messageIDOf(order) + ">")
	mails, round := 0, 0
	for b.Loop() {
		b.StopTimer()
		var raws [][]byte
		for i := range games {
			id := fmt.Sprintf("<bare-%02d-%d@test.example>", i, round)
			raws = append(raws, bytes.Replace(order, oldID, []byte(id), 1))
		}
		round++
		want := w.accepted.Load() + int64(2*games)
		b.StartTimer()
		w.deliver(raws, false)
		deadline := time.Now().Add(20 * time.Second)
		for w.accepted.Load() < want {
			if time.Now().After(deadline) {
				b.Fatalf("%d of %d replies sent", w.accepted.Load(), want)
			}
			time.Sleep(time.Millisecond)
		}
		mails += games
	}
	b.ReportMetric(float64(mails)/b.Elapsed().Seconds(), "mails/s")
	b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(mails), "ns/mail")
	b.ReportMetric(0, "ns/op")
}
