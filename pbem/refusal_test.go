package pbem

import (
	"errors"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
)

func itoa(n int) string { return strconv.Itoa(n) }

func TestOneBlock(t *testing.T) {
	for _, tc := range []struct {
		name, text, code string
		line             int
	}{
		{"one", "--- herald orders: g move 1 ---\nEND\n--- end orders ---\n", "", 0},
		{"one, and an unterminated begin", "--- herald orders: g move 1 ---\nEND\n--- end orders ---\n--- herald orders: g move 1 ---\n", "", 0},
		{"none", "Hello\n", CodeNoBlock, 0},
		{"unterminated", "Hi\n--- herald orders: g move 1 ---\nEND\n", CodeUnterminated, 2},
		{"two", "--- herald orders: g move 1 ---\nPASS\n--- end orders ---\n\n--- herald orders: g move 1 ---\nEND\n--- end orders ---\n", CodeSeveralBlocks, 5},
		{"two the same: one", "--- herald orders: g move 1 ---\nEND\n--- end orders ---\n\n--- herald orders: g move 1 ---\nEND\n--- end orders ---\n", "", 0},
	} {
		b, r := OneBlock(FindBlocks(tc.text))
		switch {
		case tc.code == "" && (r != nil || b.GameID != "g"):
			t.Errorf("%s: got %+v, %v", tc.name, b, r)
		case tc.code != "" && (r == nil || r.Code != tc.code):
			t.Errorf("%s: got %v, want %s", tc.name, r, tc.code)
		case tc.line != 0 && (r.Line == nil || r.Line.No != tc.line || !strings.HasPrefix(r.Line.Text, "--- herald orders")):
			t.Errorf("%s: line %+v, want %d", tc.name, r.Line, tc.line)
		case r != nil && !strings.Contains(r.Error(), tc.code):
			t.Errorf("%s: Error() %q", tc.name, r.Error())
		}
	}
}

func TestTooLarge(t *testing.T) {
	raw, err := os.ReadFile(filepath.Join("testdata", "mail", "attachment.eml"))
	if err != nil {
		t.Fatal(err)
	}
	_, err = ReadMail(raw, ReadOptions{MaxBytes: 200})
	var me *MailError
	if !errors.As(err, &me) || !me.TooLarge || me.Mail == nil || me.Mail.From != "alice@example.org" || !strings.Contains(me.Reason, "up to 200 bytes") {
		t.Fatalf("got %#v", err)
	}
	if r := ReadRefusal(err); r.Code != CodeTooLarge || r.Message != me.Reason {
		t.Errorf("refusal %+v", r)
	}
	big := append(append([]byte(nil), raw...), make([]byte, 3_400_000)...)
	_, err = ReadMail(big, ReadOptions{})
	want := "your mail is 3.2 MB; Herald reads mails up to 1 MB — send the orders without attachments"
	if !errors.As(err, &me) || me.Reason != want {
		t.Errorf("got %v, want %q", err, want)
	}
}

func TestMalformed(t *testing.T) {
	_, err := ReadMail([]byte("From: alice@example.org\nSubject: x\nContent-Type: multipart/mixed; boundary=b\n\n--b\nContent-Type: text/plain\nContent-Transfer-Encoding: base64\n\n!!!!notbase64\n--b--\n"), ReadOptions{})
	var me *MailError
	if !errors.As(err, &me) || me.Mail == nil || me.Mail.From != "alice@example.org" {
		t.Fatalf("got %#v", err)
	}
	if r := ReadRefusal(err); r.Code != CodeMalformed {
		t.Errorf("refusal %+v", r)
	}
	if ReadRefusal(nil) != nil {
		t.Error("a refusal for no error")
	}
}
