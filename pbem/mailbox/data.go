package mailbox

import (
	"bufio"
	"bytes"

	"github.com/wneessen/go-mail/smtp"
)

// data sends raw with SMTP's DATA command (RFC 5321 4.1.1.4) on c, the
// very bytes go-mail's Client.Data would: its writer is net/textproto's
// DotWriter, which looks at every byte on its own, about 1.8 ms of CPU
// for a mail with a map (docs/performance.md); writeData writes the same
// bytes looking at lines. The Sender uses its connection from one goroutine,
// so go-mail's lock around the exchange is not needed.
func data(c *smtp.Client, raw []byte) error {
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
