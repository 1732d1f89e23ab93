package command

import (
	"bytes"
	"fmt"
	"image/png"
	"io"
	"log/slog"
	"net"
	"net/http"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"herald/pbem/mailbox"
)

// TestConfigWebSection: the status page is off without a web section,
// on loopback by default, and on another address only when public.
func TestConfigWebSection(t *testing.T) {
	base := "address: herald@club.example\nstore: herald.db\nimap: {addr: 127.0.0.1:1143, username: herald}\nsmtp: {addr: 127.0.0.1:1025}\n"
	for _, tc := range []struct {
		name, web string
		listen    string // "" off
		err       string
	}{
		{"off", "", "", ""},
		{"default", "web: {}\n", "127.0.0.1:8080", ""},
		{"loopback", "web: {listen: \"127.0.0.1:9090\"}\n", "127.0.0.1:9090", ""},
		{"ipv6 loopback", "web: {listen: \"[::1]:9090\"}\n", "[::1]:9090", ""},
		{"every interface refused", "web: {listen: \":8080\"}\n", "", "not a loopback address"},
		{"another address refused", "web: {listen: \"192.0.2.7:80\"}\n", "", "web.public: true"},
		{"public", "web: {listen: \"0.0.0.0:8080\", public: true}\n", "0.0.0.0:8080", ""},
		{"no port", "web: {listen: \"127.0.0.1\"}\n", "", "want host:port"},
		{"unknown key", "web: {listen: \"127.0.0.1:8080\", port: 80}\n", "", "field port not found"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			path := filepath.Join(t.TempDir(), "herald.yaml")
			os.WriteFile(path, []byte(base+tc.web), 0o600)
			cfg, err := LoadConfig(path)
			if tc.err != "" {
				if err == nil || !strings.Contains(err.Error(), tc.err) {
					t.Fatalf("err %v, want one saying %q", err, tc.err)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			switch {
			case tc.listen == "" && cfg.Web != nil:
				t.Errorf("web %+v, want off", cfg.Web)
			case tc.listen != "" && (cfg.Web == nil || cfg.Web.Listen != tc.listen):
				t.Errorf("web %+v, want listening on %s", cfg.Web, tc.listen)
			}
		})
	}
}

// freeAddr is a loopback address no one listens on now.
func freeAddr(t *testing.T) string {
	t.Helper()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer ln.Close()
	return ln.Addr().String()
}

// TestServeConfiguredWeb runs herald serve on a configuration with a web
// section, against the embedded mail server: the status page lists the
// store's game and draws its map, and stops with the daemon.
func TestServeConfiguredWeb(t *testing.T) {
	emb := startEmbedded(t, localUsers)
	dir := t.TempDir()
	config := filepath.Join(dir, "herald.yaml")
	addr := freeAddr(t)
	os.WriteFile(config, []byte(fmt.Sprintf(`address: herald@localhost
store: herald.db
imap: {addr: %s, security: plain, username: herald, password: herald, poll: 200ms}
smtp: {addr: %s, security: plain}
log: {level: warn}
web: {listen: "%s"}
`, emb.IMAPAddr(), emb.SMTPAddr(), addr)), 0o600)
	stop := serveWithGame(t, config, "crecy-web")
	var page string
	for deadline := time.Now().Add(20 * time.Second); time.Now().Before(deadline); time.Sleep(50 * time.Millisecond) {
		resp, err := http.Get("http://" + addr + "/")
		if err != nil {
			continue
		}
		b, _ := io.ReadAll(resp.Body)
		resp.Body.Close()
		page = string(b)
		break
	}
	if !strings.Contains(page, `href="/game/crecy-web"`) {
		t.Fatalf("the status page does not list the game:\n%s", page)
	}
	resp, err := http.Get("http://" + addr + "/game/crecy-web/map.png")
	if err != nil {
		t.Fatal(err)
	}
	b, _ := io.ReadAll(resp.Body)
	resp.Body.Close()
	if _, err := png.Decode(bytes.NewReader(b)); err != nil {
		t.Errorf("the map: %v", err)
	}
	if err := stop(); err != nil {
		t.Fatalf("serve: %v", err)
	}
	if _, err := http.Get("http://" + addr + "/"); err == nil {
		t.Error("the status page still answers after serve stopped")
	}
}

// TestServeWebFlag: --web is the embedded mode's, on loopback only.
func TestServeWebFlag(t *testing.T) {
	var stdout, stderr bytes.Buffer
	if code := Main([]string{"serve", "--temp", "--web", "0.0.0.0:8080"}, nil, &stdout, &stderr); code == 0 || !strings.Contains(stderr.String(), "not a loopback address") {
		t.Errorf("--web on every interface: exit %d: %s", code, stderr.String())
	}
	stderr.Reset()
	if code := Main([]string{"serve", "--config", "x.yaml", "--web", "127.0.0.1:8080"}, nil, &stdout, &stderr); code == 0 || !strings.Contains(stderr.String(), "web section") {
		t.Errorf("--web with --config: exit %d: %s", code, stderr.String())
	}
}

// TestConfigExampleWebSection: config.example.yaml's web section, once
// uncommented, is what LoadConfig reads.
func TestConfigExampleWebSection(t *testing.T) {
	raw, err := os.ReadFile("../../../config.example.yaml")
	if err != nil {
		t.Fatal(err)
	}
	text := string(raw)
	for _, l := range []string{"#web:", "#  listen:", "#  public:"} {
		if !strings.Contains(text, l) {
			t.Fatalf("config.example.yaml lacks %q", l)
		}
		text = strings.Replace(text, l, strings.TrimPrefix(l, "#"), 1)
	}
	path := filepath.Join(t.TempDir(), "herald.yaml")
	os.WriteFile(path, []byte(text), 0o600)
	cfg, err := LoadConfig(path)
	if err != nil {
		t.Fatal(err)
	}
	if cfg.Web == nil || cfg.Web.Listen != "127.0.0.1:8080" || cfg.Web.Public {
		t.Errorf("web %+v", cfg.Web)
	}
}

// startEmbedded starts an embedded mail server with these accounts, for
// the test's length.
func startEmbedded(t *testing.T, users []mailbox.User) *mailbox.Embedded {
	t.Helper()
	emb, err := mailbox.NewEmbedded(mailbox.EmbeddedConfig{Users: users, Logger: slog.New(slog.NewTextHandler(io.Discard, nil))})
	if err != nil {
		t.Fatal(err)
	}
	if err := emb.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { emb.Close() })
	return emb
}
