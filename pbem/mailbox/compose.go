package mailbox

import (
	"bytes"
	"crypto/sha256"
	"encoding/base64"
	"encoding/binary"
	"errors"
	"fmt"
	"maps"
	"net/mail"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"time"

	gomail "github.com/wneessen/go-mail"
)

// Outgoing is a mail to compose and send. Message-IDs and Content-IDs are
// written without angle brackets; Compose adds them.
type Outgoing struct {
	// From is one address, optionally with a display name:
	// "Herald <herald@pbem.example>".
	From string
	// To are the recipients, each like From.
	To []string
	// EnvelopeFrom is the SMTP MAIL FROM (return path). Empty means From's
	// address; "<>" is the null sender, which RFC 3834 recommends for
	// automatic replies so that they are never answered automatically.
	EnvelopeFrom string
	Subject      string
	// Date is the Date header; zero means the time of Compose. Set it for
	// reproducible bytes.
	Date time.Time
	// MessageID is required and written as <MessageID>. Derive it from
	// what the mail is about (e.g. "t3-result.g42@pbem.example") so that a
	// retry of the same reply keeps its identity and replies to it can be
	// routed by In-Reply-To and References.
	MessageID  string
	InReplyTo  string
	References []string
	// Headers are extra header fields such as Auto-Submitted or
	// X-Herald-Loop, written in name order. Names that Compose writes
	// itself (From, To, Subject, Date, Message-ID, In-Reply-To,
	// References, MIME-Version, Content-*) are refused.
	Headers map[string]string
	// Text and HTML are the bodies; with both, the mail is
	// multipart/alternative. Inline parts (images the HTML shows as
	// <img src="cid:ContentID">) wrap that in multipart/related, and
	// attachments wrap everything in multipart/mixed.
	Text        string
	HTML        string
	Inline      []Part
	Attachments []Part
}

// Part is an inline image or an attachment.
type Part struct {
	Name        string // file name
	ContentType string // e.g. "image/png"; empty: guessed from Name
	ContentID   string // without <>; inline parts only; default Name
	Data        []byte
	// Lines, when set, are Data in base64 as Compose writes it
	// (Base64Lines(Data)): a part that goes in several mails, a map to
	// both players, is encoded once. It is never stored.
	Lines []byte `json:"-"`
}

// reservedHeaders are written by Compose and may not appear in Headers.
var reservedHeaders = []string{
	"from", "to", "cc", "bcc", "subject", "date", "message-id", "in-reply-to",
	"references", "mime-version", "content-type", "content-transfer-encoding",
	"content-disposition", "content-id", "return-path", "sender", "reply-to",
}

// Compose renders o to the exact bytes that Send transmits, with CRLF line
// ends. The result depends on o alone (given a non-zero Date): the random
// multipart boundaries that go-mail draws are replaced by ones derived from
// the content, so Compose is fit for golden files and for storing in an
// outbox and resending byte for byte.
//
// go-mail writes each part's data as a stand-in (standIns), which is
// then replaced by the data in base64 (spliceParts): go-mail encodes a
// part into a buffer of its own, grown by doubling, before copying it
// on, and for a mail with a map that was most of composing it.
func Compose(o Outgoing) ([]byte, error) {
	sum, parts := o.digest(), o.parts()
	stand := standIns(sum, parts)
	m, err := o.msg(stand)
	if err != nil {
		return nil, err
	}
	buf := getMailBuffer()
	defer keepMailBuffer(buf)
	if _, err := m.WriteTo(buf); err != nil {
		return nil, fmt.Errorf("mailbox: compose %q: %w", o.MessageID, err)
	}
	return spliceParts(stableBoundaries(buf.Bytes(), sum), parts, stand)
}

// digest is a SHA-256 of everything of o that the composed mail's text
// can hold: every field but the parts' bytes, which go out in base64,
// whose alphabet has no '-' and so can hold no boundary ("herald-…");
// a part's name, type, id and length are in it. Reading the half
// megabyte of a mail with a map for its boundaries was a twentieth of
// composing a result mail.
func (o Outgoing) digest() []byte {
	h := sha256.New()
	var n [8]byte
	field := func(s string) {
		binary.BigEndian.PutUint64(n[:], uint64(len(s)))
		h.Write(n[:])
		h.Write([]byte(s))
	}
	field(o.From)
	field(strings.Join(o.To, "\x00"))
	field(o.EnvelopeFrom)
	field(o.Subject)
	field(o.Date.UTC().Format(time.RFC3339Nano))
	field(o.MessageID)
	field(o.InReplyTo)
	field(strings.Join(o.References, "\x00"))
	for _, k := range slices.Sorted(maps.Keys(o.Headers)) {
		field(k)
		field(o.Headers[k])
	}
	field(o.Text)
	field(o.HTML)
	for _, parts := range [][]Part{o.Inline, o.Attachments} {
		field(strconv.Itoa(len(parts)))
		for _, p := range parts {
			field(p.Name)
			field(p.ContentType)
			field(p.ContentID)
			field(strconv.Itoa(len(p.Data)))
		}
	}
	return h.Sum(nil)
}

