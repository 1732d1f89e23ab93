package mailbox

import (
	"bytes"
	"flag"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	_ "github.com/emersion/go-message/charset"
	"github.com/emersion/go-message/mail"
)

var update = flag.Bool("update", false, "rewrite golden files in testdata")

func TestComposeGolden(t *testing.T) {
	tests := []struct {
		name string
		o    func() Outgoing
	}{
		{"related", sampleOutgoing},
		{"text-only", func() Outgoing {
			o := sampleOutgoing()
			o.HTML, o.Inline, o.References, o.InReplyTo = "", nil, nil, ""
			return o
		}},
		{"mixed", func() Outgoing {
			o := sampleOutgoing()
			o.Attachments = []Part{{Name: "game-42.log", ContentType: "text/plain", Data: []byte("seed 4f2a\n")}}
			return o
		}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			got, err := Compose(tc.o())
			if err != nil {
				t.Fatal(err)
			}
			again, err := Compose(tc.o())
			if err != nil {
				t.Fatal(err)
			}
			if !bytes.Equal(got, again) {
				t.Fatalf("Compose is not deterministic:\n%s\n---\n%s", got, again)
			}
			if bytes.Contains(bytes.ReplaceAll(got, []byte("\r\n"), nil), []byte("\n")) {
				t.Error("bare LF in composed message")
			}
			path := filepath.Join("testdata", "compose-"+tc.name+".eml")
			if *update {
				if err := os.WriteFile(path, got, 0o644); err != nil {
					t.Fatal(err)
				}
			}
			want, err := os.ReadFile(path)
			if err != nil {
				t.Fatalf("%v (run with -update to create it)", err)
			}
			if !bytes.Equal(got, want) {
				t.Errorf("Compose differs from %s (run with -update if intended):\n%s", path, got)
			}
		})
	}
}

// TestComposeParsesBack reads the composed mail with go-message, as the
// daemon's intake will: threading headers, structure and parts.
func TestComposeParsesBack(t *testing.T) {
	o := sampleOutgoing()
	o.Attachments = []Part{{Name: "game-42.log", ContentType: "text/plain", Data: []byte("seed 4f2a\n")}}
	raw, err := Compose(o)
	if err != nil {
		t.Fatal(err)
	}
	r, err := mail.CreateReader(bytes.NewReader(raw))
	if err != nil {
		t.Fatal(err)
	}
	h := r.Header
	if id, err := h.MessageID(); err != nil || id != o.MessageID {
		t.Errorf("MessageID = %q, %v", id, err)
	}
	refs, err := h.MsgIDList("References")
	if err != nil || !slices.Equal(refs, o.References) {
		t.Errorf("References = %q, %v; want %q", refs, err, o.References)
	}
	if irt, err := h.MsgIDList("In-Reply-To"); err != nil || !slices.Equal(irt, []string{o.InReplyTo}) {
		t.Errorf("In-Reply-To = %q, %v", irt, err)
	}
	if s, err := h.Subject(); err != nil || s != o.Subject {
		t.Errorf("Subject = %q, %v", s, err)
	}
	for k, v := range o.Headers {
		if got := h.Get(k); got != v {
			t.Errorf("%s = %q, want %q", k, got, v)
		}
	}
	if h.Get("User-Agent") != "" || h.Get("X-Mailer") != "" {
		t.Error("User-Agent/X-Mailer written")
	}
	if ct, _, _ := h.ContentType(); ct != "multipart/mixed" {
		t.Errorf("top Content-Type = %q", ct)
	}

	var kinds []string
	for {
		p, err := r.NextPart()
		if err == io.EOF {
			break
		}
		if err != nil {
			t.Fatal(err)
		}
		body, _ := io.ReadAll(p.Body)
		switch ph := p.Header.(type) {
		case *mail.InlineHeader:
			ct, _, _ := ph.ContentType()
			kinds = append(kinds, ct)
			switch ct {
			case "text/plain":
				if got := strings.ReplaceAll(string(body), "\r\n", "\n"); got != o.Text {
					t.Errorf("text = %q, want %q", got, o.Text)
				}
			case "text/html":
				if string(body) != o.HTML {
					t.Errorf("html = %q", body)
				}
			case "image/png":
				if cid := ph.Get("Content-Id"); cid != "<map-t3@pbem.example>" {
					t.Errorf("Content-ID = %q", cid)
				}
				if !bytes.Equal(body, o.Inline[0].Data) {
					t.Errorf("image bytes differ")
				}
			}
		case *mail.AttachmentHeader:
			name, _ := ph.Filename()
			kinds = append(kinds, "attachment:"+name)
		}
	}
	want := []string{"text/plain", "text/html", "image/png", "attachment:game-42.log"}
	if !slices.Equal(kinds, want) {
		t.Errorf("parts = %v, want %v", kinds, want)
	}
	// The nesting: mixed(related(alternative(text, html), image), attachment).
	for _, want := range []string{"multipart/mixed", "multipart/related", "multipart/alternative"} {
		if !bytes.Contains(raw, []byte("Content-Type: "+want+";")) {
			t.Errorf("no %s in\n%s", want, raw)
		}
	}
}

