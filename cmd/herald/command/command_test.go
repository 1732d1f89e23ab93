package command

import (
	"bytes"
	"context"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"herald/pbem"
	"herald/pbem/games"
	"herald/pbem/mailbox"
	"herald/pbem/store"
)

// --help, -h or -help after any command, also after a subcommand's own
// words, prints that command's usage once, on standard output, and is a
// success (issue 16, item 9).
func TestHelpOfEveryCommand(t *testing.T) {
	for name := range commands {
		for _, args := range [][]string{{name, "--help"}, {name, "-h"}, {name, "x", "-help"}} {
			if name == "game" {
				args = append([]string{"game", "export"}, args[1:]...)
			}
			var stdout, stderr bytes.Buffer
			code := Main(args, strings.NewReader(""), &stdout, &stderr)
			if code != 0 {
				t.Errorf("herald %s: exit %d, want 0\n%s", strings.Join(args, " "), code, stderr.String())
			}
			if n := strings.Count(stdout.String(), "Usage: herald "+name); n != 1 {
				t.Errorf("herald %s: usage printed %d times on stdout, want once:\n%s", strings.Join(args, " "), n, stdout.String())
			}
			if stderr.Len() > 0 {
				t.Errorf("herald %s: stderr %q, want nothing", strings.Join(args, " "), stderr.String())
			}
		}
	}
}

// A "--help" after "--" is an argument, not a request for help.
func TestHelpAfterDoubleDash(t *testing.T) {
	if wantsHelp([]string{"--", "--help"}) || !wantsHelp([]string{"ID", "--help"}) {
		t.Error("wantsHelp does not stop at --")
	}
}

// herald game export says what it wrote: to a file on stdout, to stdout on
// stderr (so that the log itself stays clean for a pipe).
func TestGameExportSaysWhatItWrote(t *testing.T) {
	dir := t.TempDir()
	db := filepath.Join(dir, "herald.db")
	run := func(args ...string) (string, string) {
		t.Helper()
		var stdout, stderr bytes.Buffer
		if code := Main(args, strings.NewReader(""), &stdout, &stderr); code != 0 {
			t.Fatalf("herald %s: exit %d\n%s", strings.Join(args, " "), code, stderr.String())
		}
		return stdout.String(), stderr.String()
	}
	run("game", "new", "--store", db, "--scenario", "crecy", "--id", "crecy-x", "--side", "English=a@x.example", "--side", "French=b@x.example")
	file := filepath.Join(dir, "out.jsonl")
	out, _ := run("game", "export", "crecy-x", "--store", db, "--out", file)
	b, err := os.ReadFile(file)
	if err != nil {
		t.Fatal(err)
	}
	lines := bytes.Count(b, []byte{'\n'})
	want := "wrote the dice log of game crecy-x to " + file + " (" + strconv.Itoa(lines) + " lines"
	if !strings.Contains(out, want) || !strings.Contains(out, "herald verify "+file) {
		t.Errorf("export to a file says %q, want %q and how to verify it", out, want)
	}
	log, msg := run("game", "export", "crecy-x", "--store", db)
	if log != string(b) {
		t.Errorf("export to stdout differs from the file")
	}
	if !strings.Contains(msg, "wrote the dice log of game crecy-x to standard output ("+strconv.Itoa(lines)+" lines") {
		t.Errorf("export to stdout says %q on stderr", msg)
	}
}

// Orphaned (its go run parent gone, another process adopted it), the
// server's context ends; with its parent alive it does not.
func TestOrphanContext(t *testing.T) {
	var ppid atomic.Int64
	ppid.Store(4242)
	tick := make(chan time.Time)
	ctx := orphanContext(context.Background(), func() int { return int(ppid.Load()) }, tick)
	tick <- time.Time{}
	tick <- time.Time{} // taken: the watcher went on after the first tick
	if ctx.Err() != nil {
		t.Fatal("cancelled while the parent lives")
	}
	ppid.Store(1)
	for ctx.Err() == nil {
		select {
		case tick <- time.Time{}:
		case <-ctx.Done():
		}
	}
}

