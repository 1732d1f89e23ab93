package mailbox

import (
	"bufio"
	"context"
	"fmt"
	"io"
	"log/slog"
	"net/textproto"
	"os"
	"testing"
	"time"
)

// BenchmarkRoundTrip measures one mail from Sender.Send over SMTP to the
// embedded server until Intake's handler sees it (woken by IDLE), with the
// move to Processed overlapping the next send.
//
//	go test -run '^$' -bench RoundTrip -benchmem ./pbem/mailbox/
func BenchmarkRoundTrip(b *testing.B) { roundTrip(b, 0) }

// BenchmarkRoundTripWithMap is BenchmarkRoundTrip with a result mail's
// map inline: the busy block's crop as an RGB PNG (432 KiB) and as a
// paletted one (175 KiB), both as random to base64 as a PNG's bytes.
// What the mail's bytes cost on their way: composing, dot-stuffing, the
// embedded server's receiving and storing, the IMAP fetch (issue 17).
func BenchmarkRoundTripWithMap(b *testing.B) {
	for _, kib := range []int{432, 175} {
		b.Run(fmt.Sprintf("%dKiB", kib), func(b *testing.B) { roundTrip(b, kib) })
	}
}

// roundTrip sends mails with a picture of kib KiB (none for 0).
func roundTrip(b *testing.B, kib int) {
	quiet := slog.New(slog.NewTextHandler(io.Discard, nil))
	if testing.Verbose() {
		quiet = slog.New(slog.NewTextHandler(os.Stderr, &slog.HandlerOptions{Level: slog.LevelDebug}))
	}
	e, err := NewEmbedded(EmbeddedConfig{Users: []User{{testUser, testPass}, {"player", "pw"}}, Logger: quiet})
	if err != nil {
		b.Fatal(err)
	}
	if err := e.Start(); err != nil {
		b.Fatal(err)
	}
	defer e.Close()
	s, err := NewSender(SenderConfig{Addr: e.SMTPAddr(), HELO: "bench.local", Logger: quiet})
	if err != nil {
		b.Fatal(err)
	}
	got := make(chan string, 1)
	in, err := NewIntake(IntakeConfig{
		Addr: e.IMAPAddr(), Username: testUser, Password: testPass,
		PollInterval: time.Hour, Logger: quiet,
		ReconnectBackoff: ConstantBackoff(10 * time.Millisecond),
	})
	if err != nil {
		b.Fatal(err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan error, 1)
	go func() {
		done <- in.Run(ctx, func(ctx context.Context, m Message) (Disposition, error) {
			got <- m.MessageID
			return Processed, nil
		})
	}()
	defer func() {
		cancel()
		<-done
	}()

	o := sampleOutgoing()
	o.To = []string{"herald@localhost"}
	if kib > 0 {
		png := make([]byte, kib<<10)
		for i := range png {
			png[i] = byte(i*7919 + i>>9)
		}
		o.HTML = `<p>The map:</p><img src="cid:map@herald">`
		o.Inline = []Part{{Name: "map.png", ContentType: "image/png", ContentID: "map@herald", Data: png}}
	}
	b.ResetTimer()
	for i := 0; b.Loop(); i++ {
		o.MessageID = fmt.Sprintf("bench-%d@pbem.example", i)
		if err := s.Send(context.Background(), o); err != nil {
			b.Fatal(err)
		}
		select {
		case id := <-got:
			if id != o.MessageID {
				b.Fatalf("handler saw %q, want %q", id, o.MessageID)
			}
		case <-time.After(10 * time.Second):
			b.Fatal("timed out waiting for the handler")
		}
	}
}

// BenchmarkComposeWithMap composes a result mail with its map: text, HTML
// and a 430 KiB inline PNG (the size of the busy block's crop in RGB;
// with its palette it is 175 KiB, and composing scales with the bytes), as
// the outbox does for every reply with maps (issue 17).
//
//	go test -run '^$' -bench ComposeWithMap -benchmem ./pbem/mailbox/
func BenchmarkComposeWithMap(b *testing.B) {
	o := withMap()
	for b.Loop() {
		if _, err := Compose(o); err != nil {
			b.Fatal(err)
		}
	}
}

// withMap is a mail with a 430 KiB picture, the size of a result mail's
// map before it had a palette.
func withMap() Outgoing {
	o := sampleOutgoing()
	png := make([]byte, 430<<10)
	for i := range png {
		png[i] = byte(i*7919 + i>>9) // no long runs: a PNG's bytes look random to base64
	}
	o.HTML = `<p>The map:</p><img src="cid:map@herald">`
	o.Inline = []Part{{Name: "map.png", ContentType: "image/png", ContentID: "map@herald", Data: png}}
	return o
}

// BenchmarkWriteData measures writing a composed mail with a map as SMTP
// DATA: go-mail's way (net/textproto's DotWriter, a byte at a time) and
// the Sender's (writeData, a line at a time), to a buffer.
//
//	go test -run '^$' -bench WriteData -count 6 ./pbem/mailbox/
func BenchmarkWriteData(b *testing.B) {
	raw, err := Compose(withMap())
	if err != nil {
		b.Fatal(err)
	}
	bw := bufio.NewWriter(io.Discard)
	b.Run("dotwriter", func(b *testing.B) {
		b.SetBytes(int64(len(raw)))
		for b.Loop() {
			w := textproto.NewWriter(bw).DotWriter()
			w.Write(raw)
			w.Close()
		}
	})
	b.Run("lines", func(b *testing.B) {
		b.SetBytes(int64(len(raw)))
		for b.Loop() {
			writeData(bw, raw)
		}
	})
}