func TestComposeErrors(t *testing.T) {
	tests := []struct {
		name string
		mod  func(*Outgoing)
		want string
	}{
		{"no message id", func(o *Outgoing) { o.MessageID = "" }, "no MessageID"},
		{"angle brackets", func(o *Outgoing) { o.MessageID = "<x@y>" }, "bare"},
		{"bad reference", func(o *Outgoing) { o.References = []string{"a b"} }, "bare"},
		{"no recipients", func(o *Outgoing) { o.To = nil }, "no recipients"},
		{"bad from", func(o *Outgoing) { o.From = "not an address" }, "From"},
		{"header injection", func(o *Outgoing) { o.Headers = map[string]string{"X-A": "v\r\nBcc: evil@example.org"} }, "line break"},
		{"subject injection", func(o *Outgoing) { o.Subject = "a\nBcc: x" }, "line break"},
		{"reserved header", func(o *Outgoing) { o.Headers = map[string]string{"content-type": "text/plain"} }, "written by Compose"},
		{"bad header name", func(o *Outgoing) { o.Headers = map[string]string{"X A": "v"} }, "not valid"},
		{"inline without html", func(o *Outgoing) { o.HTML = "" }, "HTML"},
		{"empty", func(o *Outgoing) { o.Text, o.HTML, o.Inline = "", "", nil }, "empty"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			o := sampleOutgoing()
			tc.mod(&o)
			_, err := Compose(o)
			if err == nil || !strings.Contains(err.Error(), tc.want) || !strings.HasPrefix(err.Error(), "mailbox: ") {
				t.Errorf("Compose = %v, want error containing %q", err, tc.want)
			}
		})
	}
}

func TestStableBoundariesDifferPerMessage(t *testing.T) {
	a, err := Compose(sampleOutgoing())
	if err != nil {
		t.Fatal(err)
	}
	o := sampleOutgoing()
	o.Text += "another line\n"
	b, err := Compose(o)
	if err != nil {
		t.Fatal(err)
	}
	ba := goMailBoundaryLine(a)
	bb := goMailBoundaryLine(b)
	if ba == "" || ba == bb {
		t.Errorf("boundaries %q and %q: want distinct, non-empty", ba, bb)
	}
}

func goMailBoundaryLine(b []byte) string {
	for _, line := range strings.Split(string(b), "\r\n") {
		if strings.HasPrefix(line, " boundary=") {
			return line
		}
	}
	return ""
}

// stableBoundaries writes what replacing each boundary in turn wrote, in
// a few passes over the message: for mails of text alone, with attachments
// and with a half-megabyte inline picture.
func TestStableBoundariesAsReplaced(t *testing.T) {
	picture := bytes.Repeat([]byte{0x89, 'P', 'N', 'G', 7, 200, 13, 0}, 64<<10)
	for _, o := range []Outgoing{
		{From: "h@x", To: []string{"p@x"}, Subject: "s", Text: "text -- --\n", MessageID: "a@x"},
		{From: "h@x", To: []string{"p@x"}, Subject: "s", Text: "text", HTML: "<p>html</p>", MessageID: "b@x",
			Attachments: []Part{{Name: "game.json", ContentType: "application/json", Data: []byte(`{"a":1}`)}}},
		{From: "h@x", To: []string{"p@x"}, Subject: "s", Text: "text", HTML: `<img src="cid:map@x">`, MessageID: "c@x",
			Inline: []Part{{Name: "map.png", ContentType: "image/png", ContentID: "map@x", Data: picture}}},
	} {
		raw := goMailWrites(t, o)
		got, want := stableBoundaries(bytes.Clone(raw), o.digest()), replacedBoundaries(raw, o.digest())
		if !bytes.Equal(got, want) {
			t.Errorf("%s: the boundaries differ from those replaced in turn", o.MessageID)
		}
		if bytes.Equal(got, raw) && goMailBoundary.Match(raw) {
			t.Errorf("%s: no boundary replaced", o.MessageID)
		}
	}
}

// goMailWrites is what go-mail writes for o given the parts' own data,
// not stand-ins.
func goMailWrites(t *testing.T, o Outgoing) []byte {
	t.Helper()
	var data [][]byte
	for _, p := range o.parts() {
		data = append(data, p.Data)
	}
	m, err := o.msg(data)
	if err != nil {
		t.Fatal(err)
	}
	var raw bytes.Buffer
	if _, err := m.WriteTo(&raw); err != nil {
		t.Fatal(err)
	}
	return raw.Bytes()
}

