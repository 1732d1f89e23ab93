package mailbox

import (
	"bufio"
	"bytes"
	"net/textproto"
	"testing"
)

// dotWriter is what go-mail's Client.Data writes for raw: net/textproto's
// DotWriter, written and closed.
func dotWriter(t testing.TB, raw []byte) []byte {
	var out bytes.Buffer
	bw := bufio.NewWriter(&out)
	w := textproto.NewWriter(bw).DotWriter()
	if _, err := w.Write(raw); err != nil {
		t.Fatal(err)
	}
	if err := w.Close(); err != nil {
		t.Fatal(err)
	}
	return out.Bytes()
}

func writtenData(t testing.TB, raw []byte) []byte {
	var out bytes.Buffer
	if err := writeData(bufio.NewWriterSize(&out, 16), raw); err != nil {
		t.Fatal(err)
	}
	return out.Bytes()
}

var dataCases = []string{
	"", ".", "\n", "\r", "\r\n", "a", "a\r", "a\r\r", "a\r\r\n", "\r\r\r\n.",
	"Subject: x\r\n\r\n.hidden\r\n..two\r\nend",
	"bare\nfeeds\n.dot\n", "mixed\r\nends\nand\r\r\nmore\r",
	".\r\n.\r\n", "a\rb\r\nc", "\n.\n", "x\r\n",
}

// writeData writes, for every text, the bytes DotWriter does: dots
// doubled at the start of a line, bare line feeds given their carriage
// return, the end line.
func TestWriteDataAsDotWriter(t *testing.T) {
	for _, c := range dataCases {
		if got, want := writtenData(t, []byte(c)), dotWriter(t, []byte(c)); !bytes.Equal(got, want) {
			t.Errorf("writeData(%q) = %q, DotWriter writes %q", c, got, want)
		}
	}
	if got := writtenData(t, []byte(".a\r\nb")); string(got) != "..a\r\nb\r\n.\r\n" {
		t.Errorf("writeData = %q", got)
	}
}

func FuzzWriteData(f *testing.F) {
	for _, c := range dataCases {
		f.Add([]byte(c))
	}
	f.Fuzz(func(t *testing.T, raw []byte) {
		if got, want := writtenData(t, raw), dotWriter(t, raw); !bytes.Equal(got, want) {
			t.Errorf("writeData(%q) = %q, DotWriter writes %q", raw, got, want)
		}
	})
}

// unstuffed is the text a server reads from DATA's stream: the lines up
// to the line of a dot, each without the dot DotWriter doubled.
func unstuffed(stream []byte) []byte {
	var text []byte
	for _, line := range bytes.SplitAfter(stream, []byte("\r\n")) {
		if string(line) == ".\r\n" {
			break
		}
		text = append(text, bytes.TrimPrefix(line, []byte("."))...)
	}
	return text
}

// A text canonical calls so is one DATA delivers as it is: a chunk may
// carry it unchanged.
func TestCanonical(t *testing.T) {
	for raw, want := range map[string]bool{
		"a\r\n": true, "Subject: x\r\n\r\n.dot\r\n..two\r\n": true, "\r\n": true,
		"": false, "a": false, "a\n": false, "a\r\nb": false, "a\rb\r\n": false,
		"a\r\r\n": false, "\n\r\n": false, "a\r\n\r": false,
	} {
		if got := canonical([]byte(raw)); got != want {
			t.Errorf("canonical(%q) = %v, want %v", raw, got, want)
		}
		if want {
			if got := unstuffed(dotWriter(t, []byte(raw))); string(got) != raw {
				t.Errorf("DATA delivers %q as %q", raw, got)
			}
		}
	}
}

func FuzzCanonical(f *testing.F) {
	for _, c := range dataCases {
		f.Add([]byte(c))
	}
	f.Fuzz(func(t *testing.T, raw []byte) {
		if canonical(raw) {
			if got := unstuffed(dotWriter(t, raw)); !bytes.Equal(got, raw) {
				t.Errorf("canonical(%q), but DATA delivers %q", raw, got)
			}
		}
	})
}
