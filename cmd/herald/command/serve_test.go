package command

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"runtime/debug"
	"strings"
	"testing"
	"time"

	"github.com/emersion/go-imap/v2/imapclient"

	"herald/pbem/games"
	"herald/pbem/mailbox"
)

// herald demo plays a game by mail over real IMAP and SMTP, writes its
// mails and dice log, and the log verifies.
func TestDemo(t *testing.T) {
	out := filepath.Join(t.TempDir(), "demo")
	var stdout, stderr bytes.Buffer
	code := Main([]string{"demo", "--out", out, "--moves", "6"}, strings.NewReader(""), &stdout, &stderr)
	if code != 0 {
		t.Fatalf("exit %d:\n%s%s", code, stdout.String(), stderr.String())
	}
	if !strings.Contains(stdout.String(), "verified") && !strings.Contains(stdout.String(), "OK") {
		t.Errorf("no verification in the summary:\n%s", stdout.String())
	}
	emls, _ := filepath.Glob(filepath.Join(out, "*.eml"))
	if len(emls) < 10 {
		t.Errorf("%d mails written, want at least 10 for six moves", len(emls))
	}
	if _, err := os.Stat(filepath.Join(out, "dice.jsonl")); err != nil {
		t.Error(err)
	}
	// The mails hold both players' keys (issue 15, finding 9).
	if fi, err := os.Stat(out); err != nil || fi.Mode().Perm() != 0o700 {
		t.Errorf("the demo's folder: %v %v, want mode 0700", fi.Mode(), err)
	}
	files, _ := filepath.Glob(filepath.Join(out, "*"))
	for _, f := range files {
		if fi, err := os.Stat(f); err != nil || fi.Mode().Perm()&0o077 != 0 {
			t.Errorf("%s: mode %v, readable by others", f, fi.Mode())
		}
	}
	if code, out := runVerifyOn(t, mustRead(t, filepath.Join(out, "dice.jsonl"))); code != 0 {
		t.Errorf("herald verify on the demo's log: exit %d\n%s", code, out)
	}
}

// herald demo --scenario melee-test starts in contact: the scripted
// players Shock at once, and the mails show the combat's arithmetic.
func TestDemoMelee(t *testing.T) {
	out := t.TempDir()
	var stdout, stderr bytes.Buffer
	code := Main([]string{"demo", "--out", out, "--moves", "4", "--scenario", "melee-test"}, strings.NewReader(""), &stdout, &stderr)
	if code != 0 {
		t.Fatalf("exit %d:\n%s%s", code, stdout.String(), stderr.String())
	}
	if !strings.Contains(stdout.String(), "melee-test-demo-") {
		t.Errorf("the summary does not name a melee-test game:\n%s", stdout.String())
	}
	emls, _ := filepath.Glob(filepath.Join(out, "herald-processed-*.eml"))
	// The dice list of a result mail names each roll on one line.
	rolled := regexp.MustCompile(`(Shock|Charge) DR: \S+ against`)
	var shock bool
	for _, f := range emls {
		shock = shock || rolled.Match(mustRead(t, f))
	}
	if !shock {
		t.Errorf("no Shock or Charge result in the %d mails the players answered", len(emls))
	}
	if code, out := runVerifyOn(t, mustRead(t, filepath.Join(out, "dice.jsonl"))); code != 0 {
		t.Errorf("herald verify on the demo's log: exit %d\n%s", code, out)
	}
}