// parts are o's inline parts, then its attachments, as msg adds them.
func (o Outgoing) parts() []Part { return slices.Concat(o.Inline, o.Attachments) }

// standInSize is the bytes of a stand-in: their base64 is one line of 64
// characters, short of the 76 after which a line breaks.
const standInSize = 48

// standIns are the data go-mail writes for a mail's parts
// (Outgoing.parts), in their place: for a part with data, standInSize
// bytes derived from the mail's digest sum and the part's place, so that
// their base64 line cannot occur elsewhere in the mail (the text would
// have to hold a hash of itself); for a part without, nothing, as
// go-mail writes no line for it.
func standIns(sum []byte, parts []Part) [][]byte {
	out := make([][]byte, len(parts))
	for i, p := range parts {
		if len(p.Data) == 0 {
			continue
		}
		h := sha256.New()
		h.Write(sum)
		fmt.Fprintf(h, "part %d", i)
		first := h.Sum(nil)
		h.Write(first)
		out[i] = append(first, h.Sum(nil)[:standInSize-len(first)]...)
	}
	return out
}

// spliceParts is the mail b, written with stand-ins for the parts' data,
// with each stand-in's base64 line replaced by the part's data in
// base64, written as go-mail writes it (base64Lines). The mail is
// written once, into a slice of its exact size.
func spliceParts(b []byte, parts []Part, stand [][]byte) ([]byte, error) {
	type cut struct{ at, n, part int }
	var cuts []cut
	size, from := len(b), 0
	for i, s := range stand {
		if s == nil {
			continue
		}
		line := base64.StdEncoding.AppendEncode(nil, s)
		line = append(line, '\r', '\n')
		at := bytes.Index(b[from:], line)
		if at < 0 {
			return nil, fmt.Errorf("mailbox: compose: part %q not found in what go-mail wrote", parts[i].Name)
		}
		if l := parts[i].Lines; l != nil && len(l) != base64LinesSize(len(parts[i].Data)) {
			return nil, fmt.Errorf("mailbox: compose: part %q: its Lines are not its data's base64", parts[i].Name)
		}
		cuts = append(cuts, cut{from + at, len(line), i})
		from += at + len(line)
		size += base64LinesSize(len(parts[i].Data)) - len(line)
	}
	out, at := make([]byte, 0, size), 0
	for _, c := range cuts {
		out = append(out, b[at:c.at]...)
		if p := parts[c.part]; p.Lines != nil {
			out = append(out, p.Lines...)
		} else {
			out = appendBase64Lines(out, p.Data)
		}
		at = c.at + c.n
	}
	return append(out, b[at:]...), nil
}

// lineBytes is the data in one line of base64: 57 bytes make the 76
// characters after which go-mail breaks the line (RFC 2045, 6.8).
const lineBytes = 57

// base64LinesSize is the length of appendBase64Lines' text for n bytes.
func base64LinesSize(n int) int {
	size := n / lineBytes * (base64.StdEncoding.EncodedLen(lineBytes) + 2)
	if r := n % lineBytes; r > 0 {
		size += base64.StdEncoding.EncodedLen(r) + 2
	}
	return size
}

// Base64Lines is data in base64 as Compose writes a part (Part.Lines).
func Base64Lines(data []byte) []byte {
	return appendBase64Lines(make([]byte, 0, base64LinesSize(len(data))), data)
}

// appendBase64Lines appends data in base64 as go-mail writes a part:
// lines of 76 characters and the last one shorter, each ended by CRLF.
func appendBase64Lines(out, data []byte) []byte {
	for len(data) > 0 {
		n := min(len(data), lineBytes)
		out = base64.StdEncoding.AppendEncode(out, data[:n])
		out = append(out, '\r', '\n')
		data = data[n:]
	}
	return out
}