// The stand-ins' lines replaced by the parts' base64 are the very bytes
// go-mail writes when it encodes the data itself: for data of every
// length around a line's 57 bytes, none, a picture, several parts of the
// same bytes, and an attachment to a text alone.
func TestSplicedAsGoMailWrites(t *testing.T) {
	picture := make([]byte, 175<<10)
	for i := range picture {
		picture[i] = byte(i*7919 + i>>9)
	}
	mail := func(id string, inline, attached []Part) Outgoing {
		o := Outgoing{From: "h@x", To: []string{"p@x"}, Subject: "s", Text: "text", MessageID: id,
			Date: time.Unix(1e9, 0), Inline: inline, Attachments: attached}
		if len(inline) > 0 {
			o.HTML = `<img src="cid:map@x">`
		}
		return o
	}
	var cases []Outgoing
	for _, n := range []int{0, 1, 2, 3, 47, 48, 56, 57, 58, 113, 114, 115, 1000, len(picture)} {
		part := Part{Name: "map.png", ContentType: "image/png", ContentID: "map@x", Data: picture[:n]}
		cases = append(cases, mail(fmt.Sprintf("n%d@x", n), []Part{part}, nil))
	}
	same := Part{Name: "a.png", Data: picture[:5000]}
	cases = append(cases,
		mail("many@x", []Part{same, same, {Name: "b.png", Data: picture}}, []Part{same, {Name: "empty.json"}}),
		Outgoing{From: "h@x", To: []string{"p@x"}, Subject: "s", Text: "text", MessageID: "alone@x", Date: time.Unix(1e9, 0),
			Attachments: []Part{{Name: "game.json", ContentType: "application/json", Data: []byte(`{"a":1}`)}}},
	)
	for _, o := range cases {
		got, err := Compose(o)
		if err != nil {
			t.Fatal(err)
		}
		if want := stableBoundaries(goMailWrites(t, o), o.digest()); !bytes.Equal(got, want) {
			t.Errorf("%s: %d bytes spliced, go-mail wrote %d: first difference at %d",
				o.MessageID, len(got), len(want), firstDifference(got, want))
		}
		if encoded, err := Compose(withLines(o)); err != nil || !bytes.Equal(encoded, got) {
			t.Errorf("%s: with the parts' Lines given: %v, or other bytes", o.MessageID, err)
		}
	}
}

// withLines is o with each part's Lines set, as a part sent in several
// mails has them.
func withLines(o Outgoing) Outgoing {
	set := func(parts []Part) []Part {
		parts = slices.Clone(parts)
		for i := range parts {
			parts[i].Lines = Base64Lines(parts[i].Data)
		}
		return parts
	}
	o.Inline, o.Attachments = set(o.Inline), set(o.Attachments)
	return o
}

// Lines that are not the data's base64 are refused rather than sent.
func TestWrongLinesRefused(t *testing.T) {
	o := withLines(sampleOutgoing())
	if len(o.Inline) == 0 {
		t.Fatal("the sample has no inline part")
	}
	o.Inline[0].Lines = o.Inline[0].Lines[:len(o.Inline[0].Lines)-3]
	if _, err := Compose(o); err == nil || !strings.Contains(err.Error(), "not its data's base64") {
		t.Errorf("Compose with short Lines: %v", err)
	}
}

// firstDifference is the first index at which a and b differ.
func firstDifference(a, b []byte) int {
	for i := range min(len(a), len(b)) {
		if a[i] != b[i] {
			return i
		}
	}
	return min(len(a), len(b))
}

// replacedBoundaries is stableBoundaries as first written: each boundary
// replaced in turn.
func replacedBoundaries(b, sum []byte) []byte {
	var olds [][]byte
	for _, m := range goMailBoundary.FindAllSubmatch(b, -1) {
		if !slices.ContainsFunc(olds, func(o []byte) bool { return bytes.Equal(o, m[1]) }) {
			olds = append(olds, m[1])
		}
	}
	for i, o := range olds {
		b = bytes.ReplaceAll(b, o, fmt.Appendf(nil, "herald-%d-%x", i+1, sum[:12]))
	}
	return b
}

// The boundaries digest what the mail's text can hold, not the parts'
// bytes, which go out in base64 and hold no '-': two mails that differ
// in a picture's bytes alone have the same boundaries, and a picture of
// another length changes them.
func TestStableBoundariesSkipPartBytes(t *testing.T) {
	o := sampleOutgoing()
	if len(o.Inline) == 0 {
		t.Fatal("the sample has no inline part")
	}
	boundary := func(o Outgoing) string {
		t.Helper()
		b, err := Compose(o)
		if err != nil {
			t.Fatal(err)
		}
		return goMailBoundaryLine(b)
	}
	first := boundary(o)
	o.Inline = slices.Clone(o.Inline)
	data := bytes.Clone(o.Inline[0].Data)
	data[len(data)/2] ^= 0xff
	o.Inline[0].Data = data
	if got := boundary(o); got != first {
		t.Errorf("a picture's bytes changed the boundary: %q, was %q", got, first)
	}
	o.Inline[0].Data = append(data, 0)
	if got := boundary(o); got == first {
		t.Errorf("a picture's length left the boundary %q", got)
	}
}
