package command

import (
	"bytes"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"runtime"
	"sort"
	"strings"
	"testing"
	"time"

	"herald/pbem"
	"herald/pbem/dice"
	"herald/pbem/mailbox"
)

// demoMails plays a melee-test game by mail in herald demo and returns
// the mails each player received, in order, as the files herald demo
// wrote (issue 15: a saved result mail of a real game).
func demoMails(t *testing.T) (map[string][]string, string) {
	t.Helper()
	out := t.TempDir()
	var stdout, stderr bytes.Buffer
	if code := Main([]string{"demo", "--out", out, "--moves", "4", "--scenario", "melee-test"}, strings.NewReader(""), &stdout, &stderr); code != 0 {
		t.Fatalf("herald demo: exit %d\n%s%s", code, stdout.String(), stderr.String())
	}
	mails := map[string][]string{}
	for _, p := range []string{"alice", "bob"} {
		files, _ := filepath.Glob(filepath.Join(out, p+"-*.eml"))
		sort.Strings(files)
		if len(files) < 4 {
			t.Fatalf("%s received %d mails, want a welcome and results", p, len(files))
		}
		mails[p] = files
	}
	return mails, filepath.Join(out, "dice.jsonl")
}

// rewriteMail writes a copy of a saved mail whose text part edit changed,
// as a plain text mail, and returns its path.
func rewriteMail(t *testing.T, path string, edit func(string) string) string {
	t.Helper()
	m, err := pbem.ReadMail(mustRead(t, path), pbem.ReadOptions{MaxBytes: 32 << 20})
	if err != nil {
		t.Fatal(err)
	}
	text := edit(m.Text)
	if text == m.Text {
		t.Fatalf("%s: the edit changed nothing", path)
	}
	raw, err := mailbox.Compose(mailbox.Outgoing{From: "herald@localhost", To: []string{"alice@localhost"},
		Subject: m.Subject, Date: time.Unix(0, 0).UTC(), MessageID: "changed@localhost", Text: text})
	if err != nil {
		t.Fatal(err)
	}
	out := filepath.Join(t.TempDir(), filepath.Base(path))
	if err := os.WriteFile(out, raw, 0o600); err != nil {
		t.Fatal(err)
	}
	return out
}

// recordLine finds the first record line of a saved mail matching re
// (with a roll, a seed, an order …) and the mail's index in files.
func recordLine(t *testing.T, files []string, re *regexp.Regexp) (int, string) {
	t.Helper()
	for i, f := range files {
		m, err := pbem.ReadMail(mustRead(t, f), pbem.ReadOptions{MaxBytes: 32 << 20})
		if err != nil {
			t.Fatal(err)
		}
		if _, rec, ok := strings.Cut(m.Text, dice.RecordBegin); ok {
			if l := re.FindString(rec); l != "" {
				return i, l
			}
		}
	}
	t.Fatalf("no mail's record has a line matching %s", re)
	return 0, ""
}

// flipLast changes the last character of s to another digit or letter.
func flipLast(s string) string {
	c := s[len(s)-1]
	r := byte('0')
	if c == '0' {
		r = '1'
	}
	return s[:len(s)-1] + string(r)
}

