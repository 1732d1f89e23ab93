package mailbox

import (
	"errors"
	"fmt"
	"net/textproto"
	"strings"

	"github.com/wneessen/go-mail/smtp"
)

// A mail to one recipient goes in one round trip when the server allows
// it: MAIL, RCPT and BDAT with the whole text written at once (RFC 2920
// and RFC 3030), their three replies read after. Command by command, the
// Sender waited for each reply in turn, and a burst's replies, sent in
// order on one connection, went no faster than those waits allowed while
// the cores were idle (docs/performance.md).

// oneTrip reports whether a mail can go in one round trip on c: the
// server offers PIPELINING and CHUNKING, the mail has one recipient (a
// refused recipient then leaves nobody to deliver to, as when the
// commands go one by one), its text can go as a chunk (inCanonical,
// canonical's answer for it), and its addresses are lines (go-mail's
// checks stay with the other path).
func oneTrip(c *smtp.Client, from string, to []string, inCanonical bool) bool {
	if len(to) != 1 || strings.ContainsAny(from+to[0], "\r\n") || !inCanonical {
		return false
	}
	pipelining, _ := c.Extension("PIPELINING")
	chunking, _ := c.Extension("CHUNKING")
	return pipelining && chunking
}

// sendOneTrip writes MAIL, RCPT and BDAT with raw, and reads their
// replies: the stage of the first that failed, and its error. MAIL's
// parameters are those go-mail's Client.Mail sends. A server refuses a
// BDAT whose RCPT it refused (there is no recipient), so a refusal at
// MAIL or RCPT delivers nothing. Without a reply (the connection broke)
// or after a 421 (the server closes it), the rest is not read.
func sendOneTrip(c *smtp.Client, from, to string, raw []byte) (SendStage, error) {
	params := ""
	if ok, _ := c.Extension("8BITMIME"); ok {
		params += " BODY=8BITMIME"
	}
	if ok, _ := c.Extension("SMTPUTF8"); ok {
		params += " SMTPUTF8"
	}
	w := c.Text.W
	fmt.Fprintf(w, "MAIL FROM:%s%s\r\nRCPT TO:%s\r\nBDAT %d LAST\r\n", from, params, to, len(raw))
	w.Write(raw)
	if err := w.Flush(); err != nil {
		return StageMail, err
	}
	var failed SendStage
	var first error
	for _, step := range []struct {
		stage SendStage
		code  int
	}{{StageMail, 250}, {StageRcpt, 25}, {StageData, 250}} {
		_, _, err := c.Text.ReadResponse(step.code)
		if err == nil {
			continue
		}
		if first == nil {
			failed, first = step.stage, err
		}
		var reply *textproto.Error
		if !errors.As(err, &reply) || reply.Code == 421 {
			break
		}
	}
	return failed, first
}
