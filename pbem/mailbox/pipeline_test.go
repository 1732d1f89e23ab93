package mailbox

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"net"
	"sync"
	"testing"
	"time"
)

// holdingProxy forwards SMTP sessions to addr, holding back the server's
// replies from a client's MAIL FROM until the client has sent its BDAT
// chunk whole: a client that waits for a reply before it writes its next
// command is stuck, until the proxy gives up holding after a second and
// counts a wait.
type holdingProxy struct {
	mu    sync.Mutex
	waits int
}

func (p *holdingProxy) waited() int {
	p.mu.Lock()
	defer p.mu.Unlock()
	return p.waits
}

// session relays one connection: the client's bytes as they come, the
// server's unless held.
func (p *holdingProxy) session(client, server net.Conn) {
	var mu sync.Mutex
	var held []byte
	holding, generation := false, 0
	release := func() { // with mu held
		client.Write(held)
		held, holding = nil, false
	}
	go func() {
		defer client.Close()
		buf := make([]byte, 32<<10)
		for {
			n, err := server.Read(buf)
			mu.Lock()
			if holding {
				held = append(held, buf[:n]...)
			} else {
				client.Write(buf[:n])
			}
			mu.Unlock()
			if err != nil {
				return
			}
		}
	}()
	go func() {
		defer server.Close()
		var pending []byte
		chunk := 0 // bytes of a BDAT chunk still to come
		buf := make([]byte, 32<<10)
		for {
			n, err := client.Read(buf)
			server.Write(buf[:n])
			pending = append(pending, buf[:n]...)
			for len(pending) > 0 {
				if chunk > 0 {
					k := min(chunk, len(pending))
					chunk -= k
					pending = pending[k:]
					if chunk == 0 {
						mu.Lock()
						release()
						mu.Unlock()
					}
					continue
				}
				line, rest, ok := bytes.Cut(pending, []byte("\r\n"))
				if !ok {
					break
				}
				pending = rest
				var size int
				fmt.Sscanf(string(line), "BDAT %d LAST", &size)
				switch {
				case bytes.HasPrefix(line, []byte("MAIL FROM:")):
					mu.Lock()
					holding, generation = true, generation+1
					g := generation
					mu.Unlock()
					time.AfterFunc(time.Second, func() {
						mu.Lock()
						defer mu.Unlock()
						if holding && generation == g {
							p.mu.Lock()
							p.waits++
							p.mu.Unlock()
							release()
						}
					})
				case size > 0:
					chunk = size
				}
			}
			if err != nil {
				return
			}
		}
	}()
}

// A mail to one recipient goes in one round trip: the Sender writes its
// MAIL, RCPT and BDAT with the text before it reads a reply, and the
// mail arrives as composed. A refused recipient is the mail's refusal,
// nothing is delivered, and the connection goes on.
func TestSendInOneRoundTrip(t *testing.T) {
	e := newEmbedded(t, nil)
	var p holdingProxy
	s := newSenderAt(t, proxy(t, e.SMTPAddr(), p.session))
	o := withMap()
	o.To = []string{"player@localhost"}
	raw, err := Compose(o)
	if err != nil {
		t.Fatal(err)
	}
	for range 3 {
		if err := s.Send(context.Background(), o); err != nil {
			t.Fatal(err)
		}
	}
	if n := p.waited(); n != 0 {
		t.Errorf("the Sender waited for a reply within %d of 3 mails", n)
	}
	o.To = []string{"nobody@localhost"}
	err = s.Send(context.Background(), o)
	var se *SendError
	if !errors.As(err, &se) || se.Stage != StageRcpt || len(se.Recipients) != 1 || IsTemporary(err) {
		t.Errorf("to an unknown recipient: %v, want a permanent refusal at RCPT", err)
	}
	o.To = []string{"player@localhost"}
	if err := s.Send(context.Background(), o); err != nil {
		t.Fatal(err)
	}
	ms, err := e.Messages("player", "INBOX")
	if err != nil || len(ms) != 4 {
		t.Fatalf("player has %d messages (%v), want 4", len(ms), err)
	}
	for _, m := range ms {
		stripDeliveryHeaders(t, m.Raw, raw)
	}
}
