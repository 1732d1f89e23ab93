package mailbox

import (
	"context"
	"fmt"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/emersion/go-imap/v2"
)

func TestEmbeddedConfigErrors(t *testing.T) {
	tests := []struct {
		name string
		cfg  EmbeddedConfig
		want string
	}{
		{"no users", EmbeddedConfig{}, "no users"},
		{"public address", EmbeddedConfig{IMAPAddr: "0.0.0.0:1143", Users: []User{{"a", "b"}}}, "loopback"},
		{"host name", EmbeddedConfig{SMTPAddr: "localhost:1025", Users: []User{{"a", "b"}}}, "loopback"},
		{"plus in name", EmbeddedConfig{Users: []User{{"a+b", "b"}}}, "invalid user"},
		{"duplicate", EmbeddedConfig{Users: []User{{"a", "b"}, {"A", "c"}}}, "duplicate"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			_, err := NewEmbedded(tc.cfg)
			if err == nil || !strings.Contains(err.Error(), tc.want) || !strings.HasPrefix(err.Error(), "mailbox: ") {
				t.Errorf("NewEmbedded = %v, want error containing %q", err, tc.want)
			}
		})
	}
}

func TestEmbeddedIMAP(t *testing.T) {
	e := newEmbedded(t, nil)
	c, err := dialIMAP(context.Background(), e.IMAPAddr(), SecurityPlain, nil, 5*time.Second, nil)
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	if err := c.Login(testUser, "wrong").Wait(); err == nil {
		t.Error("login with a wrong password succeeded")
	}
	if err := c.Login(testUser, testPass).Wait(); err != nil {
		t.Fatal(err)
	}
	caps := c.Caps()
	for _, cp := range []imap.Cap{imap.CapIMAP4rev2, imap.CapIdle, imap.CapMove, imap.CapUIDPlus} {
		if !caps.Has(cp) {
			t.Errorf("capability %s missing", cp)
		}
	}
	list, err := c.List("", "*", nil).Collect()
	if err != nil {
		t.Fatal(err)
	}
	var names []string
	for _, l := range list {
		names = append(names, l.Mailbox)
	}
	for _, want := range []string{"INBOX", "Processed", "Rejected"} {
		if !strings.Contains(strings.Join(names, ","), want) {
			t.Errorf("mailbox %s missing from %v", want, names)
		}
	}
}

func TestEmbeddedFixedPortsAndRestart(t *testing.T) {
	imapPort, smtpPort := freePort(t), freePort(t)
	e, err := NewEmbedded(EmbeddedConfig{
		IMAPAddr: "127.0.0.1:" + strconv.Itoa(imapPort),
		SMTPAddr: "127.0.0.1:" + strconv.Itoa(smtpPort),
		Users:    []User{{"herald", "pw"}},
		Logger:   testLogger(t),
	})
	if err != nil {
		t.Fatal(err)
	}
	defer e.Close()
	if err := e.Start(); err != nil {
		t.Fatal(err)
	}
	if err := e.Start(); err == nil {
		t.Error("second Start succeeded")
	}
	if e.IMAPAddr() != "127.0.0.1:"+strconv.Itoa(imapPort) || e.SMTPAddr() != "127.0.0.1:"+strconv.Itoa(smtpPort) {
		t.Errorf("addresses %s %s", e.IMAPAddr(), e.SMTPAddr())
	}
	// A second server cannot take the same ports.
	e2, _ := NewEmbedded(EmbeddedConfig{IMAPAddr: e.IMAPAddr(), Users: []User{{"x", "y"}}, Logger: testLogger(t)})
	if err := e2.Start(); err == nil || !strings.HasPrefix(err.Error(), "mailbox: ") {
		t.Errorf("Start on a busy port = %v", err)
		e2.Close()
	}
	if err := e.Deliver("herald", testMail("kept@example.org", "s", "b")); err != nil {
		t.Fatal(err)
	}
	for range 3 {
		if err := e.Close(); err != nil {
			t.Fatal(err)
		}
		if err := e.Start(); err != nil {
			t.Fatal(err)
		}
	}
	ms, err := e.Messages("herald", "INBOX")
	if err != nil || len(ms) != 1 {
		t.Fatalf("after restarts: %d messages, %v", len(ms), err)
	}
	if !strings.HasPrefix(string(ms[0].Raw), "Delivered-To: herald\r\n") {
		t.Errorf("Deliver did not add Delivered-To: %q", ms[0].Raw[:40])
	}
	if err := e.Deliver("nobody", []byte("x")); err == nil {
		t.Error("Deliver to an unknown user succeeded")
	}
}

// MessagesAfter reads the messages after a UID only, none when it is the
// last (though UID n:* names the last message whatever n).
func TestEmbeddedMessagesAfter(t *testing.T) {
	e := newEmbedded(t, nil)
	for i := range 3 {
		if err := e.Deliver(testUser, []byte(fmt.Sprintf("Subject: %d\r\n\r\nbody\r\n", i))); err != nil {
			t.Fatal(err)
		}
	}
	all, err := e.Messages(testUser, "INBOX")
	if err != nil || len(all) != 3 {
		t.Fatalf("Messages: %d, %v", len(all), err)
	}
	for i, m := range all {
		after, err := e.MessagesAfter(testUser, "INBOX", m.UID)
		if err != nil {
			t.Fatal(err)
		}
		if len(after) != 2-i || len(after) > 0 && after[0].UID != all[i+1].UID {
			t.Errorf("after UID %d: %d messages, want %d from UID %d", m.UID, len(after), 2-i, all[min(i+1, 2)].UID)
		}
	}
}