// Issue 15, finding 2: a player checks the rolls of each mail the moment
// it arrives, from the saved mail alone, with herald verify --mail and
// tools/verify-dice.py --mail; a one-byte change to a roll, a seed or an
// order text, or a mail left out between two, fails naming it.
func TestVerifyMailOfARealGame(t *testing.T) {
	mails, export := demoMails(t)
	for p, files := range mails {
		code, out := verifyArgs(t, append([]string{"--mail"}, files...)...)
		want := fmt.Sprintf("OK: %d mails of game ", len(files))
		if code != 0 || !strings.HasPrefix(out, want) {
			t.Errorf("herald verify --mail on %s's %d mails: exit %d\n%s", p, len(files), code, out)
		}
		pythonVerifyMail(t, files, 0, "OK: ")
		// The whole game's export, against the checkpoints of the mails.
		code, out = verifyArgs(t, append(append([]string{"--mail"}, files...), export)...)
		if code != 0 || !strings.Contains(out, fmt.Sprintf("checkpoints matched: %d", len(files))) {
			t.Errorf("herald verify --mail … EXPORT for %s: exit %d\n%s", p, code, out)
		}
	}
	files := mails["alice"]
	rolled := regexp.MustCompile(`(?m)^roll \d+ \d+ \d .+$`)
	seeded := regexp.MustCompile(`(?m)^seed [0-9a-f]{64}$`)
	ordered := regexp.MustCompile(`(?m)^order .+$`)
	cases := []struct {
		name string
		re   *regexp.Regexp
		edit func(line string) string
		want string
	}{
		{"a roll's value", rolled, func(l string) string {
			f := strings.SplitN(l, " ", 5)
			f[3] = map[bool]string{true: "1", false: "0"}[f[3] == "0"]
			return strings.Join(f, " ")
		}, `\(roll #\d+, .+\): value \d, but the seed and the orders give \d`},
		{"a seed", seeded, flipLast, `: seed [0-9a-f]{64} hashes to`},
		{"an order", ordered, func(l string) string { return l + "x" }, `: block [0-9a-f]{64}, but the orders shown hash to`},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			i, line := recordLine(t, files, c.re)
			changed := append([]string(nil), files...)
			changed[i] = rewriteMail(t, files[i], func(text string) string { return strings.Replace(text, line, c.edit(line), 1) })
			code, out := verifyArgs(t, append([]string{"--mail"}, changed...)...)
			where := fmt.Sprintf("FAILED: mail %d (%s), line ", i+1, changed[i])
			if code != 1 || !strings.HasPrefix(out, where) || !regexp.MustCompile(c.want).MatchString(out) {
				t.Errorf("changed %q in mail %d: exit %d\n%s\nwant %s… %s", line, i+1, code, out, where, c.want)
			}
			pythonVerifyMail(t, changed, 1, where)
		})
	}
	t.Run("a notice among them", func(t *testing.T) {
		notice := rewriteMail(t, files[1], func(text string) string {
			return "Standing orders set.\n" + text[:strings.Index(text, dice.RecordBegin)]
		})
		with := append(append([]string(nil), files...), notice)
		code, out := verifyArgs(t, append([]string{"--mail"}, with...)...)
		skipped := "skipped " + notice + ": no dice record"
		if code != 0 || !strings.HasPrefix(out, fmt.Sprintf("OK: %d mails of game ", len(files))) || !strings.Contains(out, skipped) {
			t.Errorf("a notice among the mails: exit %d\n%s", code, out)
		}
		pythonVerifyMail(t, with, 0, fmt.Sprintf("OK: %d mails of game ", len(files)))
		if code, out := verifyArgs(t, "--mail", notice); code != 1 || !strings.Contains(out, "no dice record") {
			t.Errorf("a notice alone: exit %d\n%s", code, out)
		}
		pythonVerifyMail(t, []string{notice}, 1, "FAILED: mail 1 ")
	})
	t.Run("a mail left out", func(t *testing.T) {
		gap := append(append([]string(nil), files[:2]...), files[3:]...)
		code, out := verifyArgs(t, append([]string{"--mail"}, gap...)...)
		if code != 1 || !strings.Contains(out, "a batch in between was never mailed to you") {
			t.Errorf("a mail left out: exit %d\n%s", code, out)
		}
		pythonVerifyMail(t, gap, 1, "FAILED: mail ")
	})
}

// pythonVerifyMail runs tools/verify-dice.py --mail on files, when
// python3 is installed, and wants its exit code and the start of its
// output to agree with herald verify's.
func pythonVerifyMail(t *testing.T, files []string, wantCode int, wantPrefix string) {
	t.Helper()
	py, err := exec.LookPath("python3")
	if err != nil {
		t.Log("python3 is not installed: tools/verify-dice.py not run")
		return
	}
	_, file, _, _ := runtime.Caller(0)
	script := filepath.Join(filepath.Dir(file), "..", "..", "..", "tools", "verify-dice.py")
	args := []string{script}
	for _, f := range files {
		args = append(args, "--mail", f)
	}
	out, err := exec.Command(py, args...).CombinedOutput()
	code := 0
	if ee, ok := err.(*exec.ExitError); ok {
		code = ee.ExitCode()
	} else if err != nil {
		t.Fatal(err)
	}
	if code != wantCode || !strings.HasPrefix(string(out), wantPrefix) {
		t.Errorf("verify-dice.py --mail: exit %d, want %d\n%s\nwant it to start %q", code, wantCode, out, wantPrefix)
	}
}