// herald demo --scenario plays each of Herald's reconstructed battles by
// mail until both armies have fought (a Fire, Shock or Charge roll) and made
// Loss Checks at the end of a Free Activation (16.0), and its log verifies.
func TestDemoBattles(t *testing.T) {
	for _, c := range []struct {
		scenario string
		moves    int
	}{{"poitiers", 14}, {"najera", 8}, {"falkirk", 8}} {
		t.Run(c.scenario, func(t *testing.T) {
			out := t.TempDir()
			var stdout, stderr bytes.Buffer
			code := Main([]string{"demo", "--out", out, "--moves", fmt.Sprint(c.moves), "--scenario", c.scenario}, strings.NewReader(""), &stdout, &stderr)
			if code != 0 {
				t.Fatalf("exit %d:\n%s%s", code, stdout.String(), stderr.String())
			}
			emls, _ := filepath.Glob(filepath.Join(out, "herald-processed-*.eml"))
			combat := regexp.MustCompile(`(Fire|Shock|Charge) DR: \S+ (at|against)`)
			check := regexp.MustCompile(`Loss Check for the (\S+):`)
			var fought bool
			checked := map[string]bool{}
			for _, f := range emls {
				b := mustRead(t, f)
				fought = fought || combat.Match(b)
				for _, m := range check.FindAllSubmatch(b, -1) {
					checked[string(m[1])] = true
				}
			}
			// Each player's welcome says the battle's own rules.
			for _, player := range []string{"alice", "bob"} {
				welcome := mustRead(t, filepath.Join(out, player+"-processed-001.eml"))
				if !bytes.Contains(welcome, []byte("This battle's own rules")) {
					t.Errorf("%s's welcome does not state the battle's own rules", player)
				}
			}
			if !fought || len(checked) != 2 {
				t.Errorf("in the %d mails the players answered: combat %v, Loss Checks by %v; want combat and both sides' Loss Checks", len(emls), fought, checked)
			}
			if code, out := runVerifyOn(t, mustRead(t, filepath.Join(out, "dice.jsonl"))); code != 0 {
				t.Errorf("herald verify on the demo's log: exit %d\n%s", code, out)
			}
		})
	}
}

func mustRead(t *testing.T, path string) []byte {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	return b
}

// herald serve against dovecot, an IMAP server nobody here wrote: Herald
// reads its orders from dovecot and sends its replies to an SMTP server
// (the embedded one, which files them in the players' mailboxes). Runs
// when .ci/run has started dovecot:
//
//	HERALD_TEST_DOVECOT=1 HERALD_DOVECOT_ADDR=127.0.0.1:14300 \
//	HERALD_DOVECOT_USER=herald HERALD_DOVECOT_PASS=secret go test -run Dovecot ./cmd/herald/command/
func TestServeAgainstDovecot(t *testing.T) {
	if os.Getenv("HERALD_TEST_DOVECOT") != "1" {
		t.Skip("set HERALD_TEST_DOVECOT=1 and start dovecot with .ci/dovecot-start.sh")
	}
	imapAddr, user, pass := os.Getenv("HERALD_DOVECOT_ADDR"), os.Getenv("HERALD_DOVECOT_USER"), os.Getenv("HERALD_DOVECOT_PASS")
	emb := startEmbedded(t, []mailbox.User{{Name: "alice", Password: "a"}, {Name: "bob", Password: "b"}})
	dir := t.TempDir()
	config := filepath.Join(dir, "herald.yaml")
	os.WriteFile(filepath.Join(dir, "imap-password"), []byte(pass+"\n"), 0o600)
	os.WriteFile(config, []byte(fmt.Sprintf(`address: %s@localhost
store: herald.db
imap:
  addr: %s
  security: plain
  username: %s
  password_file: imap-password
  poll: 200ms
smtp:
  addr: %s
  security: plain
log:
  level: warn
`, user, imapAddr, user, emb.SMTPAddr())), 0o600)
	stop := serveWithGame(t, config, "crecy-dovecot")
	players := map[string]*games.Autoplayer{"alice": {Address: "alice@localhost"}, "bob": {Address: "bob@localhost"}}
	answered := map[string]bool{}
	sent := 0
	for deadline := time.Now().Add(60 * time.Second); sent < 6 && time.Now().Before(deadline); {
		for name, ap := range players {
			msgs, err := emb.Messages(name, "INBOX")
			if err != nil {
				t.Fatal(err)
			}
			for _, m := range msgs {
				key := fmt.Sprint(name, m.UID)
				if answered[key] {
					continue
				}
				answered[key] = true
				reply, err := ap.Reply(m.Raw)
				if err != nil {
					t.Fatal(err)
				}
				if reply == nil {
					continue
				}
				raw, err := mailbox.Compose(*reply)
				if err != nil {
					t.Fatal(err)
				}
				appendIMAP(t, imapAddr, user, pass, raw)
				sent++
			}
		}
		time.Sleep(100 * time.Millisecond)
	}
	time.Sleep(time.Second) // the last reply's result
	if err := stop(); err != nil {
		t.Fatalf("serve: %v", err)
	}
	if sent < 6 {
		t.Fatalf("the players sent %d order mails in a minute, want 6", sent)
	}
	var export, stderr bytes.Buffer
	if code := Main([]string{"game", "export", "--config", config, "crecy-dovecot"}, nil, &export, &stderr); code != 0 {
		t.Fatalf("export: %s", stderr.String())
	}
	if code, out := runVerifyOn(t, export.Bytes()); code != 0 || !strings.Contains(out, "blocks") {
		t.Errorf("verify: exit %d\n%s", code, out)
	}
}