// herald serve on embedded defaults names its store file, and given that
// file again with --store it resumes the game instead of starting another,
// mailing each player Herald's latest mail again (the embedded server
// keeps mail in memory only).
func TestServeEmbeddedResumes(t *testing.T) {
	db := filepath.Join(t.TempDir(), "herald.db")
	serve := func() string {
		t.Helper()
		ctx, cancel := context.WithCancel(context.Background())
		cancel() // print, then stop at once
		var stdout, stderr bytes.Buffer
		err := serveEmbedded(ctx, Env{Stdout: &stdout, Stderr: &stderr}, localSetup{IMAPAddr: "127.0.0.1:0", SMTPAddr: "127.0.0.1:0", Store: db})
		if err != nil {
			t.Fatalf("serve: %v\n%s", err, stderr.String())
		}
		return stdout.String()
	}
	first := serve()
	if !strings.Contains(first, "Herald is serving game crecy-") || !strings.Contains(first, "herald serve --store "+db) {
		t.Fatalf("first run:\n%s", first)
	}
	id := strings.Fields(first[strings.Index(first, "game crecy-")+5:])[0]
	second := serve()
	if !strings.Contains(second, "Herald resumes the 1 game(s)") || !strings.Contains(second, id+" (crecy), move 1") ||
		!strings.Contains(second, "latest 2 mail(s)") {
		t.Fatalf("second run on the same store:\n%s", second)
	}
	// Queued: the two welcomes, then each again, saying why.
	st, err := store.Open(db)
	if err != nil {
		t.Fatal(err)
	}
	defer st.Close()
	again := 0
	err = st.View(func(tx *store.Tx) error {
		return tx.Outbox(func(e store.OutboxEntry) error {
			m, raw, err := games.QueuedMail(e.Mail)
			if err != nil {
				return err
			}
			if m == nil {
				pm, err := pbem.ReadMail(raw, pbem.ReadOptions{MaxBytes: 32 << 20})
				if err != nil {
					return err
				}
				m = &mailbox.Outgoing{Subject: pm.Subject, Text: pm.Text}
			}
			if strings.HasSuffix(m.Subject, "(again, after a restart)") && strings.Contains(m.Text, "Herald has been restarted") {
				again++
			}
			return nil
		})
	})
	if err != nil || again != 2 {
		t.Errorf("%d mails queued again after the restart, want 2 (%v)", again, err)
	}
}

// Finding 9 (issue 15): herald serve --temp keeps its store (with the
// signing key and installation secret) in a temporary file that is gone
// when it stops, and says so.
func TestServeEmbeddedDeletesItsTemporaryStore(t *testing.T) {
	t.Setenv("TMPDIR", t.TempDir())
	ctx, cancel := context.WithCancel(context.Background())
	cancel() // print, then stop at once
	var stdout, stderr bytes.Buffer
	if err := serveEmbedded(ctx, Env{Stdout: &stdout, Stderr: &stderr}, localSetup{IMAPAddr: "127.0.0.1:0", SMTPAddr: "127.0.0.1:0", Temp: true}); err != nil {
		t.Fatalf("serve: %v\n%s", err, stderr.String())
	}
	out := stdout.String()
	i := strings.Index(out, "Herald's store is the file ")
	if i < 0 || !strings.Contains(out, "deleted when Herald stops") {
		t.Fatalf("serve does not say its store is temporary:\n%s", out)
	}
	path := strings.Fields(out[i+len("Herald's store is the file "):])[0]
	if _, err := os.Stat(filepath.Dir(path)); !os.IsNotExist(err) {
		t.Errorf("the temporary store %s outlived serve (%v)", path, err)
	}
}

// Issue 16 item 9: herald serve on embedded defaults keeps its store in
// the user's state directory, readable by him only, and running it again
// resumes the game instead of starting another.
func TestServeEmbeddedDefaultStoreResumes(t *testing.T) {
	state := t.TempDir()
	t.Setenv("XDG_STATE_HOME", state)
	serve := func() string {
		t.Helper()
		ctx, cancel := context.WithCancel(context.Background())
		cancel() // print, then stop at once
		var stdout, stderr bytes.Buffer
		if err := serveEmbedded(ctx, Env{Stdout: &stdout, Stderr: &stderr}, localSetup{IMAPAddr: "127.0.0.1:0", SMTPAddr: "127.0.0.1:0"}); err != nil {
			t.Fatalf("serve: %v\n%s", err, stderr.String())
		}
		return stdout.String()
	}
	first := serve()
	db := filepath.Join(state, "herald", "embedded.db")
	if !strings.Contains(first, "Herald's store is the file "+db) || !strings.Contains(first, "run herald serve again to go on") {
		t.Fatalf("first run does not name its kept store %s:\n%s", db, first)
	}
	for path, want := range map[string]os.FileMode{db: 0o600, filepath.Dir(db): 0o700} {
		fi, err := os.Stat(path)
		if err != nil {
			t.Fatal(err)
		}
		if fi.Mode().Perm() != want {
			t.Errorf("%s: mode %v, want %v", path, fi.Mode().Perm(), want)
		}
	}
	id := strings.Fields(first[strings.Index(first, "game crecy-")+5:])[0]
	if second := serve(); !strings.Contains(second, "Herald resumes the 1 game(s)") || !strings.Contains(second, id+" (crecy)") {
		t.Fatalf("second run on embedded defaults does not resume %s:\n%s", id, second)
	}
}
