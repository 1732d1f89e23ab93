package web

import (
	"bytes"
	"context"
	"encoding/base64"
	"encoding/json"
	"fmt"
	"io"
	"net"
	"net/http"
	"os"
	"os/exec"
	"strings"
	"testing"
	"time"
)

// A small client of the W3C WebDriver protocol, enough to drive a real
// headless Chromium through chromedriver: a session, navigation, finding
// elements, clicking, typing a file's path into a file input, reading
// text and properties, screenshots.

// browserPaths finds chromium and chromedriver. Without them the browser
// tests skip, unless CI is set: CI installs them (.ci/run) and must run
// these tests.
func browserPaths(t *testing.T) (chromium, driver string) {
	t.Helper()
	find := func(names ...string) string {
		for _, n := range names {
			if p, err := exec.LookPath(n); err == nil {
				return p
			}
		}
		return ""
	}
	chromium = find("/usr/bin/chromium", "chromium", "chromium-browser")
	driver = find("/usr/bin/chromedriver", "chromedriver")
	if chromium == "" || driver == "" {
		msg := fmt.Sprintf("headless browser test: chromium (%q) or chromedriver (%q) not found; install the Debian packages chromium and chromium-driver", chromium, driver)
		if os.Getenv("CI") == "true" {
			t.Fatal(msg + " (CI=true: the browser tests must run)")
		}
		t.Skip(msg)
	}
	return chromium, driver
}

// driver is a running chromedriver.
type driver struct {
	t    testing.TB
	base string
	cmd  *exec.Cmd
}

// startDriver starts chromedriver on a free loopback port and waits for
// it to be ready.
func startDriver(t testing.TB, path string) *driver {
	t.Helper()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	port := ln.Addr().(*net.TCPAddr).Port
	ln.Close()
	var logs bytes.Buffer
	cmd := exec.Command(path, fmt.Sprintf("--port=%d", port), "--allowed-ips=127.0.0.1")
	cmd.Stdout, cmd.Stderr = &logs, &logs
	if err := cmd.Start(); err != nil {
		t.Fatalf("start chromedriver: %v", err)
	}
	d := &driver{t: t, base: fmt.Sprintf("http://127.0.0.1:%d", port), cmd: cmd}
	t.Cleanup(func() {
		cmd.Process.Kill()
		cmd.Wait()
	})
	for deadline := time.Now().Add(20 * time.Second); ; time.Sleep(100 * time.Millisecond) {
		var status struct {
			Ready bool `json:"ready"`
		}
		if err := d.call("GET", "/status", nil, &status); err == nil && status.Ready {
			return d
		}
		if time.Now().After(deadline) {
			t.Fatalf("chromedriver not ready after 20 s:\n%s", logs.String())
		}
	}
}

// call makes one WebDriver request and decodes the reply's "value".
func (d *driver) call(method, path string, body, value any) error {
	var rd io.Reader
	if body != nil {
		b, err := json.Marshal(body)
		if err != nil {
			return err
		}
		rd = bytes.NewReader(b)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
	defer cancel()
	req, err := http.NewRequestWithContext(ctx, method, d.base+path, rd)
	if err != nil {
		return err
	}
	req.Header.Set("Content-Type", "application/json")
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		return err
	}
	defer resp.Body.Close()
	raw, err := io.ReadAll(resp.Body)
	if err != nil {
		return err
	}
	var reply struct {
		Value json.RawMessage `json:"value"`
	}
	if err := json.Unmarshal(raw, &reply); err != nil {
		return fmt.Errorf("webdriver %s %s: status %d: %s", method, path, resp.StatusCode, raw)
	}
	if resp.StatusCode != http.StatusOK {
		var e struct{ Error, Message string }
		json.Unmarshal(reply.Value, &e)
		return fmt.Errorf("webdriver %s %s: %s: %s", method, path, e.Error, e.Message)
	}
	if value != nil {
		return json.Unmarshal(reply.Value, value)
	}
	return nil
}

// session is one browser.
type session struct {
	d  *driver
	id string
}

