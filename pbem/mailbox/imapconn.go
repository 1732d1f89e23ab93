package mailbox

import (
	"cmp"
	"context"
	"crypto/tls"
	"fmt"
	"net"
	"slices"
	"time"

	"github.com/emersion/go-imap/v2"
	"github.com/emersion/go-imap/v2/imapclient"
)

// dialIMAP connects to addr with the given security and waits for the
// greeting. The dial honours ctx; later commands have imapclient's own
// timeouts.
func dialIMAP(ctx context.Context, addr string, sec Security, tlsCfg *tls.Config, timeout time.Duration, opts *imapclient.Options) (*imapclient.Client, error) {
	host, _, err := net.SplitHostPort(addr)
	if err != nil {
		return nil, err
	}
	if timeout <= 0 {
		timeout = 30 * time.Second
	}
	if opts == nil {
		opts = &imapclient.Options{}
	}
	ctx, cancel := context.WithTimeout(ctx, timeout)
	defer cancel()
	d := &net.Dialer{}
	var conn net.Conn
	switch sec {
	case SecurityTLS:
		cfg := tlsConfigFor(tlsCfg, host)
		if cfg.NextProtos == nil {
			cfg.NextProtos = []string{"imap"}
		}
		conn, err = (&tls.Dialer{NetDialer: d, Config: cfg}).DialContext(ctx, "tcp", addr)
	default:
		conn, err = d.DialContext(ctx, "tcp", addr)
	}
	if err != nil {
		return nil, err
	}
	// The greeting and STARTTLS are bounded by ctx too: closing the
	// connection unblocks them.
	stop := context.AfterFunc(ctx, func() { conn.Close() })
	var c *imapclient.Client
	if sec == SecurityStartTLS {
		o := *opts
		o.TLSConfig = tlsConfigFor(tlsCfg, host)
		c, err = imapclient.NewStartTLS(conn, &o)
		if err != nil {
			return nil, fmt.Errorf("starttls: %w", err)
		}
	} else {
		c = imapclient.New(conn, opts)
		if err := c.WaitGreeting(); err != nil {
			c.Close()
			return nil, fmt.Errorf("greeting: %w", err)
		}
	}
	if !stop() {
		c.Close()
		return nil, ctx.Err()
	}
	return c, nil
}

// readMailbox logs in, EXAMINEs mailbox (read-only, so \Seen is untouched)
// and returns every message with its flags and raw bytes, in UID order.
func readMailbox(ctx context.Context, addr, user, pass, mailbox string) ([]StoredMessage, error) {
	return readMailboxAfter(ctx, addr, user, pass, mailbox, 0)
}

// readMailboxAfter is readMailbox of the messages whose UID is after uid.
func readMailboxAfter(ctx context.Context, addr, user, pass, mailbox string, uid uint32) ([]StoredMessage, error) {
	sec, _, err := parseSecurity("read mailbox", "", addr, false)
	if err != nil {
		return nil, err
	}
	c, err := dialIMAP(ctx, addr, sec, nil, 10*time.Second, &imapclient.Options{})
	if err != nil {
		return nil, fmt.Errorf("mailbox: read %q: dial %s: %w", mailbox, addr, err)
	}
	defer c.Close()
	if err := c.Login(user, pass).Wait(); err != nil {
		return nil, fmt.Errorf("mailbox: read %q: login: %w", mailbox, err)
	}
	sel, err := c.Select(mailbox, &imap.SelectOptions{ReadOnly: true}).Wait()
	if err != nil {
		return nil, fmt.Errorf("mailbox: read %q: examine: %w", mailbox, err)
	}
	var out []StoredMessage
	if sel.NumMessages > 0 {
		body := &imap.FetchItemBodySection{Peek: true}
		// UID n:* names the last message even when its UID is below n
		// (RFC 9051 6.4.4): those at or before uid are left out below.
		bufs, err := c.Fetch(imap.UIDSet{{Start: imap.UID(uid + 1), Stop: 0}}, &imap.FetchOptions{
			UID: true, Flags: true, InternalDate: true,
			BodySection: []*imap.FetchItemBodySection{body},
		}).Collect()
		if err != nil {
			return nil, fmt.Errorf("mailbox: read %q: fetch: %w", mailbox, err)
		}
		for _, b := range bufs {
			if uint32(b.UID) <= uid {
				continue
			}
			m := StoredMessage{UID: uint32(b.UID), InternalDate: b.InternalDate, Raw: b.FindBodySection(body)}
			for _, f := range b.Flags {
				m.Flags = append(m.Flags, string(f))
			}
			out = append(out, m)
		}
		slices.SortFunc(out, func(a, b StoredMessage) int { return cmp.Compare(a.UID, b.UID) })
	}
	_ = c.Logout().Wait()
	return out, nil
}
