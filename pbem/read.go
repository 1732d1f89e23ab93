package pbem

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"strings"

	"github.com/emersion/go-message"
	_ "github.com/emersion/go-message/charset" // every charset players' clients use
	"github.com/emersion/go-message/mail"
)

// ReadOptions bound and qualify reading.
type ReadOptions struct {
	// MaxBytes is the largest mail read (default 1 MiB). A larger mail
	// yields a *MailError with TooLarge and its headers.
	MaxBytes int64
	// Self are Herald's own addresses (plus-tags ignored): mail from them
	// is never answered.
	Self []string
	// Size, when larger than the raw bytes, is the size of the whole mail
	// of which raw is only the header: the IMAP server said how large it
	// is (RFC822.SIZE), and only its header was fetched.
	Size int64
}

// DefaultMaxBytes is ReadOptions.MaxBytes when unset.
const DefaultMaxBytes = 1 << 20

// Mail is a received message reduced to what Herald needs.
type Mail struct {
	MessageID  string   // without <>; "" if absent
	From       string   // the sender's address (ParseSender); "" when none can be answered
	FromName   string   // the sender's display name, decoded and made safe to show
	FromHeader string   // the From header as it stood, for the log
	To         []string // normalised recipients: To, Cc, Delivered-To, X-Original-To
	Subject    string   // decoded
	InReplyTo  string   // without <>
	References []string // without <>
	// Robot, when not empty, says why this mail must never be answered:
	// a bounce, an automatic reply, a list, Herald's own mail.
	Robot string
	// Text is the readable body with LF line ends: the text/plain part
	// (format=flowed joined), else the HTML part as text.
	Text string
	Size int // bytes of the raw mail
}

// MailError is a mail that cannot be read. Mail holds what could be read
// of its headers (nil when not even they could), so that it can be
// answered.
type MailError struct {
	Reason   string
	TooLarge bool
	Mail     *Mail
}

func (e *MailError) Error() string { return "pbem: " + e.Reason }

// ReadMail parses raw RFC 5322 bytes; errors are *MailError.
func ReadMail(raw []byte, opt ReadOptions) (*Mail, error) {
	limit := opt.MaxBytes
	if limit <= 0 {
		limit = DefaultMaxBytes
	}
	e, err := message.Read(bytes.NewReader(raw))
	if err != nil && !message.IsUnknownCharset(err) && !message.IsUnknownEncoding(err) {
		return nil, &MailError{Reason: fmt.Sprintf("the mail's header could not be read (%v)", err)}
	}
	n := max(int64(len(raw)), opt.Size)
	m := readHeader(mail.Header{Header: e.Header}, int(n), opt.Self)
	if n > limit {
		return nil, &MailError{TooLarge: true, Mail: m, Reason: fmt.Sprintf(
			"your mail is %s; Herald reads mails up to %s — send the orders without attachments", size(n), size(limit))}
	}
	if n > int64(len(raw)) {
		return nil, &MailError{Mail: m, Reason: "Herald received only the header of your mail"}
	}
	text, err := bodyText(e)
	if err != nil {
		return nil, &MailError{Mail: m, Reason: fmt.Sprintf("the mail's body could not be read (%v)", err)}
	}
	m.Text = text
	return m, nil
}

// readHeader takes what Herald needs from the header.
func readHeader(h mail.Header, n int, self []string) *Mail {
	m := &Mail{Size: n}
	m.MessageID, _ = h.MessageID()
	m.Subject, _ = h.Subject()
	m.FromHeader = h.Get("From")
	m.From, m.FromName = ParseSender(m.FromHeader)
	if ids, err := h.MsgIDList("In-Reply-To"); err == nil && len(ids) > 0 {
		m.InReplyTo = ids[0]
	}
	m.References, _ = h.MsgIDList("References")
	m.To = recipients(h)
	m.Robot = robot(h, m.From, self)
	return m
}

func recipients(h mail.Header) []string {
	seen := map[string]bool{}
	var out []string
	add := func(a string) {
		if a = NormalizeAddress(a); a != "" && !seen[a] {
			seen[a] = true
			out = append(out, a)
		}
	}
	for _, k := range []string{"To", "Cc"} {
		for _, v := range h.Values(k) {
			for _, a := range ParseAddresses(v) {
				add(a)
			}
		}
	}
	for _, k := range []string{"Delivered-To", "X-Original-To"} {
		for _, v := range h.Values(k) {
			add(v)
		}
	}
	return out
}

// bodyText finds the part a person reads: the first text/plain part that
// is not an attached file, else (or when that part is blank) the first
// text/html part, as text. Parts in a charset go-message does not know
// are read as they stand.
func bodyText(e *message.Entity) (string, error) {
	var plain, htmlText *string
	err := e.Walk(func(_ []int, part *message.Entity, err error) error {
		if err != nil && !message.IsUnknownCharset(err) && !message.IsUnknownEncoding(err) {
			return err
		}
		t, params, _ := part.Header.ContentType()
		if t == "" {
			t = "text/plain"
		}
		disp, dparams, _ := part.Header.ContentDisposition()
		if disp == "attachment" || dparams["filename"] != "" || params["name"] != "" || !strings.HasPrefix(t, "text/") {
			return nil // an attached file, even a text file shown inline
		}
		b, err := io.ReadAll(part.Body)
		if err != nil {
			return err
		}
		s := strings.TrimPrefix(newlines.Replace(string(b)), "\ufeff")
		switch {
		case t == "text/plain" && plain == nil:
			if strings.EqualFold(params["format"], "flowed") {
				s = unflow(s, strings.EqualFold(params["delsp"], "yes"))
			}
			plain = &s
		case t == "text/html" && htmlText == nil:
			htmlText = &s // converted only if it is read
		}
		return nil
	})
	if err != nil && !errors.Is(err, io.EOF) {
		return "", err
	}
	switch {
	case plain != nil && (htmlText == nil || strings.TrimSpace(*plain) != ""):
		return *plain, nil
	case htmlText != nil:
		return htmlToText(strings.NewReader(*htmlText)), nil
	}
	return "", nil
}

// newlines makes every line end LF: CRLF, and a lone CR as old Mac
// clients wrote it.
var newlines = strings.NewReplacer("\r\n", "\n", "\r", "\n")

// size says n bytes as a person reads it: "3.2 MB", "1 MB", "200 kB".
func size(n int64) string {
	switch {
	case n >= 1<<20:
		return strings.TrimSuffix(fmt.Sprintf("%.1f", float64(n)/(1<<20)), ".0") + " MB"
	case n >= 1<<10:
		return fmt.Sprintf("%d kB", n>>10)
	}
	return fmt.Sprintf("%d bytes", n)
}
