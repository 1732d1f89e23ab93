package dice

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// writeMails writes each text as a saved mail (.eml, RFC 5322, a
// text/plain UTF-8 body in 8bit) and returns their paths.
func writeMails(t *testing.T, texts []string) []string {
	t.Helper()
	dir := t.TempDir()
	var paths []string
	for i, text := range texts {
		mail := "From: Herald <herald@example.org>\r\n" +
			"To: English <english@example.org>\r\n" +
			fmt.Sprintf("Subject: [Herald] mail-1: mail %d\r\n", i+1) +
			"Date: Mon, 2 Jun 2025 10:00:00 +0000\r\n" +
			fmt.Sprintf("Message-ID: <mail-%d@example.org>\r\n", i+1) +
			"MIME-Version: 1.0\r\n" +
			"Content-Type: text/plain; charset=utf-8\r\n" +
			"Content-Transfer-Encoding: 8bit\r\n" +
			"\r\n" + text
		path := filepath.Join(dir, fmt.Sprintf("mail-%d.eml", i+1))
		if err := os.WriteFile(path, []byte(mail), 0o600); err != nil {
			t.Fatal(err)
		}
		paths = append(paths, path)
	}
	return paths
}

// runMails runs tools/verify-dice.py --mail on each path.
func runMails(t *testing.T, python, script string, paths []string, extra ...string) (string, bool) {
	t.Helper()
	args := []string{script}
	for _, p := range paths {
		args = append(args, "--mail", p)
	}
	return runScript(t, python, append(args, extra...)...)
}

// tools/verify-dice.py --mail checks the records of a game's mails as
// checkMails (FindRecords, VerifyRecord, Follows) does, and fails on the
// same mail, and the same roll, when one byte of a record is changed or a
// mail is left out.
func TestPythonVerifiesMails(t *testing.T) {
	python, script := pythonVerifier(t)
	h, records := playMails(t, 31)
	var texts []string
	rolls := 0
	for _, r := range records {
		texts = append(texts, mailText(r))
		rolls += len(r.Rolls)
	}
	last := records[len(records)-1].Checkpoint
	want := fmt.Sprintf("OK: %d mails of game mail-1, batches 0–%d, %d rolls; checkpoint %d:%s\n",
		len(records), len(records)-1, rolls, last.Length, last.Head)
	paths := writeMails(t, texts)
	if out, ok := runMails(t, python, script, paths, "--public-key", h.PublicKey.String()); !ok || out != want {
		t.Fatalf("untampered mails: verify-dice.py printed\n%s\nwant\n%s", out, want)
	}
	// In any order, a batch or more.
	rev := []string{paths[4], paths[2], paths[3]}
	if out, ok := runMails(t, python, script, rev); !ok || !strings.HasPrefix(out, "OK: 3 mails of game mail-1, batches 2–4, ") {
		t.Errorf("mails 3 to 5 in another order: verify-dice.py printed %s", out)
	}
	if out, ok := runMails(t, python, script, paths[:1], "--public-key", PublicKey{1}.String()); ok || !strings.HasPrefix(out, fmt.Sprintf("FAILED: mail 1 (%s), line %d: ", paths[0], recordLine)) {
		t.Errorf("another key: verify-dice.py printed %s", out)
	}
	for _, c := range mailTampers(t, records) {
		t.Run(c.name, func(t *testing.T) {
			mail, line, err := checkMails(c.texts, nil)
			if err == nil || mail != c.mail {
				t.Fatalf("Go: mail %d, %v; want a failure at mail %d", mail, err, c.mail)
			}
			paths := writeMails(t, c.texts)
			where := fmt.Sprintf("FAILED: mail %d (%s), line %d", mail, paths[mail-1], line)
			if c.roll != "" {
				where += " (" + c.roll + ")"
			}
			out, ok := runMails(t, python, script, paths)
			if ok || !strings.HasPrefix(out, where+": ") {
				t.Errorf("verify-dice.py printed\n%s\nwant it to begin with\n%s: (Go: %v)", out, where, err)
			}
		})
	}
	// A record that does not read names its line.
	bad := strings.Replace(texts[2], "\r\nbatch 2\r\n", "\r\nbatch 02\r\n", 1)
	paths = writeMails(t, []string{texts[1], bad})
	_, line, err := checkMails([]string{texts[1], bad}, nil)
	where := fmt.Sprintf("FAILED: mail 2 (%s), line %d: ", paths[1], line)
	if out, ok := runMails(t, python, script, paths); err == nil || ok || !strings.HasPrefix(out, where) {
		t.Errorf("batch 02: Go %v; verify-dice.py printed\n%s\nwant it to begin with\n%s", err, out, where)
	}
}