// msg builds the go-mail message for o, giving go-mail stand[i] as the
// data of o's i-th part (Outgoing.parts, standIns).
func (o Outgoing) msg(stand [][]byte) (*gomail.Msg, error) {
	fail := func(format string, args ...any) error {
		return fmt.Errorf("mailbox: compose %q: %s", o.MessageID, fmt.Sprintf(format, args...))
	}
	if o.MessageID == "" {
		return nil, errors.New("mailbox: compose: no MessageID")
	}
	for _, id := range append([]string{o.MessageID, o.InReplyTo}, o.References...) {
		if strings.ContainsAny(id, "<> \t\r\n") {
			return nil, fail("message id %q: must be bare (no <>, no spaces)", id)
		}
	}
	if len(o.To) == 0 {
		return nil, fail("no recipients")
	}
	if o.Text == "" && o.HTML == "" && len(o.Inline)+len(o.Attachments) == 0 {
		return nil, fail("empty message: no text, HTML or parts")
	}
	if len(o.Inline) > 0 && o.HTML == "" {
		return nil, fail("inline parts need an HTML body to show them")
	}
	if strings.ContainsAny(o.Subject, "\r\n") {
		return nil, fail("subject contains a line break")
	}

	m := gomail.NewMsg(gomail.WithNoDefaultUserAgent())
	if err := m.From(o.From); err != nil {
		return nil, fail("From %q: %v", o.From, err)
	}
	if err := m.To(o.To...); err != nil {
		return nil, fail("To %q: %v", o.To, err)
	}
	if o.EnvelopeFrom != "" && o.EnvelopeFrom != "<>" {
		if err := m.EnvelopeFrom(o.EnvelopeFrom); err != nil {
			return nil, fail("EnvelopeFrom %q: %v", o.EnvelopeFrom, err)
		}
	}
	m.Subject(o.Subject)
	date := o.Date
	if date.IsZero() {
		date = time.Now()
	}
	m.SetDateWithValue(date)
	m.SetMessageIDWithValue(o.MessageID) // adds the <>
	if o.InReplyTo != "" {
		m.SetGenHeader(gomail.HeaderInReplyTo, "<"+o.InReplyTo+">") // SetGenHeader adds no <>
	}
	if len(o.References) > 0 {
		refs := make([]string, len(o.References))
		for i, r := range o.References {
			refs[i] = "<" + r + ">"
		}
		// One space-joined value: several values would be joined by ", ",
		// which go-message's MsgIDList cannot read.
		m.SetGenHeader(gomail.HeaderReferences, strings.Join(refs, " "))
	}
	for _, k := range slices.Sorted(maps.Keys(o.Headers)) {
		v := o.Headers[k]
		if !validHeaderName(k) {
			return nil, fail("header name %q is not valid", k)
		}
		if slices.Contains(reservedHeaders, strings.ToLower(k)) {
			return nil, fail("header %q is written by Compose; use the Outgoing field", k)
		}
		if strings.ContainsAny(v, "\r\n") {
			return nil, fail("header %q contains a line break", k)
		}
		m.SetGenHeader(gomail.Header(k), v)
	}

	switch {
	case o.Text != "" && o.HTML != "":
		m.SetBodyString(gomail.TypeTextPlain, o.Text)
		m.AddAlternativeString(gomail.TypeTextHTML, o.HTML)
	case o.HTML != "":
		m.SetBodyString(gomail.TypeTextHTML, o.HTML)
	case o.Text != "":
		m.SetBodyString(gomail.TypeTextPlain, o.Text)
	}
	for i, p := range o.Inline {
		cid := strings.Trim(p.ContentID, "<>")
		if cid == "" {
			cid = p.Name
		}
		m.EmbedReadSeeker(p.Name, bytes.NewReader(stand[i]), partOptions(p, "<"+cid+">")...)
	}
	for i, p := range o.Attachments {
		m.AttachReadSeeker(p.Name, bytes.NewReader(stand[len(o.Inline)+i]), partOptions(p, "")...)
	}
	return m, nil
}

func partOptions(p Part, contentID string) []gomail.FileOption {
	var opts []gomail.FileOption
	if p.ContentType != "" {
		opts = append(opts, gomail.WithFileContentType(gomail.ContentType(p.ContentType)))
	}
	if contentID != "" {
		opts = append(opts, gomail.WithFileContentID(contentID)) // written verbatim
	}
	return opts
}

// envelopeFrom is the MAIL FROM path for o, with angle brackets.
func (o Outgoing) envelopeFrom() (string, error) {
	switch o.EnvelopeFrom {
	case "<>":
		return "<>", nil
	case "":
		a, err := mail.ParseAddress(o.From)
		if err != nil {
			return "", fmt.Errorf("mailbox: From %q: %w", o.From, err)
		}
		return "<" + a.Address + ">", nil
	}
	a, err := mail.ParseAddress(o.EnvelopeFrom)
	if err != nil {
		return "", fmt.Errorf("mailbox: EnvelopeFrom %q: %w", o.EnvelopeFrom, err)
	}
	return "<" + a.Address + ">", nil
}