// newSession starts a headless Chromium with a profile of its own, no
// network of its own (updates, sync, QUIC) and a fixed window.
func (d *driver) newSession(chromium string, width, height int) *session {
	d.t.Helper()
	caps := map[string]any{"capabilities": map[string]any{"alwaysMatch": map[string]any{
		"browserName": "chrome",
		"goog:chromeOptions": map[string]any{
			"binary": chromium,
			"args": []string{"--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
				"--disable-background-networking", "--disable-component-update", "--disable-sync",
				"--disable-dev-shm-usage", "--hide-scrollbars", "--force-device-scale-factor=1",
				fmt.Sprintf("--window-size=%d,%d", width, height), "--user-data-dir=" + d.t.TempDir()},
		},
	}}}
	var v struct {
		SessionID string `json:"sessionId"`
	}
	if err := d.call("POST", "/session", caps, &v); err != nil {
		d.t.Fatalf("new browser session: %v", err)
	}
	s := &session{d: d, id: v.SessionID}
	d.t.Cleanup(func() { d.call("DELETE", "/session/"+s.id, nil, nil) })
	return s
}

func (s *session) must(err error) {
	s.d.t.Helper()
	if err != nil {
		s.d.t.Fatal(err)
	}
}

func (s *session) path(p string) string { return "/session/" + s.id + p }

func (s *session) navigate(url string) {
	s.d.t.Helper()
	s.must(s.d.call("POST", s.path("/url"), map[string]string{"url": url}, nil))
}

// elementKey is the W3C name of an element reference.
const elementKey = "element-6066-11e4-a52e-4f735466cecf"

// find finds an element by CSS selector, waiting up to 10 s for it.
func (s *session) find(css string) string {
	s.d.t.Helper()
	var last error
	for deadline := time.Now().Add(10 * time.Second); time.Now().Before(deadline); time.Sleep(100 * time.Millisecond) {
		var v map[string]string
		if last = s.d.call("POST", s.path("/element"), map[string]string{"using": "css selector", "value": css}, &v); last == nil {
			if id := v[elementKey]; id != "" {
				return id
			}
			last = fmt.Errorf("an element reference without %s: %v", elementKey, v)
		}
	}
	s.d.t.Fatalf("no element %q: %v", css, last)
	return ""
}

func (s *session) click(el string) {
	s.d.t.Helper()
	s.must(s.d.call("POST", s.path("/element/"+el+"/click"), map[string]any{}, nil))
}

func (s *session) text(el string) string {
	s.d.t.Helper()
	var v string
	s.must(s.d.call("GET", s.path("/element/"+el+"/text"), nil, &v))
	return v
}

// property reads a DOM property of an element, such as an image's
// naturalWidth.
func (s *session) property(el, name string) json.RawMessage {
	s.d.t.Helper()
	var v json.RawMessage
	s.must(s.d.call("GET", s.path("/element/"+el+"/property/"+name), nil, &v))
	return v
}

// typeInto types text into an element: for a file input, the path of the
// file to upload.
func (s *session) typeInto(el, text string) {
	s.d.t.Helper()
	s.must(s.d.call("POST", s.path("/element/"+el+"/value"), map[string]string{"text": text}, nil))
}

func (s *session) title() string {
	s.d.t.Helper()
	var v string
	s.must(s.d.call("GET", s.path("/title"), nil, &v))
	return v
}

// screenshot is the window's PNG.
func (s *session) screenshot() []byte {
	s.d.t.Helper()
	var v string
	s.must(s.d.call("GET", s.path("/screenshot"), nil, &v))
	b, err := base64.StdEncoding.DecodeString(v)
	s.must(err)
	return b
}

// waitText waits up to 10 s for an element's text to hold want.
func (s *session) waitText(css, want string) string {
	s.d.t.Helper()
	var got string
	for deadline := time.Now().Add(10 * time.Second); time.Now().Before(deadline); time.Sleep(100 * time.Millisecond) {
		if got = s.text(s.find(css)); strings.Contains(got, want) {
			return got
		}
	}
	s.d.t.Fatalf("%s says %q, want %q", css, got, want)
	return got
}