// appendIMAP delivers a mail to a mailbox as a mail server would, by IMAP
// APPEND.
func appendIMAP(t *testing.T, addr, user, pass string, raw []byte) {
	t.Helper()
	c, err := imapclient.DialInsecure(addr, nil)
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	if err := c.Login(user, pass).Wait(); err != nil {
		t.Fatal(err)
	}
	cmd := c.Append("INBOX", int64(len(raw)), nil)
	if _, err := cmd.Write(raw); err != nil {
		t.Fatal(err)
	}
	if err := cmd.Close(); err != nil {
		t.Fatal(err)
	}
	if _, err := cmd.Wait(); err != nil {
		t.Fatal(err)
	}
	c.Logout().Wait()
}

// herald render draws a battle at its start, and a stored game now.
func TestRender(t *testing.T) {
	dir := t.TempDir()
	out := filepath.Join(dir, "crecy.png")
	var stdout, stderr bytes.Buffer
	if code := Main([]string{"render", "--scenario", "crecy", "--out", out}, nil, &stdout, &stderr); code != 0 {
		t.Fatalf("exit %d: %s", code, stderr.String())
	}
	if b := mustRead(t, out); !bytes.HasPrefix(b, []byte("\x89PNG")) {
		t.Error("not a PNG")
	}
	db := filepath.Join(dir, "herald.db")
	if code := Main([]string{"game", "new", "--store", db, "--id", "crecy-r", "--scenario", "crecy",
		"--side", "English=alice@example.org", "--side", "French=bob@example.org"}, nil, &stdout, &stderr); code != 0 {
		t.Fatalf("game new: %s", stderr.String())
	}
	if code := Main([]string{"render", "--store", db, "--game", "crecy-r", "--out", out}, nil, &stdout, &stderr); code != 0 {
		t.Fatalf("render a stored game: %s", stderr.String())
	}
	for _, args := range [][]string{{"game", "list", "--store", db}, {"game", "show", "crecy-r", "--store", db}} {
		stdout.Reset()
		if code := Main(args, nil, &stdout, &stderr); code != 0 || !strings.Contains(stdout.String(), "crecy-r") {
			t.Errorf("%v: exit %d\n%s%s", args, code, stdout.String(), stderr.String())
		}
	}
	if code := Main([]string{"render", "--scenario", "nowhere"}, nil, &stdout, &stderr); code != 1 {
		t.Errorf("unknown battle: exit %d", code)
	}
}

// serveWithGame creates a game of Crécy between alice and bob on the
// store of config, as herald game new does, and runs herald serve on the
// configuration until stop, which returns what serve returned (an error
// if it has not stopped 20 seconds after being told to).
func serveWithGame(t *testing.T, config, id string) (stop func() error) {
	t.Helper()
	var stdout, stderr bytes.Buffer
	if code := Main([]string{"game", "new", "--config", config, "--id", id, "--scenario", "crecy",
		"--side", "English=alice@localhost", "--side", "French=bob@localhost"}, nil, &stdout, &stderr); code != 0 {
		t.Fatalf("game new: exit %d: %s", code, stderr.String())
	}
	cfg, err := LoadConfig(config)
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan error, 1)
	go func() { done <- serveConfigured(ctx, cfg) }()
	return func() error {
		cancel()
		select {
		case err := <-done:
			return err
		case <-time.After(20 * time.Second):
			return errors.New("serve did not stop")
		}
	}
}

// herald serve lets the heap grow five times before collecting when its
// mails carry no maps, unless the operator set GOGC.
func TestDaemonGC(t *testing.T) {
	defer debug.SetGCPercent(debug.SetGCPercent(100))
	daemonGC(func(string) string { return "" }, false)
	if got := debug.SetGCPercent(100); got != 400 {
		t.Errorf("GC percent %d without GOGC nor maps, want 400", got)
	}
	daemonGC(func(string) string { return "" }, true)
	if got := debug.SetGCPercent(100); got != 100 {
		t.Errorf("GC percent %d with maps, want Go's default", got)
	}
	daemonGC(func(string) string { return "off" }, false)
	if got := debug.SetGCPercent(100); got != 100 {
		t.Errorf("GC percent %d with GOGC set, want the operator's", got)
	}
}
