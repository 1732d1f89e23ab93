package mailbox

import (
	"bufio"
	"bytes"

	"github.com/wneessen/go-mail/smtp"
)

// data sends raw as a mail's text on c: in one chunk (BDAT, RFC 3030)
// when the server offers CHUNKING and raw is in SMTP's canonical form
// (inCanonical, canonical's answer for raw), else with DATA (RFC 5321 4.1.1.4). Either way the server gets the same
// text. A chunk goes as it is, where DATA's text is stuffed line by
// line here and unstuffed by the server, whose reader (go-smtp's, the
// embedded server's) takes it a byte at a time: about 1.3 ms of the mail
// server's CPU for a mail with a map (docs/performance.md). The Sender
// uses its connection from one goroutine, so go-mail's lock around the
// exchange is not needed.
func data(c *smtp.Client, raw []byte, inCanonical bool) error {
	if ok, _ := c.Extension("CHUNKING"); ok && inCanonical {
		return bdat(c, raw)
	}
	id, err := c.Text.Cmd("DATA")
	if err != nil {
		return err
	}
	c.Text.StartResponse(id)
	_, _, err = c.Text.ReadResponse(354)
	c.Text.EndResponse(id)
	if err != nil {
		return err
	}
	if err := writeData(c.Text.W, raw); err != nil {
		return err
	}
	_, _, err = c.Text.ReadResponse(250)
	return err
}

// bdat sends raw as the last and only chunk of the mail's text; the
// server answers once it has it all.
func bdat(c *smtp.Client, raw []byte) error {
	id, err := c.Text.Cmd("BDAT %d LAST", len(raw))
	if err != nil {
		return err
	}
	c.Text.StartResponse(id)
	defer c.Text.EndResponse(id)
	if _, err := c.Text.W.Write(raw); err != nil {
		return err
	}
	if err := c.Text.W.Flush(); err != nil {
		return err
	}
	_, _, err = c.Text.ReadResponse(250)
	return err
}

// canonical reports whether raw is a text that DATA delivers as it is,
// which a chunk may then carry: every line, the last too, ended by CR LF,
// and no other CR or LF (DATA gives a bare line feed its carriage
// return, and ends a text with a line break). With as many CRs as LFs,
// each LF having a CR before it leaves no CR elsewhere. What DATA
// unstuffs, a dot at the start of a line, is no matter here.
func canonical(raw []byte) bool {
	if !bytes.HasSuffix(raw, []byte("\r\n")) || bytes.Count(raw, []byte("\r")) != bytes.Count(raw, []byte("\n")) {
		return false
	}
	for at := 0; ; {
		i := bytes.IndexByte(raw[at:], '\n')
		if i < 0 {
			return true
		}
		if at+i == 0 || raw[at+i-1] != '\r' {
			return false
		}
		at += i + 1
	}
}

// writeData writes raw as DATA's text and its end, and flushes w: what
// textproto's DotWriter writes for raw and Close. A line beginning with a
// dot gets another; a line feed gets the carriage return it lacks; the
// text ends with a line break and a line of a dot. DotWriter's one
// quirk is kept: a carriage return after another that a line feed did
// not follow counts as data, so a line feed after an even run of them
// gets its own. The lines that need nothing (a composed mail's all) are
// written in one piece, which a large mail passes through w's buffer.
func writeData(w *bufio.Writer, raw []byte) error {
	end := "\r\n.\r\n" // for an empty text, as DotWriter ends one
	from := 0          // raw[from:at] is written as it is
	for at := 0; at < len(raw); {
		line, next := raw[at:], len(raw) // the line without its line feed
		if i := bytes.IndexByte(line, '\n'); i >= 0 {
			line, next, end = line[:i], at+i+1, ".\r\n"
		} else if oddCRs(line) {
			end = "\n.\r\n"
		} else {
			end = "\r\n.\r\n"
		}
		dot := len(line) > 0 && line[0] == '.'
		bareLF := next > at+len(line) && !oddCRs(line)
		if dot || bareLF {
			w.Write(raw[from:at])
			if dot {
				w.WriteByte('.')
			}
			w.Write(line)
			if bareLF {
				w.WriteByte('\r')
			}
			w.Write(raw[at+len(line) : next])
			from = next
		}
		at = next
	}
	w.Write(raw[from:])
	w.WriteString(end)
	return w.Flush()
}

// oddCRs reports whether line ends in an odd number of carriage returns:
// DotWriter is then in its state after a carriage return.
func oddCRs(line []byte) bool {
	n := 0
	for n < len(line) && line[len(line)-1-n] == '\r' {
		n++
	}
	return n%2 == 1
}