// recipients are the RCPT TO paths for o, with angle brackets.
func (o Outgoing) recipients() ([]string, error) {
	out := make([]string, 0, len(o.To))
	for _, t := range o.To {
		a, err := mail.ParseAddress(t)
		if err != nil {
			return nil, fmt.Errorf("mailbox: To %q: %w", t, err)
		}
		out = append(out, "<"+a.Address+">")
	}
	return out, nil
}

func validHeaderName(k string) bool {
	if k == "" {
		return false
	}
	for i := 0; i < len(k); i++ {
		c := k[i]
		if c <= ' ' || c >= 0x7f || c == ':' {
			return false
		}
	}
	return true
}

// goMailBoundary matches the boundaries go-mail (through mime/multipart)
// draws at random: 30 random bytes in hex.
var goMailBoundary = regexp.MustCompile(`boundary=([0-9a-f]{60})\r\n`)

// stableBoundaries replaces go-mail's random multipart boundaries in the
// message b with "herald-N-HASH", where HASH is the start of sum, the
// digest of what the message's text holds (Outgoing.digest). A boundary
// must not occur in the parts it separates; text parts are
// quoted-printable and binary ones base64, so the only way to contain the
// new boundary is to contain a hash of itself. The parts' data are still
// their stand-ins in b (Compose).
func stableBoundaries(b, sum []byte) []byte {
	olds := declaredBoundaries(b)
	if len(olds) == 0 {
		return b
	}
	// One pass finds every boundary and one writes the message again in
	// place, where replacing each boundary in turn, twice, read it a
	// dozen times (when the message still held a map's base64).
	spans := boundarySpans(b, olds)
	news := make([][]byte, len(olds))
	for i := range olds {
		news[i] = fmt.Appendf(nil, "herald-%d-%x", i+1, sum[:12])
	}
	return replaceSpans(b, spans, olds, news)
}

// replaceSpans replaces each span's old boundary with its new one in b
// itself: the new ones are shorter (go-mail's are 60 characters, as
// goMailBoundary matches them, Herald's 33 and a digit or two), so the
// text written never reaches the text not yet read.
func replaceSpans(b []byte, spans []span, olds, news [][]byte) []byte {
	out, at := b[:0], 0
	for _, sp := range spans {
		out = append(append(out, b[at:sp.start]...), news[sp.which]...)
		at = sp.start + len(olds[sp.which])
	}
	return append(out, b[at:]...)
}

// span is where boundary which of a message occurs.
type span struct{ start, which int }

// declaredBoundaries are the boundaries go-mail declared in b
// (goMailBoundary's matches), each once, in order. They are looked for
// from each '=', which base64 has only at its end; the expression alone
// tried every 'b', one byte in 64 of base64.
func declaredBoundaries(b []byte) [][]byte {
	const name = "boundary"
	var olds [][]byte
	for at := len(name); at < len(b); at++ {
		i := bytes.IndexByte(b[at:], '=')
		if i < 0 {
			break
		}
		at += i
		// A match is "boundary=", 60 digits and a line break: only one
		// starting where the window does fits in it.
		m := goMailBoundary.FindSubmatch(b[at-len(name) : min(len(b), at+1+60+2)])
		if m != nil && !slices.ContainsFunc(olds, func(o []byte) bool { return bytes.Equal(o, m[1]) }) {
			olds = append(olds, m[1])
		}
	}
	return olds
}

// boundarySpans lists where the boundaries olds occur in b, in order: in
// what go-mail writes, after a '=' (where a part declares it) and after
// "--" (its delimiter lines). Those bytes are looked for one by one, and
// base64 has them not (but for its padding): the search passes over a
// part at once, where bytes.Index of a boundary soon fell back to
// comparing it at every byte. Random boundaries of the same length never
// overlap.
func boundarySpans(b []byte, olds [][]byte) []span {
	var spans []span
	for _, lead := range [][]byte{[]byte("="), []byte("--")} {
		for at := 0; ; {
			i := bytes.IndexByte(b[at:], lead[0])
			if i < 0 {
				break
			}
			at += i
			if which := boundaryAfter(b[at:], lead, olds); which >= 0 {
				spans = append(spans, span{at + len(lead), which})
				at += len(lead) + len(olds[which])
			} else {
				at++
			}
		}
	}
	slices.SortFunc(spans, func(x, y span) int { return x.start - y.start })
	return spans
}

// boundaryAfter is which of olds follows lead at the start of b, or -1.
func boundaryAfter(b, lead []byte, olds [][]byte) int {
	if !bytes.HasPrefix(b, lead) {
		return -1
	}
	return slices.IndexFunc(olds, func(o []byte) bool { return bytes.HasPrefix(b[len(lead):], o) })
}
