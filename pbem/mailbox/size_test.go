package mailbox

import (
	"bytes"
	"context"
	"strings"
	"sync/atomic"
	"testing"
)

// byteCounter counts what passes over an IMAP connection (DebugWriter).
type byteCounter struct{ n atomic.Int64 }

func (c *byteCounter) Write(p []byte) (int, error) { c.n.Add(int64(len(p))); return len(p), nil }

// Finding 8 (issue 15): Intake asks for a message's size before it
// fetches it, and of a message over MaxMessageBytes fetches only the
// header, bounded by MaxHeaderBytes; a small message still comes whole.
func TestIntakeFetchesSizeFirst(t *testing.T) {
	p := newServerPair(t)
	cfg := p.intakeConfig(t)
	cfg.MaxMessageBytes = 1 << 20
	wire := &byteCounter{}
	cfg.DebugWriter = wire
	got := make(chan Message, 2)
	runIntake(t, cfg, func(ctx context.Context, m Message) (Disposition, error) {
		got <- m
		return Rejected, nil
	})
	big := testMail("big-1@example.org", "orders with a film attached", strings.Repeat("0123456789abcdef 0123456789abcdef 0123456789abcdef 0123456789abcdef\r\n", 3<<20/70))
	p.deliver(t, big)
	m := recv(t, got, "the large message")
	if !m.HeaderOnly || m.Size < int64(len(big)) {
		t.Errorf("large message: HeaderOnly %v, Size %d; want true and at least %d", m.HeaderOnly, m.Size, len(big))
	}
	if len(m.Raw) > MaxHeaderBytes || !bytes.Contains(m.Raw, []byte("Message-ID: <big-1@example.org>")) ||
		!bytes.HasSuffix(m.Raw, []byte("\r\n\r\n")) || bytes.Contains(m.Raw, []byte("0123456789abcdef")) {
		t.Errorf("large message: %d bytes fetched, want its header alone:\n%.300s", len(m.Raw), m.Raw)
	}
	if n := wire.n.Load(); n > 256<<10 {
		t.Errorf("%d bytes crossed the IMAP connection for a %d-byte message over the limit", n, len(big))
	}
	small := testMail("small-1@example.org", "orders", "--- herald orders: crecy-1 move 1 ---")
	p.deliver(t, small)
	m = recv(t, got, "the small message")
	if m.HeaderOnly || !bytes.HasSuffix(m.Raw, small) || m.Size != int64(len(m.Raw)) {
		t.Errorf("small message: HeaderOnly %v, Size %d, %d bytes fetched; want it whole", m.HeaderOnly, m.Size, len(m.Raw))
	}
}
